import Foundation
import Testing
import WaymarkTime

@testable import LinuxUIKit

/// The UIKit a map screen's chrome uses beyond controls (issue 30): the navigation bar's title animation, sheets as
/// cards with detents, search controllers under the navigation bar, blur effect views, opening URLs and iOS's exact
/// light system colours — driven headless with scripted touches and typing.
@MainActor @Suite(.serialized) struct SheetSearchBlurTests {
    private func makeHost(_ root: UIViewController, height: CGFloat = 480) -> UIHeadlessHost {
        _ = installManualClock()
        UIApplication.shared.resetForNextRun()
        UIScreen.main.userInterfaceStyle = .unspecified
        let host = UIHeadlessHost(rootViewController: root, size: CGSize(width: 320, height: height))
        host.runUntilIdle()
        return host
    }

    /// The navigation bar's direct `UILabel` subviews (the title and, during a transition, the leaving title) by
    /// text.
    private func barLabels(_ navigation: UINavigationController) -> [String: UILabel] {
        var labels: [String: UILabel] = [:]
        for case let label as UILabel in navigation.navigationBar.subviews {
            if let text = label.text { labels[text] = label }
        }
        return labels
    }

    // MARK: Navigation bar title animation

    @Test func pushSlidesAndCrossFadesTheTitles() throws {
        let a = UIViewController()
        a.title = "Helsinki"
        let navigation = UINavigationController(rootViewController: a)
        let host = makeHost(navigation)
        let startX = try #require(barLabels(navigation)["Helsinki"]).layer.position.x
        let b = UIViewController()
        b.title = "Kamppi"
        navigation.pushViewController(b, animated: true)
        host.advance(by: UINavigationController.transitionDuration / 2)
        let labels = barLabels(navigation)
        let leaving = try #require(labels["Helsinki"])
        let arriving = try #require(labels["Kamppi"])
        let leavingNow = try #require(leaving.layer.presentation())
        let arrivingNow = try #require(arriving.layer.presentation())
        #expect(leavingNow.opacity > 0.1 && leavingNow.opacity < 0.9)
        #expect(arrivingNow.opacity > 0.1 && arrivingNow.opacity < 0.9)
        #expect(leavingNow.position.x < startX - 10)  // sliding left, towards the back button
        #expect(arrivingNow.position.x > arriving.layer.position.x + 10)  // coming in from the right
        // The back button fades in with the new title.
        let back = try #require(navigation.navigationBar.backButtonView?.layer.presentation())
        #expect(back.opacity > 0.1 && back.opacity < 0.9)
        host.runUntilIdle()
        #expect(Set(barLabels(navigation).keys) == ["Kamppi"])
        #expect(barLabels(navigation)["Kamppi"]?.layer.presentation()?.opacity == 1)
    }

    @Test func popSlidesTheTitleBackFromTheLeft() throws {
        let a = UIViewController()
        a.title = "Helsinki"
        let b = UIViewController()
        b.title = "Kamppi"
        let navigation = UINavigationController(rootViewController: a)
        let host = makeHost(navigation)
        navigation.pushViewController(b, animated: false)
        host.runUntilIdle()
        let kamppiX = try #require(barLabels(navigation)["Kamppi"]).layer.position.x
        navigation.popViewController(animated: true)
        host.advance(by: UINavigationController.transitionDuration / 2)
        let labels = barLabels(navigation)
        let leaving = try #require(labels["Kamppi"]?.layer.presentation())
        let arriving = try #require(labels["Helsinki"])
        #expect(leaving.position.x > kamppiX + 10)  // the popped title leaves to the right
        let arrivingNow = try #require(arriving.layer.presentation())
        #expect(arrivingNow.position.x < arriving.layer.position.x - 10)  // the old title returns from the left
        host.runUntilIdle()
        #expect(Set(barLabels(navigation).keys) == ["Helsinki"])
    }

    // MARK: Sheets

    /// A presenter with a button in its top half that counts taps.
    final class Presenter: UIViewController {
        var taps = 0
        let button = UIButton(type: .system)
        override func viewDidLoad() {
            view.backgroundColor = UIColor(red: 0.2, green: 0.6, blue: 0.3, alpha: 1)
            button.setTitle("Tap", for: .normal)
            button.frame = CGRect(x: 100, y: 60, width: 120, height: 44)
            button.addAction(UIAction { [weak self] _ in self?.taps += 1 }, for: .touchUpInside)
            view.addSubview(button)
        }
    }

