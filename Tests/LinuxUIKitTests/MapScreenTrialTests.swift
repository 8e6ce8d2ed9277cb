import Foundation
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import LinuxUIKit

/// What the second new-user trial of issue 30 (an iOS map screen ported as is) found missing or wrong: toolbars,
/// slider value images, presentation contexts, the navigation bar's title squeeze, content hugging of controls.
@MainActor @Suite(.serialized) struct MapScreenTrialTests {
    private func makeHost(_ root: UIViewController, size: CGSize = CGSize(width: 320, height: 480))
        -> UIHeadlessHost
    {
        _ = installManualClock()
        UIApplication.shared.resetForNextRun()
        UIScreen.main.userInterfaceStyle = .unspecified
        let host = UIHeadlessHost(rootViewController: root, size: size)
        host.runUntilIdle()
        return host
    }

    // MARK: Toolbar

    @Test func toolbarIsHiddenUntilAskedAndShowsTheTopControllersItemsAtTheBottom() {
        var tapped: [String] = []
        let first = UIViewController()
        let zoomIn = UIBarButtonItem(title: "In", primaryAction: UIAction { _ in tapped.append("in") })
        let zoomOut = UIBarButtonItem(title: "Out", primaryAction: UIAction { _ in tapped.append("out") })
        first.toolbarItems = [zoomIn, .fixedSpace(20), UIBarButtonItem(title: "Mid"), .flexibleSpace(), zoomOut]
        let navigation = UINavigationController(rootViewController: first)
        #expect(navigation.isToolbarHidden)
        let host = makeHost(navigation)
        #expect(abs(first.view.frame.height - (480 - 44)) < 0.01)

        navigation.setToolbarHidden(false, animated: true)
        host.runUntilIdle()
        #expect(!navigation.isToolbarHidden)
        let toolbar = navigation.toolbar!
        #expect(toolbar.frame == CGRect(x: 0, y: 436, width: 320, height: 44))
        #expect(toolbar.items?.count == 5)
        // The content ends at the toolbar's top.
        #expect(first.view.convert(first.view.bounds, to: nil).maxY == 436)
        let views = toolbar.itemViews
        #expect(views.count == 5)
        #expect(views[0].frame.minX == 16)
        #expect(views[1].frame.width == 20)
        #expect(views[2].frame.minX == views[1].frame.maxX + 8)
        // The flexible space pushes the last item to the trailing edge, 16 points in.
        #expect(abs(views[4].frame.maxX - 304) < 0.01)
        #expect(views[3].frame.width > 100)

        let outCentre = views[4].convert(CGPoint(x: views[4].bounds.midX, y: 22), to: nil)
        host.tap(at: outCentre)
        let inCentre = views[0].convert(CGPoint(x: views[0].bounds.midX, y: 22), to: nil)
        host.tap(at: inCentre)
        #expect(tapped == ["out", "in"])

        // The toolbar's colour shows at the bottom, the hairline along its top.
        let shot = host.snapshot()
        let bar = pixel(shot, 160, 470)
        #expect(pixelMatches(bar, 249, 249, 249, 255))
    }

    @Test func toolbarFollowsTheTopControllerAndItsSetToolbarItems() {
        let first = UIViewController()
        first.setToolbarItems([UIBarButtonItem(title: "A")], animated: false)
        let navigation = UINavigationController(rootViewController: first)
        navigation.isToolbarHidden = false
        let host = makeHost(navigation)
        let second = UIViewController()
        second.toolbarItems = [UIBarButtonItem(title: "B"), UIBarButtonItem(title: "C")]
        navigation.pushViewController(second, animated: false)
        host.runUntilIdle()
        #expect(navigation.toolbar.items?.map(\.title) == ["B", "C"])
        second.setToolbarItems(nil, animated: true)
        host.runUntilIdle()
        #expect(navigation.toolbar.itemViews.isEmpty)
        navigation.popViewController(animated: false)
        host.runUntilIdle()
        #expect(navigation.toolbar.items?.map(\.title) == ["A"])
        navigation.setToolbarHidden(true, animated: false)
        host.runUntilIdle()
        #expect(abs(first.view.frame.height - (480 - 44)) < 0.01)
    }

