import MapDrawing
import MapGeometry
import Testing

@testable import MapPipeline

/// The labels' sub-pixel phase held while the map pans (LabelPhaseHold.swift), and a label's glyph runs moved by
/// whole device pixels (GlyphRunMoves.swift).
@Suite struct LabelPhaseHoldTests {
    private let start = CameraState(
        center: LatLng(latitude: 60.1699, longitude: 24.9415), zoom: 17, size: ScreenSize(width: 640, height: 360))

    /// `camera` with its centre moved to the screen point `(dx, dy)` points from its optical centre.
    private func panned(_ camera: CameraState, _ dx: Double, _ dy: Double) -> CameraState {
        var c = camera
        let o = camera.opticalCenter
        c.center = camera.latLng(for: ScreenPoint(x: o.x + dx, y: o.y + dy))!
        return c
    }

    /// `camera` with `change` made.
    private func with(_ camera: CameraState, _ change: (inout CameraState) -> Void) -> CameraState {
        var c = camera
        change(&c)
        return c
    }

    /// Device pixels from the optical centre to where `camera` draws `start`'s centre.
    private func offset(of camera: CameraState, scale: Double) -> (x: Double, y: Double) {
        let p = camera.screenPoint(for: start.center)
        return ((p.x - camera.opticalCenter.x) * scale, (p.y - camera.opticalCenter.y) * scale)
    }

    @Test func aPanKeepsTheFirstFramesPhaseWithinHalfAPixel() {
        for scale in [1.0, 2.0] {
            var hold = LabelPhaseHold()
            #expect(hold.camera(for: start, scale: scale) == start)
            for (dx, dy) in [(3.3, 1.7), (-12.71, 40.49), (0.2, -0.2), (250.5, -99.25)] {
                let camera = panned(start, dx, dy)
                let labels = hold.camera(for: camera, scale: scale)
                let moved = offset(of: labels, scale: scale)
                // The first centre lands on whole device pixels, as the map moved rounded.
                #expect(abs(moved.x - moved.x.rounded()) < 1e-6, "\(dx), \(dy) at \(scale): \(moved.x)")
                #expect(abs(moved.y - moved.y.rounded()) < 1e-6, "\(dx), \(dy) at \(scale): \(moved.y)")
                #expect(moved.x.rounded() == (-dx * scale).rounded(), "\(dx) at \(scale): \(moved.x)")
                #expect(moved.y.rounded() == (-dy * scale).rounded(), "\(dy) at \(scale): \(moved.y)")
                // The labels' camera is the frame's moved by less than half a device pixel on each axis.
                let exact = offset(of: camera, scale: scale)
                #expect(abs(moved.x - exact.x) <= 0.5 + 1e-9 && abs(moved.y - exact.y) <= 0.5 + 1e-9)
                #expect(labels.zoom == camera.zoom && labels.bearing == camera.bearing && labels.size == camera.size)
            }
        }
    }

    @Test func anyOtherChangeOrAPitchDrawsTheFramesOwnCamera() {
        var hold = LabelPhaseHold()
        _ = hold.camera(for: start, scale: 1)
        let pan = panned(start, 3.3, 1.7)
        #expect(hold.camera(for: pan, scale: 1) != pan)
        // Zoom, bearing, size or scale changed: the hold begins again at that camera, exactly.
        let zoomed = with(pan) { $0.zoom = 17.5 }
        #expect(hold.camera(for: zoomed, scale: 1) == zoomed)
        let zoomedPan = panned(zoomed, 0.4, 0)
        #expect(hold.camera(for: zoomedPan, scale: 1) != zoomedPan)
        let turned = with(zoomedPan) { $0.bearing = 30 }
        #expect(hold.camera(for: turned, scale: 1) == turned)
        #expect(hold.camera(for: turned, scale: 2) == turned)
        // A jump of more than the view from the last frame is another place: the hold begins again there.
        let far = panned(turned, 1000.3, 0)
        #expect(hold.camera(for: far, scale: 2) == far)
        let near = panned(far, 600.3, 0)
        #expect(hold.camera(for: near, scale: 2) != near)
        // Pitched: a pan does not move the map rigidly; nothing is held.
        let pitched = with(start) { $0.pitch = 40 }
        #expect(hold.camera(for: pitched, scale: 1) == pitched)
        let pitchedPan = panned(pitched, 3.3, 1.7)
        #expect(hold.camera(for: pitchedPan, scale: 1) == pitchedPan)
        // A turned, unpitched map pans rigidly too.
        let turnedFlat = with(start) { $0.bearing = 45 }
        #expect(hold.camera(for: turnedFlat, scale: 1) == turnedFlat)
        let turnedPan = panned(turnedFlat, 7.25, -3.6)
        let labels = hold.camera(for: turnedPan, scale: 1)
        #expect(labels != turnedPan)
        let p = labels.screenPoint(for: turnedFlat.center)
        let o = labels.opticalCenter
        #expect(abs((p.x - o.x) - (p.x - o.x).rounded()) < 1e-6 && abs((p.y - o.y) - (p.y - o.y).rounded()) < 1e-6)
    }

