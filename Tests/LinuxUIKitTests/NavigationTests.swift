import Foundation
import Testing
import WaymarkTime

@testable import LinuxUIKit

/// Navigation and presentation as UIKit's, on the headless host: the navigation stack and its appearance callbacks,
/// push and pop animated on the host clock, the bar's title, back button and bar button items driven by scripted
/// taps, menus, modal presentation and dismissal, alerts and action sheets.
@MainActor @Suite(.serialized) struct NavigationTests {
    final class Log {
        var entries: [String] = []
    }

    final class Screen: UIViewController {
        var log: Log?
        var name = ""
        convenience init(_ name: String, log: Log? = nil) {
            self.init(nibName: nil, bundle: nil)
            self.name = name
            self.log = log
            title = name
        }
        override func viewWillAppear(_ animated: Bool) { log?.entries.append("\(name) willAppear \(animated)") }
        override func viewDidAppear(_ animated: Bool) { log?.entries.append("\(name) didAppear \(animated)") }
        override func viewWillDisappear(_ animated: Bool) { log?.entries.append("\(name) willDisappear \(animated)") }
        override func viewDidDisappear(_ animated: Bool) { log?.entries.append("\(name) didDisappear \(animated)") }
        override func didMove(toParent parent: UIViewController?) {
            log?.entries.append("\(name) didMove \(parent == nil ? "nil" : "parent")")
        }
    }

    private func makeHost(_ root: UIViewController) -> UIHeadlessHost {
        _ = installManualClock()
        UIApplication.shared.resetForNextRun()
        let host = UIHeadlessHost(rootViewController: root, size: CGSize(width: 320, height: 480))
        host.runUntilIdle()
        return host
    }

