import GoogleMaps
import UIKit

/// The catalogue: a table of map screens; selecting a row pushes its screen.
final class ScreenListViewController: UIViewController, UITableViewDataSource, UITableViewDelegate {
    struct Screen {
        let title: String
        let detail: String
        let make: () -> UIViewController
    }

    static let screens: [Screen] = [
        Screen(title: "Markers & alert", detail: "Drop pins, hide the places, clear them all") {
            MarkersViewController()
        },
        Screen(title: "Styles", detail: "Light and dark, map types from a menu") { StylesViewController() },
        Screen(title: "Camera", detail: "Zoom with a slider, turn with a stepper, jump to a place") {
            CameraViewController()
        },
        Screen(title: "Search & card", detail: "Search the places, see one on a card over the map") {
            PlacesViewController()
        },
    ]

    let tableView = UITableView(frame: .zero, style: .insetGrouped)

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Map screens"
        view.backgroundColor = .systemGroupedBackground
        tableView.dataSource = self
        tableView.delegate = self
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "screen")
        tableView.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(tableView)
        NSLayoutConstraint.activate([
            tableView.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
            tableView.leadingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.leadingAnchor),
            tableView.trailingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.trailingAnchor),
            tableView.bottomAnchor.constraint(equalTo: view.bottomAnchor),
        ])
        navigationItem.rightBarButtonItem = UIBarButtonItem(
            title: "About",
            primaryAction: UIAction { [weak self] _ in
                let alert = UIAlertController(
                    title: "Map screens", message: "Maps SDK \(GMSServices.sdkVersion())", preferredStyle: .alert)
                alert.addAction(UIAlertAction(title: "OK", style: .default))
                self?.present(alert, animated: true)
            })
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        if let selected = tableView.indexPathForSelectedRow {
            tableView.deselectRow(at: selected, animated: animated)
        }
    }

    // MARK: UITableViewDataSource

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { Self.screens.count }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "screen", for: indexPath)
        let screen = Self.screens[indexPath.row]
        var content = cell.defaultContentConfiguration()
        content.text = screen.title
        content.secondaryText = screen.detail
        cell.contentConfiguration = content
        cell.accessoryType = .disclosureIndicator
        return cell
    }

    func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { "Helsinki" }

    // MARK: UITableViewDelegate

    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        let screen = Self.screens[indexPath.row].make()
        navigationController?.pushViewController(screen, animated: true)
    }
}
