import Foundation
import GoogleMaps

/// 60 frames of a map screen's map (800 × 600 pt over central Helsinki at zoom 16, panning 4 points a frame) as a
/// window's only view, through the app's frame loop (`UIHeadlessHost`): the baseline of ``MapScreenFrameBenchmark``
/// with `chrome` on.
///
/// With `chrome` the same map fills a view controller's view (Auto Layout, pinned to the safe area) inside a
/// `UINavigationController`, under a navigation bar with a title and three bar buttons, with a segmented control
/// over the map's top and a stack of five controls (a switch, a slider, a stepper, a button and a label) over its
/// bottom; the window is 44 pt taller so the map keeps its size. Only the map changes from frame to frame. The
/// issue's budget: the chrome costs at most 0.5 ms a frame (30 ms a run of 60 frames) more than the bare map.
struct MapScreenFrameBenchmark: Benchmark {
    let name: String
    let unit = "frames"
    /// 20 runs: the difference sought (30 ms a run) is near the noise of one run on a shared machine.
    let iterations = 20
    let chrome: Bool
    private var host: UIHeadlessHost?
    private var map: GMSMapView?

    init(chrome: Bool) {
        self.chrome = chrome
        name = chrome ? "map-screen-frame-chrome" : "map-screen-frame-bare"
    }

    mutating func setUp() throws {
        let chrome = chrome
        (host, map) = MainActor.assumeIsolated {
            let map = GMSMapView(
                frame: CGRect(x: 0, y: 0, width: 800, height: 600),
                camera: GMSCameraPosition(latitude: 60.1699, longitude: 24.9443, zoom: 16))
            UIApplication.shared.resetForNextRun()
            let host: UIHeadlessHost
            if chrome {
                let navigation = UINavigationController(rootViewController: MapScreenWithChrome(map: map))
                host = UIHeadlessHost(
                    rootViewController: navigation, size: CGSize(width: 800, height: 600 + UINavigationBar.height))
            } else {
                host = UIHeadlessHost(view: map)
            }
            host.runUntilIdle()
            return (host, map)
        }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            guard let host, let map else { return 0 }
            for _ in 0..<60 {
                var target = map.camera.target
                target.longitude += 4 / (256 * pow(2, 16) / 360)
                if target.longitude > 24.96 { target.longitude = 24.93 }
                map.moveCamera(GMSCameraUpdate.setTarget(target))
                host.advance(by: UIHeadlessHost.frameInterval)
            }
            return 60
        }
    }
}

/// The chrome of ``MapScreenFrameBenchmark``: a title, three bar buttons, a segmented control and a stack of five
/// controls around a map, laid out with constraints.
@MainActor private final class MapScreenWithChrome: UIViewController {
    let map: GMSMapView

    init(map: GMSMapView) {
        self.map = map
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Helsinki"
        navigationItem.leftBarButtonItem = UIBarButtonItem(systemItem: .add, primaryAction: UIAction { _ in })
        navigationItem.rightBarButtonItems = [
            UIBarButtonItem(title: "Clear", primaryAction: UIAction { _ in }),
            UIBarButtonItem(
                title: "Type",
                menu: UIMenu(children: [UIAction(title: "Normal") { _ in }, UIAction(title: "None") { _ in }])),
        ]
        let segments = UISegmentedControl(items: ["Light", "Dark", "System"])
        segments.selectedSegmentIndex = 0
        let toggle = UISwitch()
        toggle.isOn = true
        let slider = UISlider()
        slider.minimumValue = 2
        slider.maximumValue = 20
        slider.value = 16
        let stepper = UIStepper()
        let button = UIButton(type: .system)
        button.setTitle("Reset", for: .normal)
        let label = UILabel()
        label.text = "Zoom 16"
        let stack = UIStackView(arrangedSubviews: [toggle, slider, stepper, button, label])
        stack.axis = .horizontal
        stack.spacing = 12
        stack.alignment = .center
        stack.backgroundColor = .systemBackground
        for subview in [map, segments, stack] as [UIView] {
            subview.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(subview)
        }
        let safe = view.safeAreaLayoutGuide
        NSLayoutConstraint.activate([
            map.topAnchor.constraint(equalTo: safe.topAnchor),
            map.leadingAnchor.constraint(equalTo: safe.leadingAnchor),
            map.trailingAnchor.constraint(equalTo: safe.trailingAnchor),
            map.bottomAnchor.constraint(equalTo: safe.bottomAnchor),
            segments.topAnchor.constraint(equalTo: safe.topAnchor, constant: 12),
            segments.centerXAnchor.constraint(equalTo: safe.centerXAnchor),
            stack.leadingAnchor.constraint(equalTo: safe.leadingAnchor, constant: 16),
            stack.trailingAnchor.constraint(equalTo: safe.trailingAnchor, constant: -16),
            stack.bottomAnchor.constraint(equalTo: safe.bottomAnchor, constant: -16),
            stack.heightAnchor.constraint(equalToConstant: 44),
        ])
    }
}
