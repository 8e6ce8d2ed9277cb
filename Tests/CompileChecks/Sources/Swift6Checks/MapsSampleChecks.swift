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

/// Data-driven styling as Google's sample writes it (the layer is unavailable on Waymark, as with an unconfigured
/// map ID on iOS, and the sample says so).
final class BoundariesScreen: UIViewController, GMSMapViewDelegate {
    private var mapView: GMSMapView!
    private let highlighted = "ChIJJcLL_DeWvoARQyqHFcY2se4"

    override func viewDidLoad() {
        super.viewDidLoad()
        let options = GMSMapViewOptions()
        options.mapID = GMSMapID(identifier: "boundaries")
        mapView = GMSMapView(options: options)
        mapView.delegate = self
        view = mapView
        let layer = mapView.featureLayer(of: FeatureType.administrativeAreaLevel2)
        if !layer.isAvailable { print("Feature layer is not available; see debug log for details") }
        let special = FeatureStyle(fill: .red.withAlphaComponent(0.5), stroke: .red, strokeWidth: 2)
        let plain = FeatureStyle(fill: nil, stroke: .gray, strokeWidth: 0.5)
        let placeID = highlighted
        layer.style = { $0.placeID == placeID ? special : plain }
    }

    func mapView(
        _ mapView: GMSMapView, didTap features: [Feature], in featureLayer: FeatureLayer<Feature>,
        atLocation location: CLLocationCoordinate2D
    ) {
        print(features.count, featureLayer.featureType.rawValue, location.latitude)
    }
}

/// A service wrapping the geocoder in nonisolated code, its completion handler captured by the geocoder's (Google's
/// callback is a plain block: no `Sendable` needed).
final class AddressService {
    private let geocoder = GMSGeocoder()

    func address(at coordinate: CLLocationCoordinate2D, completion: @escaping (String?) -> Void) {
        geocoder.reverseGeocodeCoordinate(coordinate) { response, _ in
            let lines = response?.firstResult()?.lines ?? []
            completion(lines.isEmpty ? nil : lines.joined(separator: " "))
        }
    }
}

/// Colours from the app's asset catalog, and Core Animation's clock.
final class RouteStyle {
    let color = UIColor(named: "routeColor") ?? .systemBlue
    let startedAt = CACurrentMediaTime()
}
