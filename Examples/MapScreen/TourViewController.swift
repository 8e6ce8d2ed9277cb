import CoreLocation
import GoogleMaps
import UIKit

/// A walking tour of central Helsinki: the route, the market square's outline and a circle around the cathedral on
/// the main map, a pin per stop, a tile layer marking the tiles a stop is in, and a small overview map that follows
/// the main map's camera. "Tour" plays a camera animation sequence through the stops (each leg starts from the
/// delegate's `idleAt`); a tap on the map drops a marker.
final class TourViewController: UIViewController, GMSMapViewDelegate {
    static let stops: [(name: String, position: CLLocationCoordinate2D)] = [
        ("Railway Station", CLLocationCoordinate2D(latitude: 60.1710, longitude: 24.9414)),
        ("Senate Square", CLLocationCoordinate2D(latitude: 60.1695, longitude: 24.9526)),
        ("Market Square", CLLocationCoordinate2D(latitude: 60.1675, longitude: 24.9530)),
        ("Esplanadi", CLLocationCoordinate2D(latitude: 60.1679, longitude: 24.9470)),
    ]

    let mapView = GMSMapView(
        frame: .zero, camera: GMSCameraPosition(latitude: 60.1692, longitude: 24.9470, zoom: 14.5))
    let overviewMap = GMSMapView(
        frame: .zero, camera: GMSCameraPosition(latitude: 60.1692, longitude: 24.9470, zoom: 11))
    let stopTiles = StopTileLayer(stops: TourViewController.stops.map(\.position))
    private var overviewBox: GMSPolygon?
    private var nextLeg: Int?
    private(set) var tappedMarkers: [GMSMarker] = []

    override func loadView() {
        view = UIView()
        view.backgroundColor = .systemBackground
        for map in [mapView, overviewMap] {
            map.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(map)
        }
        overviewMap.layer.borderWidth = 2
        overviewMap.layer.borderColor = UIColor.white.cgColor
        overviewMap.settings.setAllGesturesEnabled(false)
        NSLayoutConstraint.activate([
            mapView.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            mapView.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            mapView.topAnchor.constraint(equalTo: view.topAnchor),
            mapView.bottomAnchor.constraint(equalTo: view.bottomAnchor),
            overviewMap.trailingAnchor.constraint(equalTo: view.trailingAnchor, constant: -16),
            overviewMap.bottomAnchor.constraint(equalTo: view.bottomAnchor, constant: -16),
            overviewMap.widthAnchor.constraint(equalToConstant: 200),
            overviewMap.heightAnchor.constraint(equalTo: overviewMap.widthAnchor, multiplier: 0.75),
        ])
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Helsinki walk"
        navigationItem.rightBarButtonItem = UIBarButtonItem(
            primaryAction: UIAction(title: "Tour") { [weak self] _ in self?.startTour() })
        mapView.delegate = self
        mapView.settings.compassButton = true
        addOverlays()
    }

    private func addOverlays() {
        let route = GMSMutablePath()
        for stop in Self.stops { route.add(stop.position) }
        let line = GMSPolyline(path: route)
        line.strokeWidth = 5
        line.strokeColor = .systemBlue
        line.map = mapView

        let square = GMSMutablePath()
        square.add(CLLocationCoordinate2D(latitude: 60.1681, longitude: 24.9515))
        square.add(CLLocationCoordinate2D(latitude: 60.1681, longitude: 24.9545))
        square.add(CLLocationCoordinate2D(latitude: 60.1668, longitude: 24.9545))
        square.add(CLLocationCoordinate2D(latitude: 60.1668, longitude: 24.9515))
        let market = GMSPolygon(path: square)
        market.fillColor = UIColor.systemOrange.withAlphaComponent(0.35)
        market.strokeColor = .systemOrange
        market.strokeWidth = 2
        market.map = mapView

        let cathedral = GMSCircle(position: CLLocationCoordinate2D(latitude: 60.1704, longitude: 24.9522), radius: 120)
        cathedral.fillColor = UIColor.systemGreen.withAlphaComponent(0.25)
        cathedral.strokeColor = .systemGreen
        cathedral.map = mapView

        for stop in Self.stops {
            let marker = GMSMarker(position: stop.position)
            marker.title = stop.name
            marker.map = mapView
        }

        stopTiles.opacity = 0.25
        stopTiles.zIndex = 1
        stopTiles.map = mapView

        let box = GMSPolygon(path: GMSPath(rect: mapView.projection.visibleRegion()))
        box.strokeColor = .systemRed
        box.strokeWidth = 2
        box.fillColor = .clear
        box.map = overviewMap
        overviewBox = box
    }

    /// Flies to each stop in turn: a two-second leg in a transaction, the next one when the camera comes to rest.
    func startTour() {
        nextLeg = 0
        flyToNextStop()
    }

    private func flyToNextStop() {
        guard let leg = nextLeg, leg < Self.stops.count else {
            nextLeg = nil
            return
        }
        nextLeg = leg + 1
        CATransaction.begin()
        CATransaction.setValue(2.0, forKey: kCATransactionAnimationDuration)
        mapView.animate(
            to: GMSCameraPosition(target: Self.stops[leg].position, zoom: 16, bearing: 30, viewingAngle: 35))
        CATransaction.commit()
    }

    // MARK: GMSMapViewDelegate

    func mapView(_ mapView: GMSMapView, didTapAt coordinate: CLLocationCoordinate2D) {
        let marker = GMSMarker(position: coordinate)
        marker.icon = GMSMarker.markerImage(with: .systemPurple)
        marker.appearAnimation = .pop
        marker.map = mapView
        tappedMarkers.append(marker)
    }

    func mapView(_ mapView: GMSMapView, didChange position: GMSCameraPosition) {
        guard mapView === self.mapView else { return }
        overviewMap.camera = GMSCameraPosition(target: position.target, zoom: max(position.zoom - 3.5, 2))
        overviewBox?.path = GMSPath(rect: mapView.projection.visibleRegion())
    }

    func mapView(_ mapView: GMSMapView, idleAt position: GMSCameraPosition) {
        guard mapView === self.mapView else { return }
        self.mapView(mapView, didChange: position)
        flyToNextStop()
    }
}

extension GMSPath {
    /// The outline of a visible region, corner to corner.
    convenience init(rect region: GMSVisibleRegion) {
        let path = GMSMutablePath()
        path.add(region.nearLeft)
        path.add(region.nearRight)
        path.add(region.farRight)
        path.add(region.farLeft)
        self.init(path: path)
    }
}

/// Marks the tiles that hold a stop with a pin image, as a `GMSSyncTileLayer` whose `tileFor` runs off the main
/// thread (`GMSMarker.markerImage(with:)` is documented as safe there).
final class StopTileLayer: GMSSyncTileLayer {
    let stops: [CLLocationCoordinate2D]

    init(stops: [CLLocationCoordinate2D]) {
        self.stops = stops
        super.init()
    }

    override func tileFor(x: UInt, y: UInt, zoom: UInt) -> UIImage? {
        let n = pow(2, Double(zoom))
        let holdsStop = stops.contains { stop in
            let tileX = UInt((stop.longitude + 180) / 360 * n)
            let sinLat = sin(stop.latitude * .pi / 180)
            let tileY = UInt((0.5 - log((1 + sinLat) / (1 - sinLat)) / (4 * .pi)) * n)
            return tileX == x && tileY == y
        }
        return holdsStop ? GMSMarker.markerImage(with: .systemTeal) : kGMSTileLayerNoTile
    }
}