    @Test func stackPushPopAndCallbacks() {
        let log = Log()
        let a = Screen("A", log: log)
        let navigation = UINavigationController(rootViewController: a)
        #expect(a.navigationController === navigation)
        #expect(a.parent === navigation)
        let host = makeHost(navigation)
        #expect(log.entries == ["A didMove parent", "A willAppear false", "A didAppear false"])
        #expect(a.view.frame == CGRect(x: 0, y: 44, width: 320, height: 436).offsetBy(dx: 0, dy: -44))
        #expect(a.view.convert(CGPoint.zero, to: nil) == CGPoint(x: 0, y: 44))
        log.entries = []
        let b = Screen("B", log: log)
        navigation.pushViewController(b, animated: true)
        #expect(navigation.viewControllers == [a, b])
        #expect(navigation.topViewController === b)
        #expect(navigation.children == [a, b])
        #expect(log.entries == ["A willDisappear true", "B willAppear true"])
        #expect(b.view.frame.minX == 0)  // the model frame is final at once; the layer presents the slide
        host.advance(by: UINavigationController.transitionDuration / 2)
        let midX = b.view.layer.presentation()?.position.x ?? -1
        #expect(midX > 160)
        #expect(midX < 480)
        #expect(navigation.isTransitioning)
        host.runUntilIdle()
        #expect(!navigation.isTransitioning)
        #expect(a.view.superview == nil)
        #expect(b.view.frame.minX == 0)
        #expect(
            log.entries == [
                "A willDisappear true", "B willAppear true", "A didDisappear true", "B didAppear true",
                "B didMove parent",
            ])
        log.entries = []
        let popped = navigation.popViewController(animated: false)
        #expect(popped === b)
        #expect(navigation.viewControllers == [a])
        #expect(b.parent == nil)
        #expect(b.navigationController == nil)
        #expect(
            log.entries == [
                "B willDisappear false", "A willAppear false", "B didDisappear false",
                "A didAppear false", "B didMove nil",
            ])
        #expect(navigation.popViewController(animated: true) == nil)
    }

    @Test func barShowsTitleBackButtonAndItemsAndTapsRunThem() {
        let a = Screen("Places")
        let navigation = UINavigationController(rootViewController: a)
        var taps: [String] = []
        a.navigationItem.rightBarButtonItem = UIBarButtonItem(
            title: "Add", primaryAction: UIAction { _ in taps.append("add") })
        let host = makeHost(navigation)
        let bar = navigation.navigationBar
        #expect(bar.topItem?.title == "Places")
        #expect(bar.buttonViews.count == 1)
        let add = bar.buttonViews[0]
        #expect(add.frame.maxX == 312)
        host.tap(at: CGPoint(x: add.frame.midX, y: add.frame.midY))
        #expect(taps == ["add"])
        let b = Screen("Helsinki")
        navigation.pushViewController(b, animated: false)
        host.runUntilIdle()
        #expect(bar.backButtonView != nil)
        #expect(bar.items?.count == 2)
        let back = bar.backButtonView!
        host.tap(at: CGPoint(x: back.frame.midX, y: back.frame.midY))
        host.runUntilIdle()
        #expect(navigation.viewControllers == [a])
        a.navigationItem.rightBarButtonItem?.isEnabled = false
        host.runUntilIdle()
        let disabled = bar.buttonViews[0]
        host.tap(at: CGPoint(x: disabled.frame.midX, y: disabled.frame.midY))
        #expect(taps == ["add"])
    }

    @Test func barButtonMenuOpensAndChooses() {
        let a = Screen("Map")
        var chosen: [String] = []
        let menu = UIMenu(
            title: "Type", options: .singleSelection,
            children: [
                UIAction(title: "Normal", state: .on) { _ in chosen.append("normal") },
                UIAction(title: "Satellite") { _ in chosen.append("satellite") },
                UIAction(title: "Hidden", attributes: .hidden) { _ in chosen.append("hidden") },
            ])
        let item = UIBarButtonItem(title: "Type", menu: menu)
        a.navigationItem.leftBarButtonItem = item
        let navigation = UINavigationController(rootViewController: a)
        let host = makeHost(navigation)
        let button = navigation.navigationBar.buttonViews[0]
        host.tap(at: CGPoint(x: button.frame.midX, y: button.frame.midY))
        host.runUntilIdle()
        let overlay = try! #require(MenuOverlayView.current)
        #expect(overlay.rows.map(\.action.title) == ["Normal", "Satellite"])
        let satellite = overlay.rows[1].action
        let row = try! #require(overlay.rowFrame(for: satellite))
        host.tap(at: CGPoint(x: row.midX, y: row.midY))
        #expect(chosen == ["satellite"])
        #expect(satellite.state == .on)
        #expect((menu.children[0] as? UIAction)?.state == .off)
        #expect(overlay.superview == nil)
    }

    @Test func systemItemsAndSpaces() {
        let done = UIBarButtonItem(systemItem: .done)
        #expect(done.style == .done)
        #expect(done.displayTitle == "Done")
        #expect(UIBarButtonItem(systemItem: .add).displayTitle == nil)
        #expect(UIBarButtonItem.fixedSpace(20).width == 20)
        #expect(UIBarButtonItem.flexibleSpace().systemItem == .flexibleSpace)
        let action = UIAction(title: "Go", image: nil) { _ in }
        #expect(UIBarButtonItem(primaryAction: action).title == "Go")
        let item = UINavigationItem(title: "T")
        item.rightBarButtonItems = [done, UIBarButtonItem(systemItem: .add)]
        #expect(item.rightBarButtonItem === done)
        let controller = UIViewController()
        controller.title = "First"
        #expect(controller.navigationItem.title == "First")
        controller.title = "Second"
        #expect(controller.navigationItem.title == "Second")
    }

    @Test func presentAndDismissAnimateOnTheHostClock() {
        let log = Log()
        let root = Screen("Root", log: log)
        let host = makeHost(root)
        log.entries = []
        let modal = Screen("Modal", log: log)
        modal.modalPresentationStyle = .fullScreen
        var completed = 0
        root.present(modal, animated: true) { completed += 1 }
        #expect(root.presentedViewController === modal)
        #expect(modal.presentingViewController === root)
        #expect(modal.isBeingPresented)
        #expect(completed == 0)
        host.runUntilIdle()
        #expect(completed == 1)
        #expect(!modal.isBeingPresented)
        #expect(modal.view.superview === host.window)
        #expect(
            log.entries == [
                "Root willDisappear true", "Modal willAppear true", "Root didDisappear true",
                "Modal didAppear true",
            ])
        let other = UIViewController()
        root.present(other, animated: false)
        #expect(root.presentedViewController === modal)
        log.entries = []
        modal.dismiss(animated: true) { completed += 1 }
        #expect(modal.isBeingDismissed)
        host.runUntilIdle()
        #expect(completed == 2)
        #expect(root.presentedViewController == nil)
        #expect(modal.presentingViewController == nil)
        #expect(modal.view.superview == nil)
        #expect(
            log.entries == [
                "Modal willDisappear true", "Root willAppear true", "Modal didDisappear true",
                "Root didAppear true",
            ])
    }

    @Test func alertActionTapDismissesThenRunsTheHandler() {
        let root = Screen("Root")
        let host = makeHost(root)
        let alert = UIAlertController(title: "Delete marker?", message: "It cannot be undone.", preferredStyle: .alert)
        var ran: [String] = []
        let cancel = UIAlertAction(title: "Cancel", style: .cancel) { _ in ran.append("cancel") }
        let delete = UIAlertAction(title: "Delete", style: .destructive) { action in
            ran.append("\(action.title ?? "") presented=\(root.presentedViewController != nil)")
        }
        alert.addAction(delete)
        alert.addAction(cancel)
        alert.addAction(UIAlertAction(title: "Second cancel", style: .cancel))
        #expect(alert.actions.count == 2)
        #expect(alert.preferredStyle == .alert)
        root.present(alert, animated: true)
        host.runUntilIdle()
        let cancelFrame = try! #require(alert.buttonFrame(for: cancel))
        let deleteFrame = try! #require(alert.buttonFrame(for: delete))
        #expect(cancelFrame.maxX <= deleteFrame.minX)
        #expect(cancelFrame.minY == deleteFrame.minY)
        host.tap(at: CGPoint(x: deleteFrame.midX, y: deleteFrame.midY))
        #expect(ran.isEmpty)
        host.runUntilIdle()
        #expect(ran == ["Delete presented=false"])
        #expect(root.presentedViewController == nil)
        #expect(alert.view.superview == nil)
    }

    @Test func actionSheetStacksActionsAndCancelsOutside() {
        let root = Screen("Root")
        let host = makeHost(root)
        let sheet = UIAlertController(title: "Map type", message: nil, preferredStyle: .actionSheet)
        var ran: [String] = []
        for name in ["Normal", "Satellite", "Terrain"] {
            sheet.addAction(UIAlertAction(title: name, style: .default) { _ in ran.append(name) })
        }
        let disabled = UIAlertAction(title: "Hybrid", style: .default) { _ in ran.append("Hybrid") }
        disabled.isEnabled = false
        sheet.addAction(disabled)
        sheet.addAction(UIAlertAction(title: "Cancel", style: .cancel) { _ in ran.append("Cancel") })
        root.present(sheet, animated: false)
        host.runUntilIdle()
        let frames = sheet.actions.compactMap { sheet.buttonFrame(for: $0) }
        #expect(frames.count == 5)
        #expect(frames[0].maxY <= frames[1].minY)
        #expect(frames[4].minY > frames[3].maxY)
        #expect(frames[4].maxY <= 480)
        host.tap(at: CGPoint(x: frames[3].midX, y: frames[3].midY))
        host.runUntilIdle()
        #expect(ran.isEmpty)
        #expect(root.presentedViewController === sheet)
        host.tap(at: CGPoint(x: 160, y: 40))
        host.runUntilIdle()
        #expect(ran == ["Cancel"])
        #expect(root.presentedViewController == nil)
    }

    @Test func alertTextFieldsTakeTypedTextAndReturnTapsThePreferredAction() {
        let root = Screen("Root")
        let host = makeHost(root)
        KeyboardFocus.current = nil
        let alert = UIAlertController(title: "Save place", message: "Name the pin.", preferredStyle: .alert)
        var configured: [String] = []
        alert.addTextField { field in
            field.placeholder = "Name"
            configured.append("name")
        }
        alert.addTextField { field in
            field.placeholder = "PIN"
            field.isSecureTextEntry = true
            configured.append("pin")
        }
        var ran: [String] = []
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel) { _ in ran.append("cancel") })
        let save = UIAlertAction(title: "Save", style: .default) { [unowned alert] _ in
            let texts = alert.textFields?.map { $0.text ?? "" } ?? []
            ran.append("save \(texts.joined(separator: "/")) presented=\(root.presentedViewController != nil)")
        }
        alert.addAction(save)
        alert.preferredAction = save
        #expect(configured == ["name", "pin"])
        let fields = alert.textFields ?? []
        #expect(fields.count == 2 && fields[0].placeholder == "Name" && fields[1].isSecureTextEntry)
        root.present(alert, animated: true)
        host.runUntilIdle()
        // The first field edits as the alert appears; the fields sit under the message, above the buttons.
        #expect(fields[0].isFirstResponder)
        let first = fields[0].convert(fields[0].bounds, to: nil)
        let second = fields[1].convert(fields[1].bounds, to: nil)
        let saveFrame = try! #require(alert.buttonFrame(for: save))
        #expect(first.maxY <= second.minY + 0.5 && second.maxY < saveFrame.minY)
        #expect(first.width == 270 - 32 && first.height == 26)
        host.type("Kamppi")
        #expect(fields[0].text == "Kamppi")
        // A tap moves editing to the second field.
        host.tap(at: CGPoint(x: second.midX, y: second.midY))
        #expect(fields[1].isFirstResponder && !fields[0].isFirstResponder)
        host.type("1234")
        #expect(fields[1].text == "1234" && fields[0].text == "Kamppi")
        // Return taps the preferred action: the alert goes, then the handler reads the fields.
        host.type("\n")
        host.runUntilIdle()
        #expect(ran == ["save Kamppi/1234 presented=false"])
        #expect(root.presentedViewController == nil && KeyboardFocus.current == nil)
    }

    @Test func returnInAnAlertFieldNeedsOneEnabledActionAndSheetsHaveNoFields() {
        let root = Screen("Root")
        let host = makeHost(root)
        KeyboardFocus.current = nil
        let sheet = UIAlertController(title: nil, message: nil, preferredStyle: .actionSheet)
        sheet.addTextField()
        #expect(sheet.textFields?.isEmpty == true)
        // Two actions that are not cancel and none preferred: return taps nothing.
        let alert = UIAlertController(title: "Rename", message: nil, preferredStyle: .alert)
        alert.addTextField()
        var ran: [String] = []
        let rename = UIAlertAction(title: "Rename", style: .default) { _ in ran.append("rename") }
        alert.addAction(rename)
        alert.addAction(UIAlertAction(title: "Duplicate", style: .default) { _ in ran.append("duplicate") })
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel) { _ in ran.append("cancel") })
        root.present(alert, animated: false)
        host.runUntilIdle()
        host.type("x\n")
        host.runUntilIdle()
        #expect(ran.isEmpty && root.presentedViewController === alert)
        // Preferred but disabled: still nothing; enabled: tapped.
        alert.preferredAction = rename
        rename.isEnabled = false
        host.type("\n")
        host.runUntilIdle()
        #expect(ran.isEmpty && root.presentedViewController === alert)
        rename.isEnabled = true
        host.type("\n")
        host.runUntilIdle()
        #expect(ran == ["rename"] && root.presentedViewController == nil)
        #expect(alert.textFields?.first?.text == "x")
    }

    @Test func alertWithTextFieldsGolden() {
        let root = Screen("Root")
        root.view.backgroundColor = .systemTeal
        let host = makeHost(root)
        KeyboardFocus.current = nil
        let alert = UIAlertController(title: "Save place", message: "Name the dropped pin.", preferredStyle: .alert)
        alert.addTextField { $0.placeholder = "Name" }
        alert.addTextField { field in
            field.text = "Helsinki"
            field.clearButtonMode = .whileEditing
        }
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(UIAlertAction(title: "Save", style: .default))
        root.present(alert, animated: false)
        host.runUntilIdle()
        host.type("Kamppi")
        expectMatchesGolden(
            host.snapshot(), named: "alert-text-fields", channelTolerance: 24, maxDifferingFraction: 0.01)
    }

    @Test func viewsCompareByIdentityAndSmallThings() {
        let view = UIView()
        let parent = UIView()
        parent.addSubview(view)
        #expect(parent.subviews.contains(view))
        #expect(!parent.subviews.contains(UIView()))
        #expect(UIEdgeInsets() == .zero)
    }
}
