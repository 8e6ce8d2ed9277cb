import Foundation
import GoogleMaps
import Testing

@testable import LinuxUIKit
@testable import map_screens_example

/// The catalogue of map screens (Examples/MapScreens) run headless and driven only by scripted touches: a tap on a
/// table row pushes its screen and the screen's map draws; a bar button presents an alert; an alert action runs its
/// handler, dismisses the alert and changes the map as it says; a control changes the map; Back pops to the list.
@MainActor @Suite(.serialized) struct MapScreensExampleTests {
    /// The launched app: its host, navigation controller and list.
    struct App {
        let host: UIHeadlessHost
        let navigation: UINavigationController
        let list: ScreenListViewController
    }

    func launch() throws -> App {
        let app = AppDelegate()
        let host = launchHeadless(app)
        let navigation = try #require(app.window?.rootViewController as? UINavigationController)
        let list = try #require(navigation.topViewController as? ScreenListViewController)
        #expect(host.runUntilIdle())
        return App(host: host, navigation: navigation, list: list)
    }

    /// The centre of `view`'s bounds in window coordinates.
    func centre(of view: UIView) -> CGPoint {
        let frame = view.convert(view.bounds, to: nil)
        return CGPoint(x: frame.midX, y: frame.midY)
    }

    /// Taps row `row` of the list and waits for the push to finish.
    func open(row: Int, in app: App) {
        let table = app.list.tableView
        let rect = table.convert(table.rectForRow(at: IndexPath(row: row, section: 0)), to: nil)
        app.host.tap(at: CGPoint(x: rect.midX, y: rect.midY))
        #expect(app.host.runUntilIdle())
    }

    /// Taps the navigation bar's button for `title` (a bar button item's title or system item).
    func tapBarButton(_ match: (UIBarButtonItem) -> Bool, in app: App) throws {
        let bar = app.navigation.navigationBar
        bar.layoutIfNeeded()
        let button = try #require(bar.buttonViews.first { $0.item.map(match) ?? false })
        app.host.tap(at: centre(of: button))
        app.host.runUntilIdle()
    }

    /// Taps `action`'s button in the presented alert and waits for the dismissal (and the map) to settle.
    func tapAlertAction(titled title: String, in alert: UIAlertController, app: App) throws {
        let action = try #require(alert.actions.first { $0.title == title })
        let frame = try #require(alert.buttonFrame(for: action))
        app.host.tap(at: CGPoint(x: frame.midX, y: frame.midY))
        #expect(app.host.runUntilIdle())
    }

    /// Taps Back and waits for the pop.
    func tapBack(in app: App) throws {
        let back = try #require(app.navigation.navigationBar.backButtonView)
        app.host.tap(at: centre(of: back))
        #expect(app.host.runUntilIdle())
    }

    /// Distinct colours in `view`'s frame of the current frame (every fourth pixel, 8 points in from the edges).
    func colourCount(of view: UIView, in host: UIHeadlessHost) -> Int {
        let image = host.snapshot()
        let frame = view.convert(view.bounds, to: nil).insetBy(dx: 8, dy: 8)
        var seen = Set<Int>()
        for y in stride(from: Int(frame.minY), to: Int(frame.maxY), by: 4) {
            for x in stride(from: Int(frame.minX), to: Int(frame.maxX), by: 4) {
                var r: CGFloat = 0
                var g: CGFloat = 0
                var b: CGFloat = 0
                var a: CGFloat = 0
                image.pixelColor(x: x, y: y)?.getRed(&r, green: &g, blue: &b, alpha: &a)
                seen.insert(Int(r * 255) << 16 | Int(g * 255) << 8 | Int(b * 255))
            }
        }
        return seen.count
    }

    @Test func theListShowsEveryScreen() throws {
        let app = try launch()
        #expect(app.navigation.topViewController?.title == "Map screens")
        #expect(app.list.tableView.numberOfRows(inSection: 0) == 4)
        let titles = (0..<4).map { row in
            (app.list.tableView.cellForRow(at: IndexPath(row: row, section: 0))?.contentConfiguration
                as? UIListContentConfiguration)?.text
        }
        #expect(titles == ["Markers & alert", "Styles", "Camera", "Search & card"])
        app.host.terminate()
    }

