import Foundation
import LinuxUIKit
import MapGeometry
import WaymarkTime

/// A control the map draws over itself (spec §4.3–4.4, D16), as hit by a tap.
enum MapControlHit {
    case compass
    case myLocationButton
    case floorLevel(GMSIndoorLevel)
    case myLocationDot(CLLocation)
}

/// The map's own controls: compass, my-location dot and button, floor picker, attribution (spec §4.3–4.6, D16).
///
/// Layout (points, view space): every control sits inside the view inset by the map's `padding` and then by the
/// 12 pt margin of D16. The compass (40 pt) is at the top-right; the my-location button (46 pt) at the bottom-right;
/// the floor picker (40 pt wide, 36 pt per level — less, down to 20 pt, when the levels would not fit between the
/// compass slot and the button slot — levels top to bottom as the building lists them) on the right edge, 12 pt above
/// the my-location button's slot (the slot is kept whether or not the button shows, so the picker does
/// not jump); the attribution text at the bottom-left.
///
/// State advances in ``tick(map:)``: the location source is drained, the indoor focus follows the camera target and
/// zoom, and the compass fades out over ``compassFadeDuration`` once the bearing is back at 0.
/// - Thread rules: main thread only.
@MainActor final class MapControls {
    static let margin: CGFloat = 12
    static let compassSize: CGFloat = 40
    static let myLocationButtonSize: CGFloat = 46
    static let floorPickerWidth: CGFloat = 40
    static let floorRowHeight: CGFloat = 36
    static let compassFadeDuration: Double = 0.3
    /// The always-shown attribution (D16).
    static let baseAttribution = "© OpenStreetMap contributors"

    /// The location fixes behind `isMyLocationEnabled` / `myLocation`.
    let location: MyLocationSource
    /// The indoor focus and display behind `indoorDisplay`; loaded on first use.
    private var indoorStorage: IndoorController?
    /// Compass opacity: 1 while shown, fading to 0.
    private(set) var compassOpacity: Double = 0
    private var compassFadeStart: Double?
    private var lastIndoorCamera: (lat: Double, lon: Double, zoom: Double)?
    /// The attribution line as last laid out (``attributionLine(_:)``).
    private var laidOutAttribution: LaidOutText?
    /// Whether ``laidOutAttribution`` was laid out in the dark palette's colour.
    private var laidOutAttributionIsDark = false
    /// The map's appearance is dark: the compass, my-location button and floor picker draw in ``ControlPalette/dark``.
    var isDark = false

    /// The controls' colours for the map's appearance.
    var palette: ControlPalette { isDark ? .dark : .light }

    /// The attribution's font and colour for `palette`: 11 pt system font, Google's grey (light grey on the dark
    /// map's dark box).
    static func attributionAttributes(_ palette: ControlPalette) -> [NSAttributedString.Key: Any] {
        [.font: UIFont.systemFont(ofSize: 11), .foregroundColor: palette.attributionText]
    }

    init(provider: any LocationProvider) {
        location = MyLocationSource(provider: provider)
    }

    /// The device location (``DeviceLocation/shared``: `WAYMARK_LOCATION` unless the app chose another with
    /// `CLLocationManager.setLocationProvider(_:)`), the same fixes every `CLLocationManager` gets.
    static func defaultProvider() -> any LocationProvider {
        DeviceLocation.shared.subscribe()
    }

    var indoor: IndoorController {
        if let indoorStorage { return indoorStorage }
        let controller = IndoorController(dataset: Self.defaultIndoorDataset)
        indoorStorage = controller
        return controller
    }

    /// `Data/indoor.geojson` as ``IndoorDataset/locate`` finds it, read once per process and shared by every map
    /// (the building and level objects are immutable); empty when missing, and a malformed file is logged.
    static let defaultIndoorDataset: IndoorDataset = {
        let url = IndoorDataset.locate()
        guard FileManager.default.fileExists(atPath: url.path) else {
            return IndoorDataset(buildings: [], features: [:])
        }
        do {
            return try IndoorDataset.load(contentsOf: url)
        } catch {
            GMSLog.warning("GMSMapView: no indoor data (\(error))")
            return IndoorDataset(buildings: [], features: [:])
        }
    }()

    /// `true` once the indoor data has been loaded (drawing does not load it).
    var indoorIsLoaded: Bool { indoorStorage != nil }

