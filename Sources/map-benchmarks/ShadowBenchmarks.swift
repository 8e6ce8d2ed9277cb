import Foundation
import GoogleMaps

/// One window frame of a 390 × 844 pt phone screen at scale 2 through `UIHeadlessHost`: a map filling the screen
/// panning 4 points a frame (so it changes every frame) under a floating panel (cornerRadius 12, a title label, a
/// segmented control and a switch) that does not change. The variants: no panel (the bare map), the panel without a
/// shadow, with a layer shadow (radius 8, opacity 0.3) drawn from the panel's silhouette, and with the same shadow
/// from a `shadowPath`. The shadow's cost is the difference of the medians (issue 30's per-frame budget).
struct ShadowPanelFrameBenchmark: Benchmark {
    enum Variant: String {
        case bareMap = "uikit-bare-map-frame"
        case plainPanel = "uikit-plain-panel-frame"
        case shadowPanel = "uikit-shadow-panel-frame"
        case shadowPathPanel = "uikit-shadow-path-panel-frame"
    }

    let variant: Variant
    var name: String { variant.rawValue }
    let unit = "frames"
    var iterations: Int { 30 }
    private var host: UIHeadlessHost?
    private var map: GMSMapView?

    init(_ variant: Variant) { self.variant = variant }

    mutating func setUp() throws {
        let variant = variant
        (host, map) = MainActor.assumeIsolated {
            let root = UIView(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
            let map = GMSMapView(
                frame: root.bounds, camera: GMSCameraPosition(latitude: 60.1699, longitude: 24.9443, zoom: 16))
            root.addSubview(map)
            if variant != .bareMap { root.addSubview(makePanel(variant)) }
            UIApplication.shared.resetForNextRun()
            let host = UIHeadlessHost(view: root, scale: 2)
            host.runUntilIdle()
            return (host, map)
        }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            guard let host, let map else { return 0 }
            var camera = map.camera.target
            camera.longitude += 4 / (256 * pow(2, 16) / 360)
            if camera.longitude > 24.96 { camera.longitude = 24.93 }
            map.moveCamera(GMSCameraUpdate.setTarget(camera))
            host.advance(by: UIHeadlessHost.frameInterval)
            return 1
        }
    }
}

/// The floating panel: 358 × 220 pt at the bottom of the screen, white, rounded, with three controls.
@MainActor private func makePanel(_ variant: ShadowPanelFrameBenchmark.Variant) -> UIView {
    let panel = UIView(frame: CGRect(x: 16, y: 592, width: 358, height: 220))
    panel.backgroundColor = .white
    panel.layer.cornerRadius = 12
    if variant == .shadowPanel || variant == .shadowPathPanel {
        panel.layer.shadowColor = UIColor.black.cgColor
        panel.layer.shadowOpacity = 0.3
        panel.layer.shadowRadius = 8
        panel.layer.shadowOffset = CGSize(width: 0, height: 2)
    }
    if variant == .shadowPathPanel {
        panel.layer.shadowPath = UIBezierPath(roundedRect: panel.bounds, cornerRadius: 12).cgPath
    }
    let title = UILabel(frame: CGRect(x: 16, y: 16, width: 326, height: 24))
    title.text = "Kauppatori, Helsinki"
    title.font = .boldSystemFont(ofSize: 17)
    panel.addSubview(title)
    let segments = UISegmentedControl(items: ["Drive", "Walk", "Transit"])
    segments.frame = CGRect(x: 16, y: 56, width: 326, height: 32)
    segments.selectedSegmentIndex = 0
    panel.addSubview(segments)
    let toggle = UISwitch(frame: CGRect(x: 16, y: 104, width: 51, height: 31))
    toggle.isOn = true
    panel.addSubview(toggle)
    return panel
}
