// Issue 30: a map screen's search, sheet, blur and URL code as Xcode's templates and Apple's samples write it,
// compiled in both language modes (Swift5Checks links this file).
import Foundation
import GoogleMaps
import UIKit

final class PlaceSearchScreen: UIViewController, UISearchResultsUpdating, UISearchBarDelegate,
    UISheetPresentationControllerDelegate
{
    let mapView = GMSMapView(frame: .zero, camera: GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 14))
    let searchController = UISearchController(searchResultsController: nil)

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(mapView)
        searchController.searchResultsUpdater = self
        searchController.obscuresBackgroundDuringPresentation = false
        searchController.searchBar.placeholder = "Search places"
        searchController.searchBar.delegate = self
        navigationItem.searchController = searchController
        navigationItem.hidesSearchBarWhenScrolling = false
        let chip = UIVisualEffectView(effect: UIBlurEffect(style: .systemThinMaterial))
        chip.contentView.addSubview(UILabel())
        view.addSubview(chip)
    }

    func updateSearchResults(for searchController: UISearchController) {
        guard let text = searchController.searchBar.text, !text.isEmpty else { return }
        title = text
    }

    func searchBarSearchButtonClicked(_ searchBar: UISearchBar) {
        searchBar.resignFirstResponder()
    }

    func showDetails() {
        let details = UIViewController()
        if let sheet = details.sheetPresentationController {
            sheet.detents = [.medium(), .large()]
            sheet.selectedDetentIdentifier = .medium
            sheet.largestUndimmedDetentIdentifier = .medium
            sheet.prefersGrabberVisible = true
            sheet.preferredCornerRadius = 16
            sheet.delegate = self
        }
        present(details, animated: true)
    }

    func openWebsite() {
        guard let url = URL(string: "https://maps.google.com"), UIApplication.shared.canOpenURL(url) else { return }
        UIApplication.shared.open(url, options: [:]) { [weak self] success in
            if !success { self?.title = "Could not open" }
        }
        UIApplication.shared.open(url)
    }
}