    final class DetentLog: UISheetPresentationControllerDelegate {
        var changes = 0
        func sheetPresentationControllerDidChangeSelectedDetentIdentifier(
            _ sheetPresentationController: UISheetPresentationController
        ) { changes += 1 }
    }

    @Test func defaultPresentationIsALargeSheetOverAShrunkPresenter() throws {
        let root = Presenter()
        let host = makeHost(root)
        let sheet = UIViewController()
        sheet.view.backgroundColor = .systemBackground
        #expect(sheet.modalPresentationStyle == .automatic)
        let controller = try #require(sheet.sheetPresentationController)
        #expect(controller.detents.map(\.identifier) == [.large])
        root.present(sheet, animated: true)
        host.advance(by: 0.1)
        let midway = try #require(sheet.view.superview?.layer.presentation()).position.y
        host.runUntilIdle()
        let frame = sheet.view.convert(sheet.view.bounds, to: nil)
        #expect(frame == CGRect(x: 0, y: 10, width: 320, height: 470))
        #expect(midway > sheet.view.superview!.layer.position.y + 20)  // it slid up from the bottom edge
        #expect(controller.containerView?.superview === host.window)
        #expect(sheet.presentingViewController === root)
        // The presenter shrinks 16 points in from each side and is dimmed; its corners are rounded.
        let shrunk = root.view.frame
        #expect(abs(shrunk.minX - 16) < 0.01 && abs(shrunk.width - 288) < 0.01)
        #expect(root.view.layer.cornerRadius == 10)
        // Tapping the dimmed presenter above the card dismisses the sheet.
        host.tap(at: CGPoint(x: 160, y: 5))
        host.runUntilIdle()
        #expect(root.presentedViewController == nil)
        #expect(sheet.view.window == nil)
        #expect(root.view.transform == .identity)
        #expect(root.view.frame == host.window.bounds)
        #expect(root.view.layer.cornerRadius == 0)
        #expect(root.taps == 0)
    }

    @Test func fullScreenStillCoversTheWindow() {
        let root = Presenter()
        let host = makeHost(root)
        let modal = UIViewController()
        modal.modalPresentationStyle = .fullScreen
        #expect(modal.sheetPresentationController == nil)
        root.present(modal, animated: true)
        host.runUntilIdle()
        #expect(modal.view.convert(modal.view.bounds, to: nil) == host.window.bounds)
        #expect(root.view.transform == .identity)
    }

    @Test func mediumUndimmedSheetLeavesThePresenterInteractive() throws {
        let root = Presenter()
        let host = makeHost(root)
        let card = UIViewController()
        card.view.backgroundColor = .systemBackground
        let sheet = try #require(card.sheetPresentationController)
        let log = DetentLog()
        sheet.delegate = log
        sheet.detents = [.medium(), .large()]
        sheet.largestUndimmedDetentIdentifier = .medium
        sheet.prefersGrabberVisible = true
        sheet.preferredCornerRadius = 16
        root.present(card, animated: true)
        host.runUntilIdle()
        // Medium: half of the 470-point large detent, at the bottom edge.
        #expect(card.view.convert(card.view.bounds, to: nil) == CGRect(x: 0, y: 245, width: 320, height: 235))
        #expect(root.view.transform == .identity)
        #expect(!sheet.isDimmed)
        // The presenter's button above the card takes the tap; the sheet stays.
        host.tap(at: CGPoint(x: 160, y: 82))
        host.runUntilIdle()
        #expect(root.taps == 1)
        #expect(root.presentedViewController === card)
        // The picture: presenter undimmed above the card, rounded top corners, the grabber.
        let image = host.snapshot()
        #expect(pixelMatches(pixel(image, 20, 200), 51, 153, 77, 255, tolerance: 3))  // presenter, not dimmed
        #expect(pixelMatches(pixel(image, 1, 246), 51, 153, 77, 255, tolerance: 6))  // outside the rounded corner
        #expect(pixelMatches(pixel(image, 40, 300), 255, 255, 255, 255))  // the card
        let grabber = pixel(image, 160, 252)
        #expect(grabber.r < 220 && grabber.r > 150)
        // Dragging the card up settles on the large detent; the presenter then dims and shrinks.
        host.drag(from: CGPoint(x: 160, y: 300), to: CGPoint(x: 160, y: 60))
        host.runUntilIdle()
        #expect(sheet.selectedDetentIdentifier == .large)
        #expect(log.changes == 1)
        #expect(card.view.convert(card.view.bounds, to: nil).minY == 10)
        #expect(sheet.isDimmed)
        #expect(root.view.transform != .identity)
        // Changing the detent in code animates back to medium without telling the delegate.
        sheet.animateChanges { sheet.selectedDetentIdentifier = .medium }
        host.runUntilIdle()
        #expect(card.view.convert(card.view.bounds, to: nil).minY == 245)
        #expect(root.view.transform == .identity)
        #expect(root.view.layer.cornerRadius == 0)
        #expect(log.changes == 1)
        // Dragging it far down dismisses it.
        host.drag(from: CGPoint(x: 160, y: 260), to: CGPoint(x: 160, y: 470))
        host.runUntilIdle()
        #expect(root.presentedViewController == nil)
    }