    // MARK: Slider value images

    @Test func sliderValueImagesShortenTheTrackAndAreDrawnAtTheEnds() throws {
        let slider = UISlider(frame: CGRect(x: 0, y: 0, width: 300, height: 31))
        #expect(slider.trackRect(forBounds: slider.bounds) == CGRect(x: 0, y: 13.5, width: 300, height: 4))
        let low = try #require(UIImage(systemName: "minus"))
        let high = try #require(UIImage(systemName: "plus"))
        slider.minimumValueImage = low
        slider.maximumValueImage = high
        let track = slider.trackRect(forBounds: slider.bounds)
        #expect(track.minX == low.size.width + 8)
        #expect(track.maxX == 300 - high.size.width - 8)
        #expect(slider.minimumValueImageRect(forBounds: slider.bounds).minX == 0)
        #expect(slider.maximumValueImageRect(forBounds: slider.bounds).maxX == 300)
        slider.value = 0
        #expect(slider.thumbRect.minX == track.minX)
        slider.value = 1
        #expect(slider.thumbRect.maxX == track.maxX)

        let host = UIHeadlessHost(view: slider)
        host.runUntilIdle()
        let shot = host.snapshot()
        // Something (the minus glyph) is drawn at the leading end, where the bare track would be.
        let imageRect = slider.minimumValueImageRect(forBounds: slider.bounds)
        var inked = 0
        for x in Int(imageRect.minX)..<Int(imageRect.maxX) where pixel(shot, x, 15).a > 0 { inked += 1 }
        #expect(inked > 5)
        slider.minimumValueImage = nil
        #expect(slider.trackRect(forBounds: slider.bounds).minX == 0)
    }

    // MARK: Presentation context

    @Test func currentContextPresentationCoversTheControllerThatDefinesTheContext() {
        let container = UIViewController()
        let child = UIViewController()
        let host = makeHost(container)
        container.addChild(child)
        child.view.frame = CGRect(x: 0, y: 200, width: 320, height: 280)
        container.view.addSubview(child.view)
        child.didMove(toParent: container)
        #expect(!child.definesPresentationContext)

        let covering = UIViewController()
        covering.modalPresentationStyle = .currentContext
        child.definesPresentationContext = true
        child.present(covering, animated: false)
        host.runUntilIdle()
        #expect(covering.view.frame == CGRect(x: 0, y: 200, width: 320, height: 280))
        #expect(child.presentedViewController === covering)
        #expect(covering.presentingViewController === child)
        child.dismiss(animated: false)
        host.runUntilIdle()
        #expect(covering.view.window == nil)
        #expect(child.presentedViewController == nil)

        // Without a controller defining the context, the whole window is covered.
        child.definesPresentationContext = false
        let full = UIViewController()
        full.modalPresentationStyle = .currentContext
        child.present(full, animated: false)
        host.runUntilIdle()
        #expect(full.view.frame == CGRect(x: 0, y: 0, width: 320, height: 480))
        #expect(full.presentingViewController === container)
        full.dismiss(animated: false)
    }
}

/// The navigation bar's title squeeze and the segmented control's truncation.
@MainActor @Suite(.serialized) struct NavigationTitleSqueezeTests {
    private func push(
        title: String?, titleView: UIView? = nil, width: CGFloat, rootTitle: String = "Sydney Harbour Bridge Tour"
    ) -> (UIHeadlessHost, UINavigationBar) {
        _ = installManualClock()
        UIApplication.shared.resetForNextRun()
        let root = UIViewController()
        root.title = rootTitle
        let navigation = UINavigationController(rootViewController: root)
        let host = UIHeadlessHost(rootViewController: navigation, size: CGSize(width: width, height: 480))
        host.runUntilIdle()
        let detail = UIViewController()
        detail.title = title
        detail.navigationItem.titleView = titleView
        detail.navigationItem.rightBarButtonItem = UIBarButtonItem(systemItem: .done)
        navigation.pushViewController(detail, animated: false)
        host.runUntilIdle()
        navigation.navigationBar.layoutIfNeeded()
        return (host, navigation.navigationBar)
    }

