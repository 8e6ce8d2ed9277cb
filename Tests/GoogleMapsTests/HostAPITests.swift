import Foundation
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps

/// Issue 15's public host API and fidelity fixes on GoogleMaps: rendering-equality of camera positions, padding
/// animated inside `UIView.animate`, MapLibre styles from JSON text and URLs, location providers set in code, and no
/// underscored public declarations left in the library targets.
@MainActor @Suite(.serialized) struct HostAPITests {
    @Test func positionsThatRenderTheSameAreEqual() {
        let map = GMSMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        let a = GMSCameraPosition(latitude: 60.1699, longitude: 24.9443, zoom: 15)
        let b = GMSCameraPosition(latitude: 60.1699 + 1e-12, longitude: 24.9443 - 1e-12, zoom: 15)
        let far = GMSCameraPosition(latitude: 60.1699, longitude: 24.9453, zoom: 15)
        let turned = GMSCameraPosition(latitude: 60.1699, longitude: 24.9443, zoom: 15, bearing: 10, viewingAngle: 0)
        #expect(map.areEqual(forRenderingPosition: a, position: b))
        #expect(!map.areEqual(forRenderingPosition: a, position: far))
        #expect(!map.areEqual(forRenderingPosition: a, position: turned))
        let wrapA = GMSCameraPosition(latitude: 0, longitude: 180, zoom: 3)
        let wrapB = GMSCameraPosition(latitude: 0, longitude: -180, zoom: 3)
        #expect(map.areEqual(forRenderingPosition: wrapA, position: wrapB))
    }

    @Test func paddingAnimatesInsideUIViewAnimate() {
        let clock = installMapClock()
        let map = GMSMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        map.tick()
        UIView.animate(
            withDuration: 1, delay: 0, options: .curveLinear,
            animations: {
                map.padding = UIEdgeInsets(top: 0, left: 0, bottom: 100, right: 0)
            })
        #expect(map.padding.bottom == 100, "the model value changes at once")
        clock.advance(by: 0.5)
        map.tick()
        #expect(abs(map.cameraState.padding.bottom - 50) < 1, "halfway: \(map.cameraState.padding.bottom)")
        clock.advance(by: 0.6)
        map.tick()
        map.tick()
        #expect(map.cameraState.padding.bottom == 100)
        map.padding = .zero
        #expect(map.cameraState.padding.bottom == 0, "outside a block: at once")
    }

    @Test func styleFromJSONTextAndRemoteURLs() throws {
        _ = installMapClock()
        let options = GMSMapViewOptions()
        options.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let red = """
            {"version": 8, "sources": {}, "layers": [
              {"id": "bg", "type": "background", "paint": {"background-color": "#ff0000"}}]}
            """
        options.mapLibreStyle = .json(red)
        let restore = useVectorBasemap()
        defer { restore() }
        let map = GMSMapView(options: options)
        #expect(map.mapLibreStyle == options.mapLibreStyle)
        let image = map.renderFrame(scale: 1)
        let p = pixelAt(image, 32, 24)
        #expect(p.r == 255 && p.g == 0 && p.b == 0, "\(p)")
        #expect(throws: MapLibreStyleError.self) {
            try VectorBasemapRenderer(style: .url(URL(string: "https://example.com/style.json")!))
        }
        map.mapLibreStyle = .url(URL(string: "https://example.com/style.json")!)
        #expect(map.basemap is PlainBasemapRenderer)
    }

    @Test func locationProviderSetInCode() throws {
        _ = installMapClock()
        let map = GMSMapView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        try map.setLocationProvider(.fixed(CLLocationCoordinate2D(latitude: 60.17, longitude: 24.95), accuracy: 5))
        map.isMyLocationEnabled = true
        map.tick()
        #expect(map.myLocation?.coordinate == CLLocationCoordinate2D(latitude: 60.17, longitude: 24.95))
        #expect(map.myLocation?.horizontalAccuracy == 5)
        #expect(throws: (any Error).self) { try WaymarkLocationProvider(parsing: "fixed:91,0") }
        #expect(throws: (any Error).self) { try map.setLocationProvider(.gpx(path: "/nonexistent/track.gpx")) }
        #expect(try WaymarkLocationProvider(parsing: "gpsd:127.0.0.1:2948") == .gpsd(port: 2948))
    }

    /// Every `public`/`open` declaration in the library targets' sources: none may start with an underscore.
    @Test func noUnderscoredPublicDeclarations() throws {
        let sources = Fixtures.repositoryRoot.appendingPathComponent("Sources")
        let executables: Set<String> = ["waymark", "map-benchmarks", "map-viewer"]
        let pattern = try NSRegularExpression(
            pattern:
                #"^\s*(@\w+(\([^)]*\))?\s+)*(public|open)\s+(package\s+)?((static|class|final|override|mutating|nonisolated|convenience|required|lazy|weak|unowned|indirect|private\(set\)|internal\(set\)|fileprivate\(set\)|package\(set\))\s+)*(func|var|let|class|struct|enum|protocol|typealias|actor|case|init|subscript)\s+_\w*"#,
            options: [.anchorsMatchLines])
        var found: [String] = []
        var scanned = 0
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter {
            !executables.contains($0)
        }
        for target in targets {
            let dir = sources.appendingPathComponent(target)
            guard let files = FileManager.default.enumerator(atPath: dir.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
                scanned += 1
                for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    found.append("\(target)/\(file): \((text as NSString).substring(with: match.range))")
                }
            }
        }
        #expect(scanned > 100, "scanned \(scanned) files under \(sources.path)")
        #expect(found.isEmpty, "underscored public declarations:\n\(found.joined(separator: "\n"))")
    }
}