    @Test func modalInPresentationRefusesTheDimmingTap() {
        let root = Presenter()
        let host = makeHost(root)
        let sheet = UIViewController()
        sheet.isModalInPresentation = true
        root.present(sheet, animated: false)
        host.runUntilIdle()
        host.tap(at: CGPoint(x: 160, y: 5))
        host.runUntilIdle()
        #expect(root.presentedViewController === sheet)
    }

    // MARK: Search

    final class SearchLog: UISearchResultsUpdating, UISearchBarDelegate {
        var updates: [String] = []
        var events: [String] = []
        func updateSearchResults(for searchController: UISearchController) {
            updates.append(
                "\(searchController.isActive ? "active" : "inactive") \(searchController.searchBar.text ?? "")")
        }
        func searchBar(_ searchBar: UISearchBar, textDidChange searchText: String) {
            events.append("change \(searchText)")
        }
        func searchBarSearchButtonClicked(_ searchBar: UISearchBar) { events.append("search \(searchBar.text ?? "")") }
        func searchBarCancelButtonClicked(_ searchBar: UISearchBar) { events.append("cancel") }
    }

    @Test func searchControllerUnderTheNavigationBar() throws {
        let screen = UIViewController()
        screen.title = "Places"
        screen.view.backgroundColor = .systemBackground
        let results = UIViewController()
        results.view.backgroundColor = .systemGroupedBackground
        let search = UISearchController(searchResultsController: results)
        let log = SearchLog()
        search.searchResultsUpdater = log
        search.searchBar.delegate = log
        search.searchBar.placeholder = "Search places"
        #expect(search.obscuresBackgroundDuringPresentation)
        #expect(screen.navigationItem.hidesSearchBarWhenScrolling)
        screen.navigationItem.searchController = search
        let navigation = UINavigationController(rootViewController: screen)
        let host = makeHost(navigation)
        let bar = search.searchBar
        #expect(bar.convert(bar.bounds, to: nil) == CGRect(x: 0, y: 44, width: 320, height: 52))
        #expect(screen.view.convert(CGPoint.zero, to: nil) == CGPoint(x: 0, y: 96))
        #expect(!search.isActive)
        // A tap on the field starts the search: the Cancel button shows, the content is dimmed.
        let field = bar.searchTextField.convert(bar.searchTextField.bounds, to: nil)
        host.tap(at: CGPoint(x: field.midX, y: field.midY))
        host.runUntilIdle()
        #expect(search.isActive)
        #expect(bar.isFirstResponder)
        #expect(bar.showsCancelButton)
        #expect(log.updates == ["active "])
        #expect(search.view.window === host.window)
        #expect(results.view.isHidden)  // nothing typed yet: the dimmed content shows
        #expect(host.snapshot().pixelColor(x: 160, y: 300).map { $0.rgba.red < 0.9 } == true)
        // Typing drives the delegate and the updater; the results show once there is text.
        host.type("Kam")
        #expect(log.events == ["change K", "change Ka", "change Kam"])
        #expect(log.updates == ["active ", "active K", "active Ka", "active Kam"])
        #expect(!results.view.isHidden)
        #expect(results.view.convert(results.view.bounds, to: nil) == CGRect(x: 0, y: 96, width: 320, height: 384))
        host.type("\n")
        #expect(log.events.last == "search Kam")
        // Cancel ends the search and clears the text.
        let cancel = try #require(bar.cancelButtonFrame)
        let cancelInWindow = bar.convert(cancel, to: nil)
        host.tap(at: CGPoint(x: cancelInWindow.midX, y: cancelInWindow.midY))
        host.runUntilIdle()
        #expect(log.events.last == "cancel")
        #expect(!search.isActive)
        #expect(bar.text == "")
        #expect(!bar.isFirstResponder)
        #expect(!bar.showsCancelButton)
        #expect(log.updates.last == "inactive ")
        #expect(search.viewIfLoaded?.window == nil)
    }