    /// Replaces the indoor data (hosts and tests); the focus is re-evaluated on the next tick.
    func setIndoorDataset(_ dataset: IndoorDataset) {
        let display = indoorStorage?.display ?? GMSIndoorDisplay()
        display.focus(nil)
        indoorStorage = IndoorController(dataset: dataset, display: display)
        lastIndoorCamera = nil
    }

    /// Follows `isIndoorEnabled`: off unfocuses at once; the focus is re-evaluated on the next tick.
    func indoorEnabledDidChange(_ enabled: Bool) {
        indoorStorage?.isEnabled = enabled
        lastIndoorCamera = nil
    }

    /// `true` while the compass is fading.
    var needsTick: Bool { compassFadeStart != nil || location.fixDue(now: UIAnimator.shared.now) }

    // MARK: Tick

    /// Advances the controls one frame (called from `GMSMapView.tick()` after the camera events).
    func tick(map: GMSMapView) {
        // A new fix moves the dot: ask the host for a frame (a window host sleeps until a view needs display).
        if location.tick() { map.setNeedsDisplay() }
        let camera = map.cameraState
        let target = GMSCameraPosition(camera).target
        let key = (lat: target.latitude, lon: target.longitude, zoom: camera.zoom)
        if lastIndoorCamera == nil || lastIndoorCamera! != key {
            lastIndoorCamera = key
            indoor.isEnabled = map.isIndoorEnabled
            indoor.update(target: target, zoom: camera.zoom)
        }
        updateCompass(map: map)
    }

    private func updateCompass(map: GMSMapView) {
        let now = UIAnimator.shared.now
        if !map.settings.compassButton {
            compassOpacity = 0
            compassFadeStart = nil
        } else if Self.bearingIsTurned(map.cameraState.bearing) {
            compassOpacity = 1
            compassFadeStart = nil
        } else if compassOpacity > 0 {
            let start = compassFadeStart ?? now
            compassFadeStart = start
            let elapsed = now - start
            // Clock sums carry rounding error: within a nanosecond of the duration counts as done.
            compassOpacity = elapsed >= Self.compassFadeDuration - 1e-9 ? 0 : 1 - elapsed / Self.compassFadeDuration
            if compassOpacity == 0 { compassFadeStart = nil }
        }
    }

    /// A bearing counts as turned when it differs from north by more than 1e-6°.
    static func bearingIsTurned(_ bearing: Double) -> Bool {
        let b = bearing.truncatingRemainder(dividingBy: 360)
        return min(abs(b), 360 - abs(b)) > 1e-6
    }

    // MARK: Layout

    /// The view's rectangle inside the padding and the 12 pt margin.
    static func controlArea(map: GMSMapView) -> CGRect {
        let p = EdgeInsets(map.layoutPadding).sanitized
        let b = map.bounds
        let x = b.minX + max(0, p.left) + margin
        let y = b.minY + max(0, p.top) + margin
        let w = b.width - max(0, p.left) - max(0, p.right) - 2 * margin
        let h = b.height - max(0, p.top) - max(0, p.bottom) - 2 * margin
        return CGRect(x: x, y: y, width: max(0, w), height: max(0, h))
    }

    /// The compass frame while it is drawn (opacity > 0), else nil.
    func compassFrame(map: GMSMapView) -> CGRect? {
        guard compassOpacity > 0 else { return nil }
        let a = Self.controlArea(map: map)
        return CGRect(x: a.maxX - Self.compassSize, y: a.minY, width: Self.compassSize, height: Self.compassSize)
    }

    /// The button's slot at the bottom-right.
    static func myLocationSlot(map: GMSMapView) -> CGRect {
        let a = controlArea(map: map)
        let s = myLocationButtonSize
        return CGRect(x: a.maxX - s, y: a.maxY - s, width: s, height: s)
    }

    /// The my-location button frame when shown (both flags on), else nil.
    func myLocationButtonFrame(map: GMSMapView) -> CGRect? {
        guard map.settings.myLocationButton && map.isMyLocationEnabled else { return nil }
        return Self.myLocationSlot(map: map)
    }

