// Patterns of Google's Maps SDK sample app (session 19's QA of those samples) that Waymark lacked: the visual format
// language, the life-cycle notifications, and a key-value observation invalidated in `deinit` (nonisolated in Swift 6
// mode; Foundation's `invalidate()` has no actor, so Xcode is silent there).
import GoogleMaps

final class IndoorPickerScreen: UIViewController {
    private var mapView: GMSMapView!
    private let levelPicker = UIPickerView()
    private var observation: NSKeyValueObservation?
    private var foregroundObserver: NSObjectProtocol?

    override func viewDidLoad() {
        super.viewDidLoad()
        mapView = GMSMapView(frame: .zero)
        mapView.translatesAutoresizingMaskIntoConstraints = false
        levelPicker.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(mapView)
        view.addSubview(levelPicker)
        let views: [String: Any] = ["mapView": mapView as Any, "levelPicker": levelPicker]
        let metrics = ["pickerHeight": 180]
        view.addConstraints(
            NSLayoutConstraint.constraints(withVisualFormat: "|[mapView]|", options: [], metrics: metrics, views: views)
        )
        view.addConstraints(
            NSLayoutConstraint.constraints(
                withVisualFormat: "V:|[mapView][levelPicker(pickerHeight)]|", options: [.alignAllLeading],
                metrics: metrics, views: views))
        observation = mapView.observe(\.myLocation, options: [.new]) { _, change in
            print(change.newValue as Any)
        }
        foregroundObserver = NotificationCenter.default.addObserver(
            forName: UIApplication.willEnterForegroundNotification, object: nil, queue: .main
        ) { _ in
            print("foreground")
        }
    }

    deinit {
        observation?.invalidate()
    }
}