    @Test func tappingTheDimmedContentEndsTheSearch() {
        let screen = UIViewController()
        let search = UISearchController(searchResultsController: nil)
        screen.navigationItem.searchController = search
        let navigation = UINavigationController(rootViewController: screen)
        let host = makeHost(navigation)
        search.isActive = true
        host.runUntilIdle()
        #expect(search.view.window != nil)
        host.tap(at: CGPoint(x: 160, y: 300))
        host.runUntilIdle()
        #expect(!search.isActive)
        // Without obscuring, touches reach the content while the search is active.
        search.obscuresBackgroundDuringPresentation = false
        search.isActive = true
        host.runUntilIdle()
        let hit = host.window.hitTest(CGPoint(x: 160, y: 300), with: nil)
        #expect(hit === screen.view)
    }

    @Test func dismissingTheResultsControllerEndsTheSearch() {
        let screen = UIViewController()
        let results = UIViewController()
        let search = UISearchController(searchResultsController: results)
        screen.navigationItem.searchController = search
        let navigation = UINavigationController(rootViewController: screen)
        let host = makeHost(navigation)
        search.isActive = true
        host.runUntilIdle()
        #expect(search.searchBar.showsCancelButton)
        #expect(search.view.window != nil)
        // What a results table's didSelectRowAt calls on iOS.
        var completed = 0
        results.dismiss(animated: true) { completed += 1 }
        host.runUntilIdle()
        #expect(!search.isActive)
        #expect(!search.searchBar.showsCancelButton)
        #expect(search.view.window == nil)
        #expect(completed == 1)
        // The content under the bar takes touches again.
        #expect(host.window.hitTest(CGPoint(x: 160, y: 300), with: nil) === screen.view)
        // On the search controller itself too; on an inactive search nothing happens.
        search.isActive = true
        search.dismiss(animated: false)
        #expect(!search.isActive)
        search.dismiss(animated: false) { completed += 1 }
        #expect(completed == 1)
    }

    @Test func segmentedTitleViewIsSizedToItsTitles() {
        let screen = UIViewController()
        let control = UISegmentedControl(items: ["Normal", "Satellite"])
        control.insertSegment(withTitle: "Hybrid", at: 2, animated: false)
        control.frame.size.width = 120  // too narrow for three titles
        screen.navigationItem.titleView = control
        let navigation = UINavigationController(rootViewController: screen)
        let host = makeHost(navigation)
        host.runUntilIdle()
        navigation.navigationBar.layoutIfNeeded()
        let natural = control.intrinsicContentSize
        #expect(natural.width > 120)
        #expect(control.frame.width == natural.width)
        #expect(control.frame.height == natural.height)
        #expect(abs(control.frame.midX - 160) < 0.5)
        // Each segment is at least as wide as its title drawn selected (semibold).
        let segment = control.frame.width / 3
        for title in ["Normal", "Satellite", "Hybrid"] {
            let width = title.size(withAttributes: [.font: UIFont.systemFont(ofSize: 13, weight: .semibold)]).width
            #expect(segment >= width)
        }
    }

    // MARK: Blur

    /// A view whose left half is red and right half blue, with an effect view across the middle.
    private func blurScene(_ style: UIBlurEffect.Style, dark: Bool = false) -> (UIImage, UIImage) {
        _ = installManualClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        root.backgroundColor = .white
        let red = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        red.backgroundColor = .red
        let blue = UIView(frame: CGRect(x: 100, y: 0, width: 100, height: 100))
        blue.backgroundColor = .blue
        root.addSubview(red)
        root.addSubview(blue)
        let plain = root.renderImage(scale: 1)
        let effect = UIVisualEffectView(effect: UIBlurEffect(style: style))
        effect.frame = CGRect(x: 40, y: 20, width: 120, height: 60)
        root.addSubview(effect)
        let label = UILabel(frame: effect.bounds)
        label.text = "Kamppi"
        effect.contentView.addSubview(label)
        if dark { root.overrideUserInterfaceStyle = .dark }
        return (plain, root.renderImage(scale: 1))
    }

