import Foundation
import MapDrawing
import MapGeometry
import Testing

@testable import GoogleMaps
@testable import LinuxUIKit

/// A backend in front of another: records every list drawn into a target and passes every call on (so the frame's
/// tile images, registered in the inner backend, still resolve); with `refuses`, draws refuse every target instead.
private final class WatchingBackend: RenderBackend {
    let inner: any RenderBackend
    let refuses: Bool
    private(set) var drawn: [DisplayList] = []
    init(_ inner: any RenderBackend, refuses: Bool = false) {
        self.inner = inner
        self.refuses = refuses
    }
    var textMeasurer: any TextMeasurer { inner.textMeasurer }
    func render(_ list: DisplayList) throws -> RasterImage { try inner.render(list) }
    func renderImage(_ list: DisplayList) throws -> ImageHandle { try inner.renderImage(list) }
    func register(_ image: RasterImage) throws -> ImageHandle { try inner.register(image) }
    func unregister(_ handle: ImageHandle) { inner.unregister(handle) }
    func useCacheStore(_ store: (any BackendCacheStore)?) { inner.useCacheStore(store) }
    func draw(_ list: DisplayList, into target: any RenderTarget) throws {
        drawn.append(list)
        if refuses { throw RenderError.unsupportedTarget("WatchingBackend refuses \(type(of: target))") }
        try inner.draw(list, into: target)
    }
}

/// The basemap reaches the view's context only through the `RenderBackend` protocol (issue 17).
@MainActor @Suite(.serialized) struct BasemapBackendTests {
    static let helsinki = CLLocationCoordinate2D(latitude: 60.1699, longitude: 24.9384)

    /// A map view's frame hands the basemap's display list (the view's size and scale, the style's commands) to
    /// the basemap's backend through ``RenderBackend/draw(_:into:)``, with the view's context as the target, and the
    /// pixels come out as they do without the watcher in between.
    @Test func aMapViewDrawsItsBasemapThroughTheProtocol() throws {
        _ = installMapClock()
        let direct = try VectorBasemapRenderer()
        let watched = try VectorBasemapRenderer()
        let watcher = WatchingBackend(watched.backend)
        watched.backend = watcher
        let plainMap = makeMap(GMSCameraPosition(target: Self.helsinki, zoom: 14))
        plainMap.basemap = direct
        let watchedMap = makeMap(GMSCameraPosition(target: Self.helsinki, zoom: 14))
        watchedMap.basemap = watched
        let expected = plainMap.renderFrame(scale: 2)
        let image = watchedMap.renderFrame(scale: 2)
        let list = try #require(watcher.drawn.last)
        #expect(watcher.drawn.count == 1)
        #expect(list.size == ScreenSize(width: 400, height: 300) && list.scale == 2)
        #expect(list.commands.count > 10, "the style's background and tiles")
        #expect(image.pngData() == expected.pngData())
    }

    /// A backend that cannot draw into the view's context throws; the map view draws the frame without the basemap
    /// (no crash), logs the failure once, and goes on drawing later frames.
    @Test func aBackendThatRefusesTheContextDoesNotCrashTheFrame() throws {
        _ = installMapClock()
        let basemap = try VectorBasemapRenderer()
        let refusing = WatchingBackend(basemap.backend, refuses: true)
        basemap.backend = refusing
        let map = makeMap(GMSCameraPosition(target: Self.helsinki, zoom: 14))
        map.basemap = basemap
        _ = map.renderFrame(scale: 1)
        _ = map.renderFrame(scale: 1)
        #expect(refusing.drawn.count == 2)
        #expect(
            GMSLog.messages.filter { $0.contains("cannot draw into the view's context") }.count == 1,
            "logged once (no other test makes a backend refuse)")
    }

    /// Every diagnostic of a map view's style reaches the log once per style (issue 34): a layer whose source does
    /// not exist and a layer of an unknown type are named, not silently dropped.
    @Test func everyStyleDiagnosticIsLoggedOncePerStyle() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "diagnostics-\(UUID().uuidString).json")
        let style = #"""
            {"version": 8, "sources": {}, "layers": [
              {"id": "bg", "type": "background"},
              {"id": "orphan", "type": "fill", "source": "nowhere-34"},
              {"id": "odd", "type": "hologram-34"}]}
            """#
        try Data(style.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try VectorBasemapRenderer(styleFile: file.path)
        func logged() -> [String] { GMSLog.messages.filter { $0.contains("nowhere-34") || $0.contains("hologram-34") } }
        let lines = logged()
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("GMSMapView style:") }, "\(lines)")
    }
}