    @Test func markersScreenDropsHidesAndClearsMarkers() throws {
        let app = try launch()
        open(row: 0, in: app)
        let screen = try #require(app.navigation.topViewController as? MarkersViewController)
        #expect(screen.title == "Markers & alert")
        #expect(app.navigation.viewControllers.count == 2)
        #expect(screen.mapView.window != nil)
        let mapFrame = screen.mapView.convert(screen.mapView.bounds, to: nil)
        #expect(mapFrame.minY == UINavigationBar.height, "the map starts under the bar: \(mapFrame)")
        #expect(mapFrame.width == 800)
        #expect(colourCount(of: screen.mapView, in: app.host) > 8, "the map draws")
        #expect(screen.markerCount == 5)

        try tapBarButton({ $0.systemItem == .add }, in: app)
        #expect(screen.markerCount == 6)
        let pin = try #require(screen.droppedMarkers.first)
        #expect(abs(pin.position.latitude - screen.mapView.camera.target.latitude) < 1e-9)

        // The switch hides the five places.
        app.host.tap(at: centre(of: screen.placesSwitch))
        #expect(app.host.runUntilIdle())
        #expect(!screen.placesSwitch.isOn)
        #expect(screen.markerCount == 1)
        #expect(screen.countLabel.text == "1 marker")
        app.host.tap(at: centre(of: screen.placesSwitch))
        #expect(app.host.runUntilIdle())
        #expect(screen.markerCount == 6)

        // "Clear" asks; "Cancel" keeps the markers, "Remove" clears the map and turns the switch off.
        try tapBarButton({ $0.title == "Clear" }, in: app)
        var alert = try #require(screen.presentedViewController as? UIAlertController)
        #expect(alert.title == "Remove all markers?")
        try tapAlertAction(titled: "Cancel", in: alert, app: app)
        #expect(screen.presentedViewController == nil)
        #expect(screen.markerCount == 6)
        try tapBarButton({ $0.title == "Clear" }, in: app)
        alert = try #require(screen.presentedViewController as? UIAlertController)
        try tapAlertAction(titled: "Remove", in: alert, app: app)
        #expect(screen.presentedViewController == nil)
        #expect(alert.view.superview == nil)
        #expect(screen.markerCount == 0)
        #expect(screen.droppedMarkers.isEmpty)
        #expect(!screen.placesSwitch.isOn)

        try tapBack(in: app)
        #expect(app.navigation.viewControllers.count == 1)
        #expect(app.navigation.topViewController?.title == "Map screens")
        #expect(screen.mapView.window == nil)
        app.host.terminate()
    }

    @Test func stylesScreenSwitchesDarkAndMapTypeAndResets() throws {
        let app = try launch()
        open(row: 1, in: app)
        let screen = try #require(app.navigation.topViewController as? StylesViewController)
        #expect(screen.title == "Styles")
        #expect(screen.mapView.traitCollection.userInterfaceStyle == .light)
        let light = colourCount(of: screen.mapView, in: app.host)
        #expect(light > 8, "the map draws")
        let lightImage = app.host.snapshot().pngData()

        // The "Dark" segment turns the screen, and the map in it, dark.
        let control = screen.styleControl.convert(screen.styleControl.bounds, to: nil)
        app.host.tap(at: CGPoint(x: control.minX + control.width * 0.75, y: control.midY))
        #expect(app.host.runUntilIdle())
        #expect(screen.styleControl.selectedSegmentIndex == 1)
        #expect(screen.overrideUserInterfaceStyle == .dark)
        #expect(screen.mapView.traitCollection.userInterfaceStyle == .dark)
        #expect(app.host.snapshot().pngData() != lightImage, "the map redraws dark")

        // The "Type" menu chooses no basemap.
        try tapBarButton({ $0.title == "Type" }, in: app)
        let menu = try #require(MenuOverlayView.current)
        #expect(menu.rows.map(\.action.title) == ["Normal", "No basemap"])
        let none = try #require(menu.rowFrame(for: menu.rows[1].action))
        app.host.tap(at: CGPoint(x: none.midX, y: none.midY))
        #expect(app.host.runUntilIdle())
        #expect(screen.mapView.mapType == .none)

        // "Reset" asks; "Reset" goes back to light and the normal map type.
        try tapBarButton({ $0.title == "Reset" }, in: app)
        let alert = try #require(screen.presentedViewController as? UIAlertController)
        #expect(alert.title == "Reset the map?")
        try tapAlertAction(titled: "Reset", in: alert, app: app)
        #expect(screen.presentedViewController == nil)
        #expect(screen.mapView.mapType == .normal)
        #expect(screen.styleControl.selectedSegmentIndex == 0)
        #expect(screen.mapView.traitCollection.userInterfaceStyle == .light)

        try tapBack(in: app)
        #expect(app.navigation.topViewController?.title == "Map screens")
        app.host.terminate()
    }

