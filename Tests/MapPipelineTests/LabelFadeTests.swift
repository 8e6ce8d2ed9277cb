import MapData
import MapDrawing
import MapGeometry
import MapStyle
import MapTestSupport
import Testing
import WaymarkTime

@testable import MapPipeline

/// Two points 400 tile units apart on the equator: 25 points apart at zoom 0 (their labels collide), 200 at zoom 3.
private let twoPoints: [UInt8] = MVTWriter(layers: [
    (
        "pois",
        [
            .init(geometry: .point(1848, 2048), properties: ["name": "Alpha"], id: 1),
            .init(geometry: .point(2248, 2048), properties: ["name": "Bravo"], id: 2),
        ]
    )
]).encode()

private let labelLayer = """
    {"id": "label", "type": "symbol", "source": "t", "source-layer": "pois", "layout": {"text-field": ["get", "name"], "text-size": 12}}
    """

private func fadingRenderer(duration: Double, clock: ManualClock) throws -> MapRenderer {
    var options = vectorOnly
    options.labelFadeDuration = duration
    let r = try renderer(
        style: testStyle(layers: labelLayer), tiles: [TileID(z: 0, x: 0, y: 0): twoPoints], options: options,
        backend: RecordingBackend())
    r.clock = clock
    return r
}

/// The opacity of each drawn label by its text.
private func labelOpacities(_ list: DisplayList) -> [String: Double] {
    var out: [String: Double] = [:]
    for case .text(let t) in list.commands { out[t.text] = t.opacity }
    return out
}

@Test func aPlacedLabelFadesInOverTheDurationAndThenStopsAskingForFrames() throws {
    let clock = ManualClock()
    let r = try fadingRenderer(duration: 0.3, clock: clock)
    let cam = camera(zoom: 3, size: 512)
    #expect(labelOpacities(r.displayList(camera: cam)).isEmpty)  // opacity 0: not drawn
    #expect(r.wantsAnotherFrame)
    clock.advance(by: 0.15)
    let half = labelOpacities(r.displayList(camera: cam))
    #expect(half.keys.sorted() == ["Alpha", "Bravo"])
    #expect(half.values.allSatisfy { abs($0 - 0.5) < 1e-9 })
    #expect(r.wantsAnotherFrame)
    clock.advance(by: 0.15)
    let full = labelOpacities(r.displayList(camera: cam))
    #expect(full == ["Alpha": 1, "Bravo": 1])
    #expect(!r.wantsAnotherFrame)
}

@Test func aLabelThatCollidesAwayFadesOutAndIsGoneAfterTheDuration() throws {
    let clock = ManualClock()
    let r = try fadingRenderer(duration: 0.3, clock: clock)
    _ = r.displayList(camera: camera(zoom: 3, size: 512))
    clock.advance(by: 1)
    #expect(labelOpacities(r.displayList(camera: camera(zoom: 3, size: 512))).count == 2)
    // Zoomed out the two collide: one stays placed, the other fades out (still drawn, not in the grid). The view is
    // the world's width, so no other world copy of the labels is in it.
    let near = camera(zoom: 0, size: 256)
    let first = r.displayList(camera: near)
    #expect(r.lastFrameStatistics.labelsPlaced == 1)
    #expect(labelOpacities(first).values.sorted() == [1, 1])  // no time has passed yet
    clock.advance(by: 0.1)
    let fading = labelOpacities(r.displayList(camera: near))
    #expect(fading.count == 2)
    #expect(fading.values.sorted().first.map { abs($0 - 2.0 / 3) < 1e-9 } == true)
    #expect(r.wantsAnotherFrame)
    clock.advance(by: 0.2)
    let settled = labelOpacities(r.displayList(camera: near))
    #expect(settled.count == 1 && settled.values.first == 1)
    #expect(!r.wantsAnotherFrame)
}

@Test func withNoFadeDurationTheFrameIsThePlacementsOwn() throws {
    let clock = ManualClock()
    let fading = try fadingRenderer(duration: 0, clock: clock)
    let plain = try renderer(
        style: testStyle(layers: labelLayer), tiles: [TileID(z: 0, x: 0, y: 0): twoPoints], options: vectorOnly,
        backend: RecordingBackend())
    for zoom in [3.0, 0, 3] {
        clock.advance(by: 0.1)
        let a = fading.displayList(camera: camera(zoom: zoom, size: 512))
        let b = plain.displayList(camera: camera(zoom: zoom, size: 512))
        #expect(a.commands == b.commands)
        #expect(!fading.wantsAnotherFrame)
    }
    #expect(labelOpacities(fading.displayList(camera: camera(zoom: 3, size: 512))) == ["Alpha": 1, "Bravo": 1])
}