    @Test func aLabelMovedByWholePixelsReusesItsRunMoved() {
        let style = TextStyle(size: 12)
        let text = TextCommand(text: "Esplanadi", style: style, position: ScreenPoint(x: 100.25, y: 50.125))
        let run = GlyphRunCommand(
            masks: [
                GlyphRunCommand.Mask(
                    coverage: [0, 128, 255, 64], x: 99, y: 40, width: 2, height: 2, color: .black,
                    clip: RenderTransform(a: 0.5, b: 0.25, c: -0.25, d: 0.5, tx: 3, ty: -7), clipWidth: 10,
                    clipHeight: 12)
            ], pixelRatio: 2)
        let memo = GlyphRunMemo(command: .text(text), passes: .fill, run: run, isMade: true)
        func moved(_ dx: Double, _ dy: Double, _ change: (inout TextCommand) -> Void = { _ in }) -> DrawCommand {
            var t = text
            t.position = ScreenPoint(x: t.position.x + dx, y: t.position.y + dy)
            change(&t)
            return .text(t)
        }
        // Points at scale 2: 1.5 points is 3 device pixels.
        #expect(memo.move(to: moved(1.5, -2), scale: 2).map { [$0.x, $0.y] } == [3, -4])
        #expect(memo.move(to: moved(0, 0), scale: 2).map { [$0.x, $0.y] } == [0, 0])
        #expect(memo.move(to: moved(0.25, 0), scale: 2) == nil)
        #expect(memo.move(to: moved(1.5, 0) { $0.text = "Mannerheimintie" }, scale: 2) == nil)
        #expect(memo.move(to: moved(1.5, 0) { $0.opacity = 0.5 }, scale: 2) == nil)
        // The moved run draws the run's pixels 3 right and 4 up (its clip included: the quad's edge cuts the mask),
        // and keeps its masks as they were.
        func pixels(_ run: GlyphRunCommand, offsetX: Int, offsetY: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: 32 * 32 * 4)
            bytes.withUnsafeMutableBufferPointer { b in
                run.composite(
                    into: LinePixelTarget(base: b.baseAddress!, width: 32, height: 32, bytesPerRow: 32 * 4),
                    offsetX: offsetX, offsetY: offsetY, clip: PixelRect(minX: 0, minY: 0, maxX: 32, maxY: 32))
            }
            return bytes
        }
        func square(clipWidth: Double, clipHeight: Double, ty: Double) -> GlyphRunCommand {
            GlyphRunCommand(
                masks: [
                    GlyphRunCommand.Mask(
                        coverage: [UInt8](repeating: 200, count: 36), x: 99, y: 40, width: 6, height: 6,
                        color: .black, clip: RenderTransform(a: 1, b: 0, c: 0, d: 1, tx: -99, ty: ty),
                        clipWidth: clipWidth, clipHeight: clipHeight)
                ], pixelRatio: 2)
        }
        let whole = square(clipWidth: 6, clipHeight: 6, ty: -40)
        let clipped = square(clipWidth: 4.5, clipHeight: 5, ty: -40.5)
        let count = { (r: GlyphRunCommand) in pixels(r, offsetX: -90, offsetY: -30).filter { $0 != 0 }.count }
        #expect(count(clipped) > 0 && count(clipped) < count(whole))
        for original in [run, whole, clipped] {
            let shifted = original.moved(x: 3, y: -4)
            #expect(shifted?.masks == original.masks)
            #expect(shifted.map { [$0.shiftX, $0.shiftY] } == [3, -4])
            let box = original.bounds.map { [$0.minX + 3, $0.minY - 4, $0.maxX + 3, $0.maxY - 4] }
            #expect(shifted?.bounds.map { [$0.minX, $0.minY, $0.maxX, $0.maxY] } == box)
            #expect(
                shifted.map { pixels($0, offsetX: -90, offsetY: -30) } == pixels(original, offsetX: -87, offsetY: -34))
        }
        // Moves add up; a shift reaching 2³⁰ is refused (the label's run is made again).
        #expect(run.moved(x: 3, y: -4)?.moved(x: -1, y: 1).map { [$0.shiftX, $0.shiftY] } == [2, -3])
        #expect(run.moved(x: 1 << 29, y: 0)?.moved(x: 1 << 29, y: 0) == nil)
    }
}
