import Foundation
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// A map screen as an iOS app builds it — a navigation controller whose top controller's view is a map, bar buttons,
/// a card in semantic colours — drawn headless and compared with goldens: in light and dark appearance, with an alert
/// over it, with a search bar and a medium-detent sheet, and halfway through a push.
@MainActor @Suite(.serialized) struct MapScreenGoldenTests {
    final class MapScreen: UIViewController {
        let card = UIView()
        let label = UILabel()

        override func loadView() {
            let map = GMSMapView(
                frame: UIScreen.main.bounds, camera: GMSCameraPosition(latitude: 60.1699, longitude: 24.9384, zoom: 13))
            map.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            card.backgroundColor = .systemBackground
            card.layer.cornerRadius = 12
            label.text = "Helsinki 1.2 km"
            label.textColor = .label
            card.addSubview(label)
            map.addSubview(card)
            view = map
        }

        override func viewDidLoad() {
            title = "Helsinki"
            navigationItem.rightBarButtonItem = UIBarButtonItem(systemItem: .add)
            navigationItem.leftBarButtonItem = UIBarButtonItem(title: "Type", menu: UIMenu(children: []))
        }

        override func viewDidLayoutSubviews() {
            let b = view.bounds
            card.frame = CGRect(x: 16, y: b.height - 76, width: b.width - 32, height: 60)
            label.frame = card.bounds.insetBy(dx: 16, dy: 0)
        }
    }

    private func makeScreen() -> (UIHeadlessHost, UINavigationController, MapScreen) {
        _ = installMapClock()
        UIApplication.shared.resetForNextRun()
        UIScreen.main.userInterfaceStyle = .unspecified
        let screen = MapScreen()
        let navigation = UINavigationController(rootViewController: screen)
        let host = UIHeadlessHost(rootViewController: navigation, size: CGSize(width: 320, height: 400))
        host.runUntilIdle()
        return (host, navigation, screen)
    }

    @Test func lightAndDark() {
        let (host, navigation, screen) = makeScreen()
        #expect(screen.view.traitCollection.userInterfaceStyle == .light)
        expectGolden(host.snapshot(), "map-screen-light")
        navigation.overrideUserInterfaceStyle = .dark
        #expect(screen.view.traitCollection.userInterfaceStyle == .dark)
        #expect(screen.card.layer.backgroundColor == UIColor.black.cgColor)
        host.runUntilIdle()
        expectGolden(host.snapshot(), "map-screen-dark")
    }

    @Test func alertOverTheMap() {
        let (host, _, screen) = makeScreen()
        let alert = UIAlertController(
            title: "Location off", message: "Turn on location to see where you are.", preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "Not now", style: .cancel))
        alert.addAction(UIAlertAction(title: "Settings", style: .default))
        screen.present(alert, animated: true)
        host.runUntilIdle()
        expectGolden(host.snapshot(), "alert-over-map")
    }

    @Test func searchBarAndSheetOverTheMap() throws {
        let (host, _, screen) = makeScreen()
        let search = UISearchController(searchResultsController: nil)
        search.searchBar.placeholder = "Search places"
        screen.navigationItem.searchController = search
        host.runUntilIdle()
        let card = UIViewController()
        card.view.backgroundColor = .systemBackground
        let name = UILabel(frame: CGRect(x: 20, y: 24, width: 280, height: 28))
        name.text = "Kamppi"
        name.font = .systemFont(ofSize: 22, weight: .bold)
        card.view.addSubview(name)
        let sheet = try #require(card.sheetPresentationController)
        sheet.detents = [.medium(), .large()]
        sheet.largestUndimmedDetentIdentifier = .medium
        sheet.prefersGrabberVisible = true
        screen.present(card, animated: true)
        host.runUntilIdle()
        expectGolden(host.snapshot(), "search-and-sheet-over-map")
    }

    @Test func pushHalfway() {
        let (host, navigation, _) = makeScreen()
        let detail = UIViewController()
        detail.title = "Kamppi"
        detail.view.backgroundColor = .systemGroupedBackground
        navigation.pushViewController(detail, animated: true)
        host.advance(by: UINavigationController.transitionDuration / 2)
        expectGolden(host.snapshot(), "push-halfway")
        host.runUntilIdle()
    }
}