    @Test func blurMixesWhatIsBehind() {
        let (plain, blurred) = blurScene(.light)
        // Without the effect the edge between red and blue is sharp.
        #expect(pixelMatches(pixel(plain, 98, 26), 255, 0, 0, 255))
        #expect(pixelMatches(pixel(plain, 101, 26), 0, 0, 255, 255))
        // With it, both sides of the edge mix red and blue (under the light tint, white at 30 %).
        let left = pixel(blurred, 98, 26)  // above the label's text
        let right = pixel(blurred, 101, 26)
        #expect(left.r > 100 && left.b > 100)
        #expect(right.r > 100 && right.b > 100)
        #expect(abs(left.r - right.r) < 40)
        // Outside the effect view nothing changes.
        #expect(pixelMatches(pixel(blurred, 20, 10), 255, 0, 0, 255))
        // Far from the edge inside the view, red stays mostly red.
        let inside = pixel(blurred, 45, 26)
        #expect(inside.r > inside.b + 60)
    }

    @Test func materialTintFollowsTheAppearance() {
        let (_, light) = blurScene(.systemMaterial)
        let (_, dark) = blurScene(.systemMaterial, dark: true)
        let (_, forcedDark) = blurScene(.systemMaterialDark)
        let l = pixel(light, 45, 25)
        let d = pixel(dark, 45, 25)
        let f = pixel(forcedDark, 45, 25)
        #expect(l.g > 150)  // mostly the light tint over red
        #expect(d.g < 40)  // mostly the dark tint
        #expect(abs(f.g - d.g) <= 2)
        #expect(UIBlurEffect(style: .dark).tint(for: .light) == UIBlurEffect(style: .dark).tint(for: .dark))
    }

    // MARK: Opening URLs

    @Test func openHandsOnURLsAndCompletesOnTheMainActor() throws {
        let host = makeHost(UIViewController())
        var opened: [URL] = []
        URLOpening.opener = { url in
            opened.append(url)
            return true
        }
        defer { URLOpening.opener = nil }
        let app = UIApplication.shared
        let web = try #require(URL(string: "https://maps.google.com/?q=Helsinki"))
        let phone = try #require(URL(string: "tel:+358401234567"))
        let unknown = try #require(URL(string: "comgooglemaps://?q=Helsinki"))
        #expect(app.canOpenURL(web))
        #expect(app.canOpenURL(phone))
        #expect(app.canOpenURL(try #require(URL(string: "MAILTO:someone@example.com"))))
        #expect(!app.canOpenURL(unknown))
        var results: [Bool] = []
        app.open(web) { results.append($0) }
        app.open(unknown, options: [:]) { results.append($0) }
        #expect(results.isEmpty)  // never inside the call
        host.advance(by: 0.05)
        #expect(results == [true, false])
        #expect(opened == [web])
        // Headless (no display): one log line, reported as opened.
        #expect(URLOpening.handOn(web, environment: [:]))
        #expect(URLOpening.handOn(web, environment: ["DISPLAY": ":99", "PATH": "/nonexistent"]))
    }

    @Test func settingsURLIsRefusedOnLinux() throws {
        let host = makeHost(UIViewController())
        var opened: [URL] = []
        URLOpening.opener = { url in
            opened.append(url)
            return true
        }
        defer { URLOpening.opener = nil }
        #expect(UIApplication.openSettingsURLString == "app-settings:")
        let settings = try #require(URL(string: UIApplication.openSettingsURLString))
        #expect(!UIApplication.shared.canOpenURL(settings))
        var results: [Bool] = []
        UIApplication.shared.open(settings) { results.append($0) }
        host.advance(by: 0.05)
        #expect(results == [false])
        #expect(opened.isEmpty)
    }

    // MARK: iOS's light system colours

    @Test func lightFillsUseIOSSystemColours() {
        _ = installManualClock()
        let table = UITableView(frame: CGRect(x: 0, y: 0, width: 100, height: 100), style: .grouped)
        let image = table.renderImage(scale: 1)
        #expect(pixelMatches(pixel(image, 50, 5), 0xF2, 0xF2, 0xF7, 255, tolerance: 1))  // systemGroupedBackground
        let toggle = UISwitch()
        toggle.frame.origin = .zero
        let holder = UIView(frame: CGRect(x: 0, y: 0, width: 60, height: 40))
        holder.backgroundColor = .white
        holder.addSubview(toggle)
        let track = pixel(holder.renderImage(scale: 1), 40, 15)
        // secondarySystemFill (#787880 at 16 %) over white: (233, 233, 235).
        #expect(pixelMatches(track, 233, 233, 235, 255, tolerance: 2))
        let cell = UITableViewCell(style: .value1, reuseIdentifier: nil)
        #expect(cell.detailTextLabel?.textColor == .secondaryLabel)
        #expect(UITextField.placeholderColor == .placeholderText)
    }
}