    @Test func backTitleShortensToBackThenToTheChevronWhenTheTitleNeedsTheRoom() throws {
        let (_, roomy) = push(title: "Map", width: 600)
        #expect(roomy.backButtonView?.backTitle == "Sydney Harbour Bridge Tour")

        let (_, medium) = push(title: "Details", width: 320)
        #expect(medium.backButtonView?.backTitle == "Back")

        let (_, tight) = push(title: "Satellite imagery and terrain", width: 320)
        #expect(tight.backButtonView?.backTitle == "")
        let back = try #require(tight.backButtonView)
        #expect(back.frame.width == 20)
        // The title sits between the chevron and the Done button, not under either.
        let title = try #require(tight.subviews.compactMap { $0 as? UILabel }.first { $0.text != nil })
        let done = try #require(tight.buttonViews.first { $0.isRightSide })
        #expect(title.frame.minX >= back.frame.maxX)
        #expect(title.frame.maxX <= done.frame.minX)
    }

    @Test func segmentedTitleViewGetsItsIntrinsicWidthWhenItFits() throws {
        func mapTypes() -> UISegmentedControl {
            UISegmentedControl(items: ["Normal", "Satellite", "Hybrid", "Terrain"])
        }
        let wide = mapTypes()
        let (_, bar) = push(title: nil, titleView: wide, width: 600, rootTitle: "Demos")
        #expect(wide.frame.width == wide.intrinsicContentSize.width)
        #expect(abs(wide.frame.midX - 300) < 0.5)
        #expect(bar.backButtonView?.backTitle == "Demos")
        // A long back title gives way to the centred control.
        let (_, squeezed) = push(title: nil, titleView: mapTypes(), width: 600)
        #expect(squeezed.backButtonView?.backTitle == "Back")

        let narrow = mapTypes()
        let (_, small) = push(title: nil, titleView: narrow, width: 320)
        let back = try #require(small.backButtonView)
        let done = try #require(small.buttonViews.first { $0.isRightSide })
        #expect(narrow.frame.minX >= back.frame.maxX)
        #expect(narrow.frame.maxX <= done.frame.minX)
        #expect(narrow.frame.width > 200)
    }

    @Test func segmentedControlNarrowerThanItsContentEllipsisesTitles() {
        _ = installManualClock()
        let control = UISegmentedControl(items: ["Normal", "Satellite", "Hybrid", "Terrain"])
        control.selectedSegmentIndex = 0
        control.frame = CGRect(x: 0, y: 0, width: 200, height: 32)
        #expect(control.intrinsicContentSize.width > 200)
        let page = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 32))
        page.backgroundColor = .white
        page.addSubview(control)
        let host = UIHeadlessHost(view: page)
        host.runUntilIdle()
        let shot = host.snapshot()
        // The "Satellite" segment (50 to 100): the rightmost ink of its title is an ellipsis, dots on the baseline a
        // few pixels high, not a letter cut through its full x-height.
        var rightmost = -1
        for x in 50..<100 {
            for y in 6..<26 where pixel(shot, x, y).r < 128 { rightmost = max(rightmost, x) }
        }
        #expect(rightmost > 60)
        var rows = Set<Int>()
        for x in max(50, rightmost - 2)...rightmost {
            for y in 6..<26 where pixel(shot, x, y).r < 160 { rows.insert(y) }
        }
        #expect(rows.count <= 3)
        // Three dots, not a hyphen: the ink along the baseline rows breaks into at least three runs.
        var runs = 0
        var inRun = false
        for x in max(50, rightmost - 14)...rightmost {
            let ink = rows.contains { pixel(shot, x, $0).r < 160 }
            if ink && !inRun { runs += 1 }
            inRun = ink
        }
        #expect(runs >= 3)
    }
}