    @Test func cameraScreenZoomsTurnsAndFlies() throws {
        let app = try launch()
        open(row: 2, in: app)
        let screen = try #require(app.navigation.topViewController as? CameraViewController)
        #expect(screen.title == "Camera")
        #expect(colourCount(of: screen.mapView, in: app.host) > 8, "the map draws")
        #expect(screen.mapView.camera.zoom == 14)
        #expect(screen.zoomSlider.value == 14)

        // Dragging the slider's thumb (at its middle: 14 of 10–18) past its right end zooms to 18.
        let slider = screen.zoomSlider.convert(screen.zoomSlider.bounds, to: nil)
        app.host.drag(
            from: CGPoint(x: slider.midX, y: slider.midY), to: CGPoint(x: slider.maxX + 40, y: slider.midY))
        #expect(app.host.runUntilIdle())
        #expect(screen.zoomSlider.value == 18)
        #expect(screen.mapView.camera.zoom == 18)
        #expect(screen.zoomLabel.text == "Zoom 18.0")

        // The stepper's plus side turns the map 30°.
        let stepper = screen.bearingStepper.convert(screen.bearingStepper.bounds, to: nil)
        app.host.tap(at: CGPoint(x: stepper.minX + stepper.width * 0.75, y: stepper.midY))
        #expect(app.host.runUntilIdle())
        #expect(screen.bearingStepper.value == 30)
        #expect(abs(screen.mapView.camera.bearing - 30) < 1e-6)

        // "Go to" opens an action sheet; a place flies the camera there.
        try tapBarButton({ $0.title == "Go to" }, in: app)
        let sheet = try #require(screen.presentedViewController as? UIAlertController)
        #expect(sheet.preferredStyle == .actionSheet)
        #expect(sheet.actions.map(\.title) == ["Senate Square", "Kaivopuisto", "Töölö Bay", "Cancel"])
        try tapAlertAction(titled: "Kaivopuisto", in: sheet, app: app)
        #expect(screen.presentedViewController == nil)
        let target = CameraViewController.places[1].position
        #expect(abs(screen.mapView.camera.target.latitude - target.latitude) < 1e-6)
        #expect(abs(screen.mapView.camera.target.longitude - target.longitude) < 1e-6)
        #expect(screen.mapView.camera.zoom == 16)
        #expect(screen.zoomSlider.value == 16, "the delegate moved the slider")

        try tapBack(in: app)
        #expect(app.navigation.viewControllers.count == 1)
        app.host.terminate()
    }

    @Test func placesScreenSearchesAndShowsACardOverTheMap() throws {
        let app = try launch()
        var opened: [URL] = []
        URLOpening.opener = { url in
            opened.append(url)
            return true
        }
        defer { URLOpening.opener = nil }
        open(row: 3, in: app)
        let screen = try #require(app.navigation.topViewController as? PlacesViewController)
        #expect(colourCount(of: screen.mapView, in: app.host) > 8, "the map draws")
        #expect(screen.chipLabel.text == "5 places")
        let bar = screen.searchController.searchBar
        #expect(bar.convert(bar.bounds, to: nil).minY == 44)

        // Typing into the search bar filters the markers and lists the matches.
        let field = bar.searchTextField.convert(bar.searchTextField.bounds, to: nil)
        app.host.tap(at: CGPoint(x: field.midX, y: field.midY))
        #expect(screen.searchController.isActive)
        app.host.type("square")
        #expect(app.host.runUntilIdle())
        #expect(screen.results.matches == [1, 2])
        #expect(screen.chipLabel.text == "2 places")
        #expect(screen.markers.filter { $0.map != nil }.count == 2)

        // Choosing "Market Square" ends the search, flies there and shows its card at the medium detent.
        let table = try #require(screen.results.tableView)
        let row = table.convert(table.rectForRow(at: IndexPath(row: 1, section: 0)), to: nil)
        app.host.tap(at: CGPoint(x: row.midX, y: row.midY))
        #expect(app.host.runUntilIdle())
        #expect(!screen.searchController.isActive)
        let card = try #require(screen.presentedViewController as? PlaceCardViewController)
        #expect(card.nameLabel.text == "Market Square")
        #expect(card.sheetPresentationController?.selectedDetentIdentifier == nil)
        let cardFrame = card.view.convert(card.view.bounds, to: nil)
        #expect(abs(cardFrame.minY - (600 - 590 / 2)) < 0.01)
        #expect(screen.mapView.camera.zoom == 16)

        // The map above the undimmed card still takes touches: a drag pans it.
        let before = screen.mapView.camera.target
        app.host.drag(from: CGPoint(x: 400, y: 200), to: CGPoint(x: 300, y: 200))
        #expect(app.host.runUntilIdle())
        #expect(screen.mapView.camera.target.longitude > before.longitude)
        #expect(screen.presentedViewController === card)

        // "Directions" hands Google Maps' URL to the desktop.
        let button = card.directions.convert(card.directions.bounds, to: nil)
        app.host.tap(at: CGPoint(x: button.midX, y: button.midY))
        #expect(app.host.runUntilIdle())
        #expect(card.directionsOpened == true)
        #expect(
            opened.first?.absoluteString.hasPrefix("https://www.google.com/maps/dir/?api=1&destination=60.1675") == true
        )

        // Back dismisses the card with the screen: nothing stays over the list.
        try tapBack(in: app)
        #expect(app.navigation.topViewController === app.list)
        #expect(screen.presentedViewController == nil)
        #expect(card.viewIfLoaded?.window == nil)
        app.host.terminate()
    }
}
