import Foundation
import GoogleMaps
import Testing

/// The GoogleMaps articles' code is compiled code: every ```swift block of every article in
/// `Sources/GoogleMaps/GoogleMaps.docc` is one region of `GuideSnippets.swift`, which this target compiles; and the
/// snippets do what the articles say when run on a headless map.
@MainActor @Suite struct GuideSnippetTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The regions of GuideSnippets.swift by name, each trimmed of surrounding blank lines.
    static func snippets() throws -> [String: String] {
        let file = repository.appendingPathComponent("Tests/DocumentationTests/GuideSnippets.swift")
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        var regions: [String: String] = [:]
        var name: String?
        var body: [String] = []
        for line in lines {
            if line.hasPrefix("// snippet: ") {
                name = String(line.dropFirst("// snippet: ".count))
                body = []
            } else if line == "// end-snippet", let current = name {
                regions[current] = body.joined(separator: "\n").trimmingCharacters(in: .newlines)
                name = nil
            } else if name != nil {
                body.append(line)
            }
        }
        return regions
    }

    /// The ```swift blocks of an article, each trimmed of surrounding blank lines.
    static func codeBlocks(of article: URL) throws -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in try String(contentsOf: article, encoding: .utf8).components(separatedBy: "\n") {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                blocks.append(current!.joined(separator: "\n").trimmingCharacters(in: .newlines))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func everyArticleCodeBlockIsACompiledSnippet() throws {
        let catalog = Self.repository.appendingPathComponent("Sources/GoogleMaps/GoogleMaps.docc")
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }
        let compiled = Set(try Self.snippets().values)
        var checked = 0
        var notCompiled: [String] = []
        for article in articles.sorted() {
            for (index, block) in try Self.codeBlocks(of: catalog.appendingPathComponent(article)).enumerated() {
                checked += 1
                if !compiled.contains(block) { notCompiled.append("\(article) block \(index + 1)") }
            }
        }
        #expect(notCompiled == [], "article code blocks that are not a region of GuideSnippets.swift")
        #expect(checked >= 7)
    }

    @Test func markerSnippetsAddCustomiseAndRemove() {
        let map = GMSMapView(
            frame: CGRect(x: 0, y: 0, width: 400, height: 300),
            camera: GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12))
        let marker = addMarker(to: map)
        #expect(marker.map === map)
        customise(marker)
        #expect(marker.rotation == 45)
        #expect(marker.zIndex == 10)
        removeAll(from: map, markers: [marker])
        #expect(marker.map == nil)
        let stop = stopMarker(at: CLLocationCoordinate2D(latitude: 60.17, longitude: 24.94), number: 7)
        #expect(stop.collisionBehavior == .optionalAndHidesLowerPriority)
        #expect(stop.icon?.size == CGSize(width: 26, height: 37))
    }

    @Test func infoWindowSnippetSelectsWithoutMovingTheCamera() {
        let map = GMSMapView(
            frame: CGRect(x: 0, y: 0, width: 400, height: 300),
            camera: GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12))
        let delegate = PlaceInfoDelegate()
        map.delegate = delegate
        let marker = addMarker(to: map)
        let before = map.camera.target
        showWindow(of: marker, on: map)
        #expect(map.selectedMarker === marker)
        #expect(map.camera.target.latitude == before.latitude)
        #expect(delegate.mapView(map, markerInfoContents: marker) is UILabel)
    }

    @Test func controlsSnippetSetsTheSettings() {
        let map = GMSMapView(
            frame: CGRect(x: 0, y: 0, width: 400, height: 300),
            camera: GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12))
        configureControls(of: map)
        #expect(map.settings.compassButton)
        #expect(!map.settings.tiltGestures)
        #expect(map.padding.bottom == 80)
    }

    @Test func eventSnippetLogsAnIdleCamera() {
        let map = GMSMapView(
            frame: CGRect(x: 0, y: 0, width: 400, height: 300),
            camera: GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12))
        let log = EventLog()
        map.delegate = log
        let host = UIHeadlessHost(view: map)
        map.animate(toZoom: 13)
        host.runUntilIdle()
        #expect(log.lines.first == "will move")
        #expect(log.lines.last == "idle at zoom 13.0")
    }
}