/// The system symbols the trial's map screen used.
@MainActor @Suite struct MapScreenSymbolTests {
    static let names = [
        "moon.circle", "moon.stars", "location.circle", "building.2", "mappin.circle.fill", "slider.horizontal.3",
        "plus.magnifyingglass", "minus.magnifyingglass", "point.topleft.down.curvedto.point.bottomright.up",
        "sun.max", "moon", "moon.fill", "globe", "arrow.clockwise", "square.and.arrow.up", "ellipsis.circle",
        "line.3.horizontal", "scope", "sidebar.left",
    ]

    @Test func mapScreenSymbolsAreDrawnAndDifferFromEachOther() throws {
        var inks: [String: [Bool]] = [:]
        for name in Self.names {
            let image = try #require(UIImage(systemName: name), "\(name)")
            #expect(image.renderingMode == .alwaysTemplate)
            let bitmap = image.bitmaps[0]
            var ink: [Bool] = []
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width { ink.append(bitmap.pixel(x: x, y: y).a > 128) }
            }
            let count = ink.filter { $0 }.count
            // Some ink, and not a filled square.
            #expect(count > ink.count / 20, "\(name)")
            #expect(count < ink.count * 9 / 10, "\(name)")
            for (other, otherInk) in inks where otherInk.count == ink.count {
                let differing = zip(ink, otherInk).filter { $0 != $1 }.count
                #expect(differing > ink.count / 50, "\(name) looks like \(other)")
            }
            inks[name] = ink
            #expect(UIImage.availableSystemSymbolNames.contains(name))
        }
        // The LinuxUIKit README lists every name drawn.
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/LinuxUIKit/README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        for name in UIImage.availableSystemSymbolNames {
            #expect(text.contains("`\(name)`"), "README lists \(name)")
        }
        if let dir = ProcessInfo.processInfo.environment["WAYMARK_SYMBOL_SHEET"] {
            for name in Self.names {
                let image = UIImage(systemName: name, withConfiguration: UIImage.SymbolConfiguration(pointSize: 80))
                try image?.pngData()?.write(to: URL(fileURLWithPath: "\(dir)/\(name).png"))
            }
        }
    }
}

/// Content hugging of fixed-size controls in stack views.
@MainActor @Suite struct ControlHuggingTests {
    @Test func stepperAndSwitchHugTheirContentAsOnIOS() {
        #expect(UIStepper().contentHuggingPriority(for: .horizontal) == .defaultHigh)
        #expect(UIStepper().contentHuggingPriority(for: .vertical) == .defaultHigh)
        #expect(UISwitch().contentHuggingPriority(for: .horizontal) == .defaultHigh)
        #expect(UILabel().contentHuggingPriority(for: .horizontal) == .defaultLow)
    }

    @Test func labelStretchesAndStepperKeepsItsWidthAtTheTrailingEndOfAFillStack() {
        _ = installManualClock()
        let label = UILabel()
        label.text = "Zoom"
        let stepper = UIStepper()
        let row = UIStackView(arrangedSubviews: [label, stepper])
        row.axis = .horizontal
        row.distribution = .fill
        row.spacing = 8
        let page = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 100))
        page.addSubview(row)
        row.translatesAutoresizingMaskIntoConstraints = false
        NSLayoutConstraint.activate([
            row.leadingAnchor.constraint(equalTo: page.leadingAnchor, constant: 16),
            row.trailingAnchor.constraint(equalTo: page.trailingAnchor, constant: -16),
            row.topAnchor.constraint(equalTo: page.topAnchor, constant: 20),
        ])
        page.layoutIfNeeded()
        #expect(stepper.frame.width == 94)
        #expect(abs(stepper.frame.maxX - 288) < 0.01)
        #expect(abs(label.frame.width - (288 - 94 - 8)) < 0.01)
    }
}

