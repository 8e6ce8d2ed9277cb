import GoogleMaps
import UIKit

/// Light and dark: a segmented control over the map sets the screen's `overrideUserInterfaceStyle` (the map follows
/// its traits and draws its dark basemap), a "Type" bar button's menu switches the map type between the basemap and
/// none (overlays only), and "Reset" asks before going back to light and normal.
final class StylesViewController: UIViewController {
    let mapView = GMSMapView(frame: .zero, camera: GMSCameraPosition(latitude: 60.1680, longitude: 24.9500, zoom: 15))
    let styleControl = UISegmentedControl(items: ["Light", "Dark"])
    private var typeItem: UIBarButtonItem!

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Styles"
        view.backgroundColor = .systemBackground
        overrideUserInterfaceStyle = .light

        styleControl.selectedSegmentIndex = 0
        styleControl.addAction(
            UIAction { [weak self] _ in
                guard let self else { return }
                self.overrideUserInterfaceStyle = self.styleControl.selectedSegmentIndex == 1 ? .dark : .light
            }, for: .valueChanged)

        let route = GMSMutablePath()
        route.add(CLLocationCoordinate2D(latitude: 60.1710, longitude: 24.9414))
        route.add(CLLocationCoordinate2D(latitude: 60.1695, longitude: 24.9526))
        route.add(CLLocationCoordinate2D(latitude: 60.1660, longitude: 24.9560))
        let line = GMSPolyline(path: route)
        line.strokeWidth = 4
        line.strokeColor = .systemRed
        line.map = mapView

        for subview in [mapView, styleControl] as [UIView] {
            subview.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(subview)
        }
        let safeArea = view.safeAreaLayoutGuide
        NSLayoutConstraint.activate([
            mapView.topAnchor.constraint(equalTo: safeArea.topAnchor),
            mapView.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            mapView.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            mapView.bottomAnchor.constraint(equalTo: view.bottomAnchor),
            styleControl.topAnchor.constraint(equalTo: safeArea.topAnchor, constant: 12),
            styleControl.centerXAnchor.constraint(equalTo: safeArea.centerXAnchor),
            styleControl.widthAnchor.constraint(equalToConstant: 200),
        ])

        typeItem = UIBarButtonItem(title: "Type", menu: makeTypeMenu())
        navigationItem.rightBarButtonItems = [
            UIBarButtonItem(title: "Reset", primaryAction: UIAction { [weak self] _ in self?.confirmReset() }),
            typeItem,
        ]
    }

    /// The map types the menu offers, the current one checked.
    private func makeTypeMenu() -> UIMenu {
        let types: [(String, GMSMapViewType)] = [("Normal", .normal), ("No basemap", .none)]
        return UIMenu(
            title: "Map type", options: .singleSelection,
            children: types.map { title, type in
                UIAction(title: title, state: mapView.mapType == type ? .on : .off) { [weak self] _ in
                    self?.mapView.mapType = type
                }
            })
    }

    /// Asks before going back to the light style and the normal map type.
    func confirmReset() {
        let alert = UIAlertController(
            title: "Reset the map?", message: "Light style and the normal map type.", preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(
            UIAlertAction(title: "Reset", style: .default) { [weak self] _ in
                guard let self else { return }
                self.styleControl.selectedSegmentIndex = 0
                self.overrideUserInterfaceStyle = .light
                self.mapView.mapType = .normal
                self.typeItem.menu = self.makeTypeMenu()
            })
        present(alert, animated: true)
    }
}