    /// The floor picker's rows, top to bottom, when shown.
    func floorPickerRows(map: GMSMapView) -> [(GMSIndoorLevel, CGRect)] {
        guard map.settings.indoorPicker, map.isIndoorEnabled, let building = indoorStorage?.display.activeBuilding,
            !building.levels.isEmpty
        else { return [] }
        let slot = Self.myLocationSlot(map: map)
        let bottom = slot.minY - Self.margin
        // Rows shrink (to no less than 20 pt) so tall buildings stay between the compass slot and the button slot.
        let room = bottom - (Self.controlArea(map: map).minY + Self.compassSize + Self.margin)
        let h = max(20, min(Self.floorRowHeight, room / CGFloat(building.levels.count)))
        let top = bottom - h * CGFloat(building.levels.count)
        let x = slot.maxX - Self.floorPickerWidth
        return building.levels.enumerated().map { i, level in
            (level, CGRect(x: x, y: top + h * CGFloat(i), width: Self.floorPickerWidth, height: h))
        }
    }

    /// The screen position of the my-location dot and its accuracy radius in points, or nil without a fix.
    func dot(map: GMSMapView) -> (center: CGPoint, accuracyRadius: CGFloat, fix: CLLocation)? {
        guard let fix = location.myLocation, CLLocationCoordinate2DIsValid(fix.coordinate) else { return nil }
        let t = map.cameraState.transform
        let w = t.nearestWorldCopy(of: WebMercator.worldPoint(LatLng(fix.coordinate)))
        guard t.depth(of: w) > t.distance * 1e-3 else { return nil }
        let s = t.screenPoint(forUnwrapped: w)
        var radius: CGFloat = 0
        let accuracy = fix.horizontalAccuracy
        if accuracy.isFinite && accuracy > 0 {
            // Metres → points: the screen distance to a point `accuracy` metres north (1° latitude ≈ 111 320 m).
            let north = CLLocationCoordinate2D(
                latitude: min(85, fix.coordinate.latitude + accuracy / 111_320), longitude: fix.coordinate.longitude)
            let n = t.screenPoint(
                forUnwrapped: t.nearestWorldCopy(of: WebMercator.worldPoint(LatLng(north))))
            let d = hypot(n.x - s.x, n.y - s.y)
            if d.isFinite { radius = CGFloat(min(d, 1e5)) }
        }
        return (CGPoint(x: s.x, y: s.y), radius, fix)
    }

    static let dotRadius: CGFloat = 8

    /// The controls shown now with their accessibility identifiers (D18) and frames in view points: the compass
    /// (`kGMSAccessibilityCompass`) and the my-location button (`kGMSAccessibilityMyLocation`).
    func accessibilityElements(map: GMSMapView) -> [(identifier: String, frame: CGRect)] {
        var elements: [(identifier: String, frame: CGRect)] = []
        if compassOpacity >= 1, let f = compassFrame(map: map) { elements.append((kGMSAccessibilityCompass, f)) }
        if let f = myLocationButtonFrame(map: map) { elements.append((kGMSAccessibilityMyLocation, f)) }
        return elements
    }

    // MARK: Hit testing

    /// The button-like control under `point` (compass, my-location button, floor level), top-most first.
    func buttonHit(at point: CGPoint, map: GMSMapView) -> MapControlHit? {
        if compassOpacity >= 1, let f = compassFrame(map: map),
            hypot(point.x - f.midX, point.y - f.midY) <= Self.compassSize / 2
        {
            return .compass
        }
        if let f = myLocationButtonFrame(map: map), f.contains(point) { return .myLocationButton }
        for (level, rect) in floorPickerRows(map: map) where rect.contains(point) { return .floorLevel(level) }
        return nil
    }

    /// `text` laid out in ``attributionAttributes(_:)`` for the palette, once while the text and the appearance are
    /// unchanged: every frame draws the attribution, and its size and drawing share the one layout.
    func attributionLine(_ text: String) -> LaidOutText {
        if let laidOutAttribution, laidOutAttribution.text.string == text, laidOutAttributionIsDark == isDark {
            return laidOutAttribution
        }
        let line = LaidOutText(NSAttributedString(string: text, attributes: Self.attributionAttributes(palette)))
        laidOutAttribution = line
        laidOutAttributionIsDark = isDark
        return line
    }

    /// The my-location dot when `point` lies within 12 pt of its centre (and at least within the accuracy circle).
    func dotHit(at point: CGPoint, map: GMSMapView) -> CLLocation? {
        guard map.isMyLocationEnabled, let d = dot(map: map) else { return nil }
        return hypot(point.x - d.center.x, point.y - d.center.y) <= Self.dotRadius + 4 ? d.fix : nil
    }
}

extension BasemapRenderer {
    /// No attribution by default: the plain stand-in draws no data, so it has nothing to attribute.
    var attribution: String? { nil }
}