/// `.insetGrouped` sections as cards with rounded corners; separators after an image.
@MainActor @Suite(.serialized) struct InsetGroupedTableTests {
    @MainActor final class Rows: UITableViewDataSource {
        var withImages = false
        func numberOfSections(in tableView: UITableView) -> Int { 1 }
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 3 }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
            cell.textLabel?.text = "Row \(indexPath.row)"
            if withImages { cell.imageView?.image = UIImage(systemName: "globe") }
            return cell
        }
    }

    private func makeTable(_ rows: Rows) -> (UIHeadlessHost, UITableView) {
        _ = installManualClock()
        UIApplication.shared.resetForNextRun()
        UIScreen.main.userInterfaceStyle = .unspecified
        let table = UITableView(frame: CGRect(x: 0, y: 0, width: 320, height: 300), style: .insetGrouped)
        table.dataSource = rows
        let host = UIHeadlessHost(view: table)
        host.runUntilIdle()
        return (host, table)
    }

    @Test func firstAndLastRowsHaveTenPointCornersAndTheHighlightIsClippedToThem() throws {
        let rows = Rows()
        let (host, table) = makeTable(rows)
        let first = try #require(table.cellForRow(at: IndexPath(row: 0, section: 0)))
        let middle = try #require(table.cellForRow(at: IndexPath(row: 1, section: 0)))
        let last = try #require(table.cellForRow(at: IndexPath(row: 2, section: 0)))
        #expect(first.layer.cornerRadius == 10)
        #expect(first.layer.maskedCorners == [.layerMinXMinYCorner, .layerMaxXMinYCorner])
        #expect(last.layer.maskedCorners == [.layerMinXMaxYCorner, .layerMaxXMaxYCorner])
        #expect(middle.layer.cornerRadius == 0)

        let shot = host.snapshot()
        let frame = first.convert(first.bounds, to: nil)
        // The very corner shows the grouped background, not the cell's white; the straight bottom corners of the
        // first row and a point a little inside its rounded corner show the cell.
        let corner = pixel(shot, Int(frame.minX) + 1, Int(frame.minY) + 1)
        let background = pixel(shot, 5, Int(frame.minY) + 1)
        #expect(background.r < 250)
        #expect(pixelMatches(corner, background.r, background.g, background.b, 255, tolerance: 6))
        #expect(pixelMatches(pixel(shot, Int(frame.minX) + 6, Int(frame.minY) + 6), 255, 255, 255, 255))
        #expect(pixelMatches(pixel(shot, Int(frame.minX) + 1, Int(frame.maxY) - 3), 255, 255, 255, 255))
        // The highlight grey is a subview of the cell, so the cell's rounded clip (masksToBounds) applies to it.
        #expect(first.layer.masksToBounds)
        #expect(first.selectionBackground.superview === first)
    }

    @Test func separatorsOfRowsWithAnImageStartAtTheText() throws {
        let rows = Rows()
        rows.withImages = true
        let (host, table) = makeTable(rows)
        let first = try #require(table.cellForRow(at: IndexPath(row: 0, section: 0)))
        let textX = try #require(first.textLabel).frame.minX
        #expect(textX > 40)
        #expect(first.separatorLeft == textX)
        first.separatorInset = UIEdgeInsets(top: 0, left: 20, bottom: 0, right: 0)
        #expect(first.separatorLeft == 20)
        _ = host
    }
}

/// The metatype pattern of a screens list (`UIViewController.Type` … `.init()`) cannot compile on Linux; the README
/// says so and gives factories, which work.
@MainActor @Suite struct MetatypePatternTests {
    final class MapTypesViewController: UIViewController {
        override func viewDidLoad() { title = "Map Types" }
    }

    @Test func readmeListsTheMetatypePatternAndFactoriesReplaceIt() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let table = try #require(text.range(of: "What does not compile").map { String(text[$0.upperBound...]) })
        let row = try #require(table.split(separator: "\n").first { $0.contains("UIViewController.Type") })
        #expect(row.contains("required"))
        #expect(row.contains("() -> UIViewController"))

        let screens: [(String, () -> UIViewController)] = [("Map Types", { MapTypesViewController() })]
        let made = screens[0].1()
        made.loadViewIfNeeded()
        #expect(made is MapTypesViewController)
        #expect(made.title == screens[0].0)
    }
}
