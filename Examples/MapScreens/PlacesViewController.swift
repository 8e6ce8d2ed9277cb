import CoreLocation
import GoogleMaps
import UIKit

/// Search and a sheet over a live map: a search controller under the navigation bar filters the five places of
/// ``MarkersViewController/places`` into a results table; choosing one (or tapping its marker) moves the camera there
/// and presents a medium-detent card with a grabber, the map staying interactive above it. The card's "Directions"
/// button opens Google Maps' directions URL (`UIApplication.shared.open`). A blurred chip over the map counts the
/// places shown.
final class PlacesViewController: UIViewController, UISearchResultsUpdating, GMSMapViewDelegate {
    let mapView = GMSMapView(frame: .zero, camera: GMSCameraPosition(latitude: 60.1692, longitude: 24.9430, zoom: 14))
    let results = PlaceResultsViewController()
    lazy var searchController = UISearchController(searchResultsController: results)
    let chip = UIVisualEffectView(effect: UIBlurEffect(style: .systemMaterial))
    let chipLabel = UILabel()
    private(set) var markers: [GMSMarker] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Places"
        view.backgroundColor = .systemBackground
        mapView.delegate = self
        mapView.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(mapView)
        chip.layer.cornerRadius = 14
        chip.clipsToBounds = true
        chip.translatesAutoresizingMaskIntoConstraints = false
        chipLabel.font = .systemFont(ofSize: 15, weight: .semibold)
        chipLabel.textAlignment = .center
        chipLabel.translatesAutoresizingMaskIntoConstraints = false
        chip.contentView.addSubview(chipLabel)
        view.addSubview(chip)
        NSLayoutConstraint.activate([
            mapView.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
            mapView.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            mapView.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            mapView.bottomAnchor.constraint(equalTo: view.bottomAnchor),
            chip.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 12),
            chip.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            chip.widthAnchor.constraint(equalToConstant: 120),
            chip.heightAnchor.constraint(equalToConstant: 28),
            chipLabel.leadingAnchor.constraint(equalTo: chip.contentView.leadingAnchor),
            chipLabel.trailingAnchor.constraint(equalTo: chip.contentView.trailingAnchor),
            chipLabel.centerYAnchor.constraint(equalTo: chip.contentView.centerYAnchor),
        ])

        results.onChoose = { [weak self] index in self?.choose(index) }
        searchController.searchResultsUpdater = self
        searchController.searchBar.placeholder = "Search places"
        navigationItem.searchController = searchController
        navigationItem.hidesSearchBarWhenScrolling = false

        for place in MarkersViewController.places {
            let marker = GMSMarker(position: place.position)
            marker.title = place.name
            marker.map = mapView
            markers.append(marker)
        }
        showMarkers(for: "")
    }

    /// Dismisses the card (and ends any search) when the screen goes, so the card does not stay over the screen
    /// shown next.
    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        searchController.isActive = false
        if presentedViewController != nil { dismiss(animated: animated) }
    }

    /// Shows the markers whose names contain `query` (all for an empty query) and counts them in the chip.
    func showMarkers(for query: String) {
        var shown = 0
        for (index, place) in MarkersViewController.places.enumerated() {
            let matches = query.isEmpty || place.name.localizedCaseInsensitiveContains(query)
            markers[index].map = matches ? mapView : nil
            if matches { shown += 1 }
        }
        chipLabel.text = shown == 1 ? "1 place" : "\(shown) places"
    }

    /// Ends the search, moves the camera to place `index` (centred in the map above the card) and shows its card.
    func choose(_ index: Int) {
        searchController.isActive = false
        mapView.padding = UIEdgeInsets(top: 0, left: 0, bottom: mapView.bounds.height / 2, right: 0)
        let place = MarkersViewController.places[index]
        mapView.animate(to: GMSCameraPosition(target: place.position, zoom: 16))
        showCard(for: index)
    }

    /// Presents (or replaces) the medium-detent card for place `index`.
    func showCard(for index: Int) {
        let card = PlaceCardViewController(index: index)
        if let sheet = card.sheetPresentationController {
            sheet.detents = [.medium(), .large()]
            sheet.largestUndimmedDetentIdentifier = .medium
            sheet.prefersGrabberVisible = true
        }
        if presentedViewController != nil {
            dismiss(animated: false)
        }
        present(card, animated: true)
    }

    // MARK: UISearchResultsUpdating

    func updateSearchResults(for searchController: UISearchController) {
        let query = searchController.searchBar.text ?? ""
        results.matches = MarkersViewController.places.indices.filter {
            MarkersViewController.places[$0].name.localizedCaseInsensitiveContains(query)
        }
        showMarkers(for: query)
    }

    // MARK: GMSMapViewDelegate

    func mapView(_ mapView: GMSMapView, didTap marker: GMSMarker) -> Bool {
        guard let index = markers.firstIndex(where: { $0 === marker }) else { return false }
        showCard(for: index)
        return false
    }
}

/// The search results: a table of the matching places.
final class PlaceResultsViewController: UITableViewController {
    /// Indices into ``MarkersViewController/places`` of the places matching the search.
    var matches: [Int] = [] {
        didSet { tableView.reloadData() }
    }
    /// Called with a place's index when its row is selected.
    var onChoose: ((Int) -> Void)?

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "place")
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { matches.count }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "place", for: indexPath)
        var content = cell.defaultContentConfiguration()
        content.text = MarkersViewController.places[matches[indexPath.row]].name
        cell.contentConfiguration = content
        return cell
    }

    override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        onChoose?(matches[indexPath.row])
    }
}

/// A place's card: its name, coordinates and a "Directions" button that opens Google Maps' directions URL.
final class PlaceCardViewController: UIViewController {
    let index: Int
    let nameLabel = UILabel()
    let directions: UIButton = {
        var configuration = UIButton.Configuration.filled()
        configuration.title = "Directions"
        return UIButton(configuration: configuration)
    }()
    /// Whether the last "Directions" tap was handed on (`UIApplication.open`'s completion).
    private(set) var directionsOpened: Bool?

    init(index: Int) {
        self.index = index
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    /// Google Maps' directions URL for the place.
    var directionsURL: URL {
        let p = MarkersViewController.places[index].position
        return URL(string: "https://www.google.com/maps/dir/?api=1&destination=\(p.latitude),\(p.longitude)")!
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        let place = MarkersViewController.places[index]
        nameLabel.text = place.name
        nameLabel.font = .systemFont(ofSize: 22, weight: .bold)
        let detail = UILabel()
        detail.text = String(format: "%.4f, %.4f", place.position.latitude, place.position.longitude)
        detail.textColor = .secondaryLabel
        directions.addAction(
            UIAction { [weak self] _ in
                guard let self else { return }
                UIApplication.shared.open(self.directionsURL) { [weak self] ok in self?.directionsOpened = ok }
            }, for: .touchUpInside)
        let stack = UIStackView(arrangedSubviews: [nameLabel, detail, directions])
        stack.axis = .vertical
        stack.alignment = .leading
        stack.spacing = 8
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.topAnchor.constraint(equalTo: view.topAnchor, constant: 28),
            stack.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: 20),
            stack.trailingAnchor.constraint(lessThanOrEqualTo: view.trailingAnchor, constant: -20),
        ])
    }
}
