import Foundation
import MapGeometry
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// The behaviour bugs real map screens hit (issue 29): each runs the map in a `UIHeadlessHost` on its virtual clock,
/// as an app's screen runs, and checks what the screen shows or reports.
@MainActor @Suite(.serialized) struct RealScreenBugTests {
    /// A fresh app state, the plain basemap and a host driving `view` (its size).
    static func host(_ view: UIView) -> UIHeadlessHost {
        _ = installMapClock()
        UIApplication.shared.resetForNextRun()
        return UIHeadlessHost(view: view)
    }

    static let helsinki = GMSCameraPosition(latitude: 60.1699, longitude: 24.9384, zoom: 15)

    /// The number of distinct colours in a rectangle of `image` (sampled every 2 pixels).
    static func colourCount(_ image: UIImage, x: Range<Int>, y: Range<Int>) -> Int {
        var seen = Set<Int>()
        for yy in stride(from: y.lowerBound, to: y.upperBound, by: 2) {
            for xx in stride(from: x.lowerBound, to: x.upperBound, by: 2) {
                let p = pixelAt(image, xx, yy)
                seen.insert(p.r << 16 | p.g << 8 | p.b)
            }
        }
        return seen.count
    }

    // MARK: 1. Two maps in one window

    /// Both maps of a window draw their basemap (streets and labels: many colours), first frame and after the
    /// first map's camera moves, whatever their order.
    @Test func twoMapsInOneWindowBothDraw() throws {
        _ = installMapClock()
        let restore = useVectorBasemap()
        defer { restore() }
        let container = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 200))
        let left = GMSMapView(frame: CGRect(x: 0, y: 0, width: 200, height: 200), camera: Self.helsinki)
        let right = GMSMapView(frame: CGRect(x: 200, y: 0, width: 200, height: 200), camera: Self.helsinki)
        container.addSubview(left)
        container.addSubview(right)
        UIApplication.shared.resetForNextRun()
        let host = UIHeadlessHost(view: container)
        #expect(host.runUntilIdle())
        var image = host.snapshot()
        let leftColours = Self.colourCount(image, x: 10..<190, y: 10..<190)
        let rightColours = Self.colourCount(image, x: 210..<390, y: 10..<190)
        #expect(leftColours > 20, "left map colours: \(leftColours)")
        #expect(rightColours > 20, "right map colours: \(rightColours)")
        left.moveCamera(GMSCameraUpdate.scrollBy(x: 40, y: 0))
        #expect(host.runUntilIdle())
        image = host.snapshot()
        let movedColours = Self.colourCount(image, x: 10..<190, y: 10..<190)
        #expect(movedColours > 20, "left map colours after a move: \(movedColours)")
    }

    // MARK: 2. Camera animations compose per key

    @Test func locationThenZoomAnimationsBothApply() {
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 4))
        let host = Self.host(map)
        host.runUntilIdle()
        map.animate(toLocation: CLLocationCoordinate2D(latitude: 10, longitude: 20))
        host.advance(by: 0.05)
        map.animate(toZoom: 6)
        host.runUntilIdle()
        #expect(abs(map.camera.target.latitude - 10) < 1e-6, "latitude \(map.camera.target.latitude)")
        #expect(abs(map.camera.target.longitude - 20) < 1e-6, "longitude \(map.camera.target.longitude)")
        #expect(abs(map.camera.zoom - 6) < 1e-6, "zoom \(map.camera.zoom)")
    }

    @Test func bearingAndTiltAnimationsComposeWithLocation() {
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 15))
        let host = Self.host(map)
        host.runUntilIdle()
        map.animate(toBearing: 90)
        map.animate(toViewingAngle: 30)
        map.animate(toLocation: CLLocationCoordinate2D(latitude: 0.001, longitude: 0.001))
        host.runUntilIdle()
        #expect(abs(map.camera.bearing - 90) < 1e-6, "bearing \(map.camera.bearing)")
        #expect(abs(map.camera.viewingAngle - 30) < 1e-6, "viewing angle \(map.camera.viewingAngle)")
        #expect(abs(map.camera.target.latitude - 0.001) < 1e-9, "latitude \(map.camera.target.latitude)")
    }

    /// A delegate that zooms in on the tapped marker and lets the default behaviour (select and centre) run.
    final class ZoomOnTap: GMSMapViewDelegate {
        var zoom: Float = 17
        func mapView(_ mapView: GMSMapView, didTap marker: GMSMarker) -> Bool {
            mapView.animate(toZoom: zoom)
            return false
        }
    }

    @Test func markerTapCentringKeepsTheDelegatesZoom() {
        let map = makeMap(GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14))
        let host = Self.host(map)
        let marker = GMSMarker(position: CLLocationCoordinate2D(latitude: 51.501, longitude: -0.126))
        marker.title = "Here"
        marker.map = map
        let delegate = ZoomOnTap()
        map.delegate = delegate
        host.runUntilIdle()
        let p = map.projection.point(for: marker.position)
        host.tap(at: CGPoint(x: p.x, y: p.y - 12))
        host.runUntilIdle()
        #expect(map.selectedMarker === marker)
        #expect(abs(map.camera.zoom - 17) < 1e-6, "zoom \(map.camera.zoom)")
        #expect(abs(map.camera.target.latitude - 51.501) < 1e-6, "latitude \(map.camera.target.latitude)")
    }

    // MARK: 3. Changes to an idle map on screen are drawn

    /// A sync tile layer answering red tiles, counting its calls (`CheckerLayer` of TileLayerTests).
    typealias RedTiles = CheckerLayer

    /// What one change does to an idle map shown by a host.
    struct Change {
        let name: String
        /// Whether the picture must differ after the change (else it must stay the same).
        let draws: Bool
        var setup: @MainActor (GMSMapView) -> Void = { _ in }
        let apply: @MainActor (GMSMapView) -> Void
    }

    /// Shows a map (400 × 300 pt, the plain basemap, a blue background) with `setup` applied, waits until idle,
    /// applies the change, waits until idle again, and returns the two frames.
    static func frames(for change: Change) -> (before: UIImage, after: UIImage) {
        let map = makeMap(GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14, bearing: 30, viewingAngle: 0))
        map.backgroundColor = .blue
        let host = Self.host(map)
        change.setup(map)
        host.runUntilIdle()
        let before = host.snapshot()
        change.apply(map)
        host.runUntilIdle()
        return (before, host.snapshot())
    }

    static func differ(_ a: UIImage, _ b: UIImage) -> Bool { a.pngData() != b.pngData() }

    static let here = CLLocationCoordinate2D(latitude: 51.5, longitude: -0.127)
    static let near = CLLocationCoordinate2D(latitude: 51.501, longitude: -0.126)

    static func onMap<T: GMSOverlay>(_ make: @escaping @MainActor () -> T, _ edit: @escaping @MainActor (T) -> Void)
        -> (setup: @MainActor (GMSMapView) -> Void, apply: @MainActor (GMSMapView) -> Void)
    {
        var overlay: T?
        return (
            { map in
                let o = make()
                o.map = map
                overlay = o
            },
            { _ in if let overlay { edit(overlay) } }
        )
    }

    static func change<T: GMSOverlay>(
        _ name: String, draws: Bool = true, _ make: @escaping @MainActor () -> T,
        _ edit: @escaping @MainActor (T) -> Void
    ) -> Change {
        let (setup, apply) = onMap(make, edit)
        return Change(name: name, draws: draws, setup: setup, apply: apply)
    }

    static func marker() -> GMSMarker {
        let m = GMSMarker(position: here)
        m.title = "Title"
        return m
    }
    static func circle() -> GMSCircle {
        let c = GMSCircle(position: here, radius: 300)
        c.fillColor = .green
        return c
    }
    static func square() -> GMSMutablePath {
        let path = GMSMutablePath()
        path.add(CLLocationCoordinate2D(latitude: 51.495, longitude: -0.135))
        path.add(CLLocationCoordinate2D(latitude: 51.505, longitude: -0.135))
        path.add(CLLocationCoordinate2D(latitude: 51.505, longitude: -0.12))
        path.add(CLLocationCoordinate2D(latitude: 51.495, longitude: -0.12))
        return path
    }
    static func polyline() -> GMSPolyline { GMSPolyline(path: square()) }
    static func polygon() -> GMSPolygon { GMSPolygon(path: square()) }
    static func ground() -> GMSGroundOverlay {
        GMSGroundOverlay(
            bounds: GMSCoordinateBounds(
                coordinate: CLLocationCoordinate2D(latitude: 51.495, longitude: -0.135),
                coordinate: CLLocationCoordinate2D(latitude: 51.505, longitude: -0.12)),
            icon: houseImage(color: .red))
    }
    static func tiles() -> RedTiles {
        let t = RedTiles(even: solidTile(.red), odd: solidTile(.red))
        t.fadeIn = false
        return t
    }

    /// Every public property of the map, its settings, the overlays and the tile layers (the check below keeps this
    /// list complete): how the picture of an idle map must react when it changes.
    static var changes: [String: Change] {
        var all: [Change] = [
            // GMSMapView
            Change(name: "GMSMapView.mapType", draws: true) { $0.mapType = .none },
            Change(name: "GMSMapView.isTrafficEnabled", draws: false) { $0.isTrafficEnabled = true },
            Change(
                name: "GMSMapView.isMyLocationEnabled", draws: true,
                setup: { try? $0.setLocationProvider(.fixed(here)) }, apply: { $0.isMyLocationEnabled = true }),
            Change(name: "GMSMapView.isBuildingsEnabled", draws: false) { $0.isBuildingsEnabled = false },
            Change(name: "GMSMapView.terrainElevationSource", draws: false) {
                $0.terrainElevationSource = TerrainElevationSource("/dem/{z}/{x}/{y}.png")
            },
            Change(name: "GMSMapView.isIndoorEnabled", draws: false) { $0.isIndoorEnabled = false },
            Change(name: "GMSMapView.accessibilityElementsHidden", draws: false) {
                $0.accessibilityElementsHidden = false
            },
            Change(name: "GMSMapView.padding", draws: true) {
                $0.padding = UIEdgeInsets(top: 0, left: 0, bottom: 100, right: 0)
            },
            Change(name: "GMSMapView.cameraTargetBounds", draws: false) {
                $0.cameraTargetBounds = GMSCoordinateBounds(coordinate: here, coordinate: near)
            },
            Change(name: "GMSMapView.camera", draws: true) {
                $0.camera = GMSCameraPosition(latitude: 51.51, longitude: -0.127, zoom: 14)
            },
            Change(
                name: "GMSMapView.selectedMarker", draws: true, setup: { marker().map = $0 },
                apply: { map in map.selectedMarker = map.markersForTesting.first }),
            Change(
                name: "GMSMapView.mapLibreStyle", draws: true,
                setup: { _ in
                    GMSMapView.makeDefaultBasemap = { style in
                        style.style == .bundled ? PlainBasemapRenderer() as any BasemapRenderer : SolidBasemap()
                    }
                }, apply: { $0.mapLibreStyle = .json("{}") }),
            // GMSUISettings
            Change(name: "GMSUISettings.compassButton", draws: true) { $0.settings.compassButton = true },
            Change(
                name: "GMSUISettings.myLocationButton", draws: true,
                setup: { map in
                    try? map.setLocationProvider(.fixed(here))
                    map.isMyLocationEnabled = true
                }, apply: { $0.settings.myLocationButton = true }),
            Change(name: "GMSUISettings.indoorPicker", draws: false) { $0.settings.indoorPicker = false },
            Change(name: "GMSUISettings.scrollGestures", draws: false) { $0.settings.scrollGestures = false },
            Change(name: "GMSUISettings.zoomGestures", draws: false) { $0.settings.zoomGestures = false },
            Change(name: "GMSUISettings.tiltGestures", draws: false) { $0.settings.tiltGestures = false },
            Change(name: "GMSUISettings.rotateGestures", draws: false) { $0.settings.rotateGestures = false },
            Change(name: "GMSUISettings.consumesGesturesInView", draws: false) {
                $0.settings.consumesGesturesInView = false
            },
            Change(name: "GMSUISettings.allowScrollGesturesDuringRotateOrZoom", draws: false) {
                $0.settings.allowScrollGesturesDuringRotateOrZoom = false
            },
            // GMSOverlay (through a circle) and GMSMarker
            change("GMSOverlay.title", draws: false, circle) { $0.title = "Circle" },
            change("GMSOverlay.isTappable", draws: false, circle) { $0.isTappable = true },
            change("GMSOverlay.zIndex", draws: false, circle) { $0.zIndex = 3 },
            change("GMSOverlay.userData", draws: false, circle) { $0.userData = 42 },
            change("GMSOverlay.accessibilityLabel", draws: false, circle) { $0.accessibilityLabel = "Zone" },
            change("GMSOverlay.accessibilityHint", draws: false, circle) { $0.accessibilityHint = "Opens" },
            change("GMSOverlay.accessibilityValue", draws: false, circle) { $0.accessibilityValue = "3" },
            change("GMSOverlay.isAccessibilityElement", draws: false, circle) { $0.isAccessibilityElement = true },
            change("GMSOverlay.accessibilityFrame", draws: false, circle) {
                $0.accessibilityFrame = CGRect(x: 1, y: 2, width: 3, height: 4)
            },
            change("GMSOverlay.accessibilityActivationPoint", draws: false, circle) {
                $0.accessibilityActivationPoint = CGPoint(x: 5, y: 6)
            },
            Change(name: "GMSOverlay.map", draws: true) { circle().map = $0 },
            change("GMSMarker.position", marker) { $0.position = near },
            change("GMSMarker.snippet", draws: false, marker) { $0.snippet = "Snippet" },
            change("GMSMarker.icon", marker) { $0.icon = houseImage() },
            change("GMSMarker.iconView", marker) {
                $0.iconView = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
                $0.iconView?.backgroundColor = .green
            },
            change("GMSMarker.tracksViewChanges", draws: false, marker) { $0.tracksViewChanges = false },
            change("GMSMarker.tracksInfoWindowChanges", draws: false, marker) { $0.tracksInfoWindowChanges = true },
            change("GMSMarker.infoWindowAnchor", draws: false, marker) { $0.infoWindowAnchor = CGPoint(x: 0, y: 0) },
            change("GMSMarker.appearAnimation", draws: false, marker) { $0.appearAnimation = .pop },
            change("GMSMarker.isDraggable", draws: false, marker) { $0.isDraggable = true },
            change("GMSMarker.isFlat", marker) {
                $0.isFlat = true
            },
            change("GMSMarker.groundAnchor", marker) { $0.groundAnchor = CGPoint(x: 0, y: 0) },
            change("GMSMarker.rotation", marker) { $0.rotation = 45 },
            change("GMSMarker.opacity", marker) { $0.opacity = 0.3 },
            change("GMSMarker.panoramaView", draws: false, marker) { $0.panoramaView = nil },
            change("GMSMarker.layer", draws: false, marker) { _ = $0.layer },
            // Shapes
            change("GMSCircle.position", circle) { $0.position = near },
            change("GMSCircle.radius", circle) { $0.radius = 100 },
            change("GMSCircle.strokeWidth", circle) { $0.strokeWidth = 8 },
            change("GMSCircle.strokeColor", circle) { $0.strokeColor = .red },
            change("GMSCircle.fillColor", circle) { $0.fillColor = .yellow },
            change("GMSPolyline.path", polyline) { $0.path = GMSPath() },
            change("GMSPolyline.strokeWidth", polyline) { $0.strokeWidth = 8 },
            change("GMSPolyline.strokeColor", polyline) { $0.strokeColor = .red },
            change("GMSPolyline.geodesic", draws: false, polyline) { $0.geodesic = true },
            change("GMSPolyline.spans", polyline) { $0.spans = [GMSStyleSpan(color: .green)] },
            change("GMSPolygon.path", polygon) { $0.path = GMSPath() },
            change("GMSPolygon.holes", polygon) {
                let hole = GMSMutablePath()
                hole.add(CLLocationCoordinate2D(latitude: 51.498, longitude: -0.13))
                hole.add(CLLocationCoordinate2D(latitude: 51.502, longitude: -0.13))
                hole.add(CLLocationCoordinate2D(latitude: 51.502, longitude: -0.125))
                $0.holes = [hole]
            },
            // No stroke colour by default: a wider stroke draws nothing more.
            change("GMSPolygon.strokeWidth", draws: false, polygon) { $0.strokeWidth = 8 },
            change("GMSPolygon.strokeColor", polygon) { $0.strokeColor = .red },
            change("GMSPolygon.fillColor", polygon) { $0.fillColor = .yellow },
            change("GMSPolygon.geodesic", draws: false, polygon) { $0.geodesic = true },
            change("GMSGroundOverlay.position", ground) { $0.position = near },
            // Placed by bounds: the anchor applies only to position placement.
            change("GMSGroundOverlay.anchor", draws: false, ground) { $0.anchor = CGPoint(x: 0, y: 0) },
            change("GMSGroundOverlay.icon", ground) { $0.icon = houseImage(color: .green) },
            change("GMSGroundOverlay.opacity", ground) { $0.opacity = 0.3 },
            change("GMSGroundOverlay.bearing", ground) { $0.bearing = 45 },
            change("GMSGroundOverlay.bounds", ground) {
                $0.bounds = GMSCoordinateBounds(coordinate: here, coordinate: near)
            },
        ]
        // Tile layers
        func tileChange(_ name: String, draws: Bool = true, _ edit: @escaping @MainActor (RedTiles) -> Void) -> Change {
            var layer: RedTiles?
            return Change(
                name: name, draws: draws,
                setup: { map in
                    let t = tiles()
                    t.map = map
                    layer = t
                }, apply: { _ in if let layer { edit(layer) } })
        }
        all += [
            Change(name: "GMSTileLayer.map", draws: true) { tiles().map = $0 },
            tileChange("GMSTileLayer.zIndex", draws: false) { $0.zIndex = 2 },
            tileChange("GMSTileLayer.tileSize", draws: false) { $0.tileSize = 512 },
            tileChange("GMSTileLayer.opacity") { $0.opacity = 0.3 },
            tileChange("GMSTileLayer.fadeIn", draws: false) { $0.fadeIn = true },
            Change(name: "GMSURLTileLayer.userAgent", draws: false) {
                let layer = GMSURLTileLayer { _, _, _ in nil }
                layer.map = $0
                layer.userAgent = "test"
            },
        ]
        return Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
    }

    /// The public stored or computed properties declared in the API sources of `type` (`open var` / `public var`
    /// in the class body and its extensions), as `Type.name`.
    static func declaredProperties(of type: String, files: [String]) throws -> Set<String> {
        var names = Set<String>()
        let api = Fixtures.repositoryRoot.appendingPathComponent("Sources/GoogleMaps/API")
        let pattern = try Regex(#"^\s*(?:open|public)\s+(?:private\(set\)\s+)?var\s+([A-Za-z_]+)"#)
        for file in files {
            let text = try String(contentsOf: api.appendingPathComponent(file), encoding: .utf8)
            var inType = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.contains("class \(type):") || line.contains("class \(type) ")
                    || line.hasPrefix("extension \(type) ")
                    || line.hasPrefix("extension \(type):") || line.hasPrefix("extension \(type) {")
                {
                    inType = true
                } else if line.hasPrefix("}") {
                    inType = false
                }
                guard inType, let match = try pattern.firstMatch(in: String(line)),
                    let name = match.output[1].substring
                else { continue }
                names.insert("\(type).\(name)")
            }
        }
        return names
    }

    /// The list above names every public property of the map view, its settings, the overlays and the tile layers
    /// (UIView's own properties and `description`, `projection`, `myLocation`, `indoorDisplay`, `mapLayer`,
    /// `minZoom`/`maxZoom` are read-only or inherited and are left out).
    @Test func changeListCoversEveryPublicProperty() throws {
        let readOnly: Set<String> = [
            "GMSMapView.description", "GMSMapView.projection", "GMSMapView.myLocation", "GMSMapView.indoorDisplay",
            "GMSMapView.mapLayer", "GMSMapView.minZoom", "GMSMapView.maxZoom", "GMSMapView.settings",
            "GMSMapView.delegate", "GMSMapView.frame", "GMSMapView.bounds", "GMSOverlay.title",
        ]
        var declared = Set<String>()
        declared.formUnion(
            try Self.declaredProperties(
                of: "GMSMapView",
                files: [
                    "GMSMapView.swift", "GMSMapView+Host.swift", "GMSMapView+Controls.swift",
                    "GMSMapView+Terrain.swift",
                ]))
        for (type, file) in [
            ("GMSUISettings", "GMSUISettings.swift"), ("GMSOverlay", "GMSOverlay.swift"),
            ("GMSMarker", "GMSMarker.swift"), ("GMSCircle", "GMSCircle.swift"), ("GMSPolyline", "GMSPolyline.swift"),
            ("GMSPolygon", "GMSPolygon.swift"), ("GMSGroundOverlay", "GMSGroundOverlay.swift"),
            ("GMSTileLayer", "GMSTileLayer.swift"), ("GMSURLTileLayer", "GMSTileLayer.swift"),
        ] {
            declared.formUnion(try Self.declaredProperties(of: type, files: [file]))
        }
        let listed = Set(Self.changes.keys).union(readOnly)
        let missing = declared.subtracting(listed).sorted()
        #expect(missing.isEmpty, "properties without a redraw check: \(missing)")
        #expect(declared.count > 60, "declared properties found: \(declared.count)")
    }

    /// Each change to an idle map on screen shows on the next frame (and changes that draw nothing leave the
    /// picture alone).
    @Test func idleMapRedrawsAfterEveryChange() {
        defer { GMSMapView.makeDefaultBasemap = { _ in PlainBasemapRenderer() } }
        var notDrawn: [String] = []
        var drawnWrongly: [String] = []
        for (name, change) in Self.changes.sorted(by: { $0.key < $1.key }) {
            let (before, after) = Self.frames(for: change)
            GMSMapView.makeDefaultBasemap = { _ in PlainBasemapRenderer() }
            let differs = Self.differ(before, after)
            if change.draws && !differs { notDrawn.append(name) }
            if !change.draws && differs { drawnWrongly.append(name) }
        }
        #expect(notDrawn.isEmpty, "changes the next frame does not show: \(notDrawn)")
        #expect(drawnWrongly.isEmpty, "changes that should not alter the picture but did: \(drawnWrongly)")
    }

    @Test func tileLayerAddedToAnIdleMapIsAskedForTiles() {
        let map = makeMap()
        let host = Self.host(map)
        host.runUntilIdle()
        let layer = Self.tiles()
        layer.map = map
        host.runUntilIdle()
        let calls = layer.calls
        #expect(calls > 0, "tileFor calls: \(calls)")
        let p = pixelAt(host.snapshot(), 200, 150)
        #expect(isColor(p, 255, 0, 0), "centre pixel \(p)")
    }

    // MARK: 4. The info window follows the selected marker

    @Test func markerSelectedBeforeItsTitleShowsItsWindowOnceSet() {
        let map = makeMap()
        let host = Self.host(map)
        let marker = GMSMarker(position: map.camera.target)
        marker.map = map
        map.selectedMarker = marker
        host.runUntilIdle()
        #expect(FrameRenderer.infoWindowFrame(map: map) == nil, "no window while title and snippet are blank")
        marker.title = "Later"
        host.runUntilIdle()
        let frame = FrameRenderer.infoWindowFrame(map: map)?.1
        #expect(frame != nil, "the window shows once the title is set")
        let before = host.snapshot()
        marker.snippet = "A longer snippet that widens the window"
        host.runUntilIdle()
        let wider = FrameRenderer.infoWindowFrame(map: map)?.1
        #expect(
            (wider?.width ?? 0) > (frame?.width ?? 0), "the window follows the snippet: \(String(describing: wider))")
        #expect(Self.differ(before, host.snapshot()))
    }

    // MARK: 5. The first idle camera

    @Test func idleAtFiresOnceWhenTheMapFirstSettles() {
        let map = makeMap()
        let delegate = RecordingDelegate()
        map.delegate = delegate
        let host = Self.host(map)
        #expect(host.runUntilIdle())
        host.advance(by: 1)
        #expect(delegate.log == ["idle"], "\(delegate.log)")
    }

    @Test func trackingIconViewDoesNotKeepTheHostDrawing() {
        let map = makeMap()
        let marker = GMSMarker(position: map.camera.target)
        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 60, height: 20))
        label.text = "one"
        marker.iconView = label
        marker.tracksViewChanges = true
        marker.map = map
        let host = Self.host(map)
        #expect(host.runUntilIdle(timeout: 5), "the host settles with a tracking icon view")
        let frames = host.host.frameCount
        host.advance(by: 1)
        #expect(host.host.frameCount == frames, "no frames while nothing changes: \(host.host.frameCount - frames)")
        let before = host.snapshot()
        label.text = "two"
        #expect(host.runUntilIdle(timeout: 5))
        #expect(Self.differ(before, host.snapshot()), "the tracked view's change is drawn")
    }

    // MARK: 6. Idle waits for SDK callbacks

    @Test func runUntilIdleWaitsForAReverseGeocode() {
        let map = makeMap()
        let host = Self.host(map)
        host.runUntilIdle()
        let answered = Answered()
        GMSGeocoder().reverseGeocodeCoordinate(CLLocationCoordinate2D(latitude: 60.1699, longitude: 24.9384)) {
            response, _ in
            answered.value = true
            let marker = GMSMarker(position: map.camera.target)
            marker.title = response?.firstResult()?.locality
            marker.map = map
        }
        #expect(host.runUntilIdle())
        #expect(answered.value, "the callback ran before idle")
        #expect(map.markersForTesting.count == 1)
    }

    // MARK: 7. Satellite without imagery

    @Test func satelliteWithoutImageryHasNoPOIsAndHybridKeepsThem() throws {
        let (map, _, _, pois) = try POITapTests.helsinkiMap()
        let poi = try #require(pois.first, "the Helsinki frame has POIs")
        let point = CGPoint(x: poi.screenAnchor.x, y: poi.screenAnchor.y)
        guard case .poi = map.tapTarget(point) else {
            Issue.record("the normal map reports the POI")
            return
        }
        map.mapType = .satellite
        _ = map.renderFrame(scale: 1)
        let satellite = map.tapTarget(point)
        if case .poi = satellite { Issue.record("satellite without imagery reports no POI taps") }
        map.mapType = .hybrid
        _ = map.renderFrame(scale: 1)
        guard case .poi = map.tapTarget(point) else {
            Issue.record("hybrid without imagery keeps its POIs")
            return
        }
    }
}

/// Whether a callback ran.
@MainActor final class Answered {
    var value = false
}

/// A basemap of one colour (magenta), for style swaps.
@MainActor final class SolidBasemap: BasemapRenderer {
    var needsFrames: Bool { false }
    var attribution: String? { nil }
    func draw(camera: CameraState, in context: CGContext, scale: CGFloat) {
        context.setFillColor(UIColor.magenta.cgColor)
        context.fill(CGRect(x: 0, y: 0, width: camera.size.width, height: camera.size.height))
    }
}

extension GMSMapView {
    /// The markers on the map (tests).
    var markersForTesting: [GMSMarker] { store.allMarkers() }
}
