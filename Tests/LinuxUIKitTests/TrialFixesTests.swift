import Foundation
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import LinuxUIKit

/// What a new-user trial of issue 30 found missing: self-sizing table rows, effect views sized by their content,
/// row and button highlights, elevated sheets in dark mode, system symbols and ending a window app by signal.
@MainActor @Suite(.serialized) struct TrialFixesTests {
    private func makeHost(_ root: UIView) -> UIHeadlessHost {
        _ = installManualClock()
        UIApplication.shared.resetForNextRun()
        UIScreen.main.userInterfaceStyle = .unspecified
        KeyboardFocus.current = nil
        return UIHeadlessHost(view: root)
    }

    private func makeHost(_ root: UIViewController) -> UIHeadlessHost {
        _ = installManualClock()
        UIApplication.shared.resetForNextRun()
        let host = UIHeadlessHost(rootViewController: root, size: CGSize(width: 320, height: 480))
        host.runUntilIdle()
        return host
    }

    // MARK: Self-sizing rows

    /// A cell whose content view holds one view pinned with Auto Layout: 20 points above and below a view
    /// `height` points high.
    final class PinnedCell: UITableViewCell {
        let box = UIView()
        let boxHeight: NSLayoutConstraint

        override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
            boxHeight = box.heightAnchor.constraint(equalToConstant: 60)
            super.init(style: style, reuseIdentifier: reuseIdentifier)
            box.translatesAutoresizingMaskIntoConstraints = false
            // Below required, as iOS cells do, so a row the delegate makes shorter breaks it without a log.
            let bottom = box.bottomAnchor.constraint(equalTo: contentView.bottomAnchor, constant: -20)
            bottom.priority = UILayoutPriority(999)
            contentView.addSubview(box)
            NSLayoutConstraint.activate([
                box.topAnchor.constraint(equalTo: contentView.topAnchor, constant: 20),
                bottom,
                box.leadingAnchor.constraint(equalTo: contentView.leadingAnchor, constant: 16),
                box.trailingAnchor.constraint(equalTo: contentView.trailingAnchor, constant: -16),
                boxHeight,
            ])
        }

        required init?(coder: NSCoder) { nil }
    }

    /// Rows: a configuration with a long subtitle, an Auto Layout cell, a classic subtitle cell, a one-line
    /// configuration; then `extra` Auto Layout rows.
    @MainActor final class Rows: UITableViewDataSource, UITableViewDelegate {
        var extra = 0
        var made: [IndexPath] = []
        var fixedHeight: CGFloat?
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 4 + extra }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            made.append(indexPath)
            switch indexPath.row {
            case 0, 3:
                let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
                var content = cell.defaultContentConfiguration()
                content.text = "Search & card"
                if indexPath.row == 0 {
                    content.secondaryText =
                        "Search the places, see one on a card over the map, then go back to the list"
                }
                cell.contentConfiguration = content
                cell.accessoryType = .disclosureIndicator
                return cell
            case 2:
                let cell = UITableViewCell(style: .subtitle, reuseIdentifier: nil)
                cell.textLabel?.text = "Kamppi"
                cell.detailTextLabel?.text = "Shopping centre"
                return cell
            default:
                return PinnedCell(style: .default, reuseIdentifier: nil)
            }
        }
        func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat {
            fixedHeight ?? tableView.rowHeight
        }
    }

    @Test func automaticRowsTakeTheirCellsHeights() throws {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        let table = UITableView(frame: root.bounds, style: .plain)
        let rows = Rows()
        table.dataSource = rows
        table.delegate = rows
        root.addSubview(table)
        let host = makeHost(root)
        #expect(table.rowHeight == UITableView.automaticDimension)
        _ = host.snapshot()
        let rects = (0..<4).map { table.rectForRow(at: IndexPath(row: $0, section: 0)) }
        // The Auto Layout cell: 20 + 60 + 20 points.
        #expect(rects[1].height == 100)
        // The wrapped subtitle is taller than the one-line configuration, which is at least 44 points.
        #expect(rects[3].height >= 44)
        #expect(rects[0].height > rects[3].height)
        // Rows follow one another without overlapping, and the content size is their sum.
        for i in 1..<4 { #expect(rects[i].minY == rects[i - 1].maxY) }
        #expect(table.contentSize.height == rects[3].maxY)
        // Each cell's content fits inside its row: the labels' bottoms are within the cell.
        for i in [0, 2] {
            let cell = try #require(table.cellForRow(at: IndexPath(row: i, section: 0)))
            cell.layoutIfNeeded()
            let labels = allLabels(in: cell).filter { !$0.isHidden && $0.text?.isEmpty == false }
            #expect(labels.count == 2)
            for label in labels {
                let frame = label.convert(label.bounds, to: cell)
                #expect(frame.maxY <= cell.bounds.height)
                #expect(frame.minY >= 0)
            }
            #expect(cell.frame.height == rects[i].height)
        }
        host.terminate()
    }

    private func allLabels(in view: UIView) -> [UILabel] {
        view.subviews.flatMap { sub -> [UILabel] in (sub as? UILabel).map { [$0] } ?? allLabels(in: sub) }
    }

    @Test func delegateHeightWinsAndZeroEstimateTurnsSelfSizingOff() {
        let table = UITableView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), style: .plain)
        let rows = Rows()
        rows.fixedHeight = 50
        table.dataSource = rows
        table.delegate = rows
        table.layoutIfNeeded()
        #expect(table.rectForRow(at: IndexPath(row: 1, section: 0)).height == 50)
        rows.fixedHeight = nil
        table.estimatedRowHeight = 0
        table.layoutIfNeeded()
        #expect(table.rectForRow(at: IndexPath(row: 1, section: 0)).height == 44)
    }

    @Test func offScreenRowsKeepTheEstimateUntilShown() {
        let table = UITableView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), style: .plain)
        let rows = Rows()
        rows.extra = 96
        table.estimatedRowHeight = 30
        table.dataSource = rows
        table.layoutIfNeeded()
        // Only the rows in view were made and measured; the last keeps the estimate.
        #expect(rows.made.count < 12)
        #expect(table.rectForRow(at: IndexPath(row: 1, section: 0)).height == 100)
        #expect(table.rectForRow(at: IndexPath(row: 99, section: 0)).height == 30)
        // Scrolled to the end, the last rows are measured as they come into view (each measurement grows the
        // content, so scroll to the end again until it stays).
        for _ in 0..<20 {
            table.contentOffset = CGPoint(x: 0, y: table.contentSize.height - 480)
            table.layoutIfNeeded()
        }
        #expect(table.contentOffset.y == table.contentSize.height - 480)
        #expect(table.rectForRow(at: IndexPath(row: 99, section: 0)).height == 100)
    }

    // MARK: Effect view sized by its content

    @Test func visualEffectViewTakesTheSizeOfItsContentViewsConstraints() {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        let effect = UIVisualEffectView(effect: UIBlurEffect(style: .systemMaterial))
        effect.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(effect)
        let label = UILabel()
        label.text = "Kamppi"
        label.translatesAutoresizingMaskIntoConstraints = false
        effect.contentView.addSubview(label)
        NSLayoutConstraint.activate([
            effect.topAnchor.constraint(equalTo: root.topAnchor, constant: 40),
            effect.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10),
            label.topAnchor.constraint(equalTo: effect.contentView.topAnchor, constant: 8),
            label.bottomAnchor.constraint(equalTo: effect.contentView.bottomAnchor, constant: -8),
            label.leadingAnchor.constraint(equalTo: effect.contentView.leadingAnchor, constant: 12),
            label.trailingAnchor.constraint(equalTo: effect.contentView.trailingAnchor, constant: -12),
        ])
        root.layoutIfNeeded()
        let text = label.intrinsicContentSize
        #expect(text.width > 0 && text.height > 0)
        #expect(effect.frame == CGRect(x: 10, y: 40, width: text.width + 24, height: text.height + 16))
        #expect(effect.contentView.frame == effect.bounds)
        #expect(label.frame == CGRect(x: 12, y: 8, width: text.width, height: text.height))
    }

    // MARK: Highlights

    @MainActor final class Plain: UITableViewDataSource {
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 5 }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
            cell.textLabel?.text = "Row \(indexPath.row)"
            return cell
        }
    }

    @Test func touchedRowIsHighlightedAndAnimatedDeselectionFades() throws {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 300))
        root.backgroundColor = .white
        let table = UITableView(frame: root.bounds, style: .plain)
        let rows = Plain()
        table.dataSource = rows
        root.addSubview(table)
        let host = makeHost(root)
        let path = IndexPath(row: 1, section: 0)
        let rect = table.rectForRow(at: path)
        let cell = try #require(table.cellForRow(at: path))
        // A point in the row away from its text: iOS's light systemGray4 (#D1D1D6) while the finger is down.
        let probe = CGPoint(x: 300, y: rect.midY)
        #expect(pixelMatches(pixel(host.snapshot(), 300, Int(probe.y)), 255, 255, 255, 255))
        host.send([.init(1, .began, at: probe)])
        #expect(cell.isHighlighted)
        #expect(pixelMatches(pixel(host.snapshot(), 300, Int(probe.y)), 0xD1, 0xD1, 0xD6, 255))
        host.advance(by: 0.05)
        host.send([.init(1, .ended, at: probe)])
        #expect(!cell.isHighlighted && cell.isSelected)
        #expect(pixelMatches(pixel(host.snapshot(), 300, Int(probe.y)), 0xD1, 0xD1, 0xD6, 255))
        // Deselected with animation: the grey fades over 0.25 s.
        table.deselectRow(at: path, animated: true)
        host.advance(by: 0.1)
        let midFade = pixel(host.snapshot(), 300, Int(probe.y))
        #expect(midFade.r > 0xD1 + 4 && midFade.r < 251)
        host.advance(by: 0.3)
        #expect(pixelMatches(pixel(host.snapshot(), 300, Int(probe.y)), 255, 255, 255, 255))
        // A drag does not leave a row highlighted.
        host.send([.init(2, .began, at: probe)])
        #expect(cell.isHighlighted)
        for i in 1...4 { host.send([.init(2, .moved, at: CGPoint(x: 300, y: probe.y - CGFloat(i) * 10))]) }
        #expect(!cell.isHighlighted)
        host.send([.init(2, .ended, at: CGPoint(x: 300, y: probe.y - 40))])
        #expect(table.indexPathForSelectedRow == nil)
        host.terminate()
    }

    @Test func noneSelectionStyleShowsNoGrey() throws {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 300))
        let table = UITableView(frame: root.bounds, style: .plain)
        let rows = Plain()
        table.dataSource = rows
        root.addSubview(table)
        let host = makeHost(root)
        let path = IndexPath(row: 0, section: 0)
        let cell = try #require(table.cellForRow(at: path))
        cell.selectionStyle = .none
        let y = table.rectForRow(at: path).midY
        host.tap(at: CGPoint(x: 300, y: y))
        #expect(cell.isSelected)
        #expect(pixelMatches(pixel(host.snapshot(), 300, Int(y)), 255, 255, 255, 255))
        host.terminate()
    }

    @Test func systemButtonDimsItsTitleWhileTouched() throws {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 200))
        root.backgroundColor = .white
        let button = UIButton(type: .system)
        button.setTitle("Directions", for: .normal)
        button.frame = CGRect(x: 60, y: 80, width: 200, height: 44)
        root.addSubview(button)
        let host = makeHost(root)
        let label = try #require(button.titleLabel)
        #expect(label.textColor.rgba.alpha == 1)
        host.send([.init(1, .began, at: CGPoint(x: 160, y: 102))])
        #expect(button.isHighlighted)
        #expect(abs(label.textColor.rgba.alpha - 0.2) < 0.01)
        host.advance(by: 0.05)
        host.send([.init(1, .ended, at: CGPoint(x: 160, y: 102))])
        #expect(!button.isHighlighted)
        #expect(label.textColor.rgba.alpha == 1)
        host.terminate()
    }

    // MARK: Elevated sheets

    @Test func presentedSheetIsElevatedAndResolvesElevatedBackgrounds() {
        let elevatedDark = UITraitCollection(traitsFrom: [
            UITraitCollection(userInterfaceStyle: .dark), UITraitCollection(userInterfaceLevel: .elevated),
        ])
        #expect(elevatedDark.userInterfaceStyle == .dark && elevatedDark.userInterfaceLevel == .elevated)
        func hex(_ color: UIColor, _ traits: UITraitCollection) -> Int {
            let c = color.resolvedColor(with: traits).rgba
            return Int((c.red * 255).rounded()) << 16 | Int((c.green * 255).rounded()) << 8
                | Int((c.blue * 255).rounded())
        }
        #expect(hex(.systemBackground, elevatedDark) == 0x1C1C1E)
        #expect(hex(.secondarySystemBackground, elevatedDark) == 0x2C2C2E)
        #expect(hex(.systemBackground, UITraitCollection(userInterfaceStyle: .dark)) == 0)
        #expect(hex(.systemBackground, UITraitCollection(userInterfaceLevel: .elevated)) == 0xFFFFFF)

        let presenter = UIViewController()
        presenter.view.backgroundColor = .systemBackground
        let host = makeHost(presenter)
        presenter.view.window?.overrideUserInterfaceStyle = .dark
        let sheet = UIViewController()
        sheet.view.backgroundColor = .systemBackground
        let label = UILabel()
        sheet.view.addSubview(label)
        presenter.present(sheet, animated: false)
        host.runUntilIdle()
        #expect(presenter.traitCollection.userInterfaceLevel != .elevated)
        #expect(sheet.traitCollection.userInterfaceLevel == .elevated)
        #expect(label.traitCollection.userInterfaceLevel == .elevated)
        #expect(
            sheet.view.layer.backgroundColor
                == UIColor(red: 28 / 255, green: 28 / 255, blue: 30 / 255, alpha: 1).cgColor)
        #expect(presenter.view.layer.backgroundColor == UIColor.black.cgColor)
        sheet.dismiss(animated: false)
        host.runUntilIdle()

        // A full-screen presentation covers its presenter and stays at the base level.
        let cover = UIViewController()
        cover.modalPresentationStyle = .fullScreen
        presenter.present(cover, animated: false)
        host.runUntilIdle()
        #expect(cover.traitCollection.userInterfaceLevel != .elevated)
        host.terminate()
    }

    // MARK: Search bar on push

    @Test func outgoingSearchBarSlidesAndFadesOnAnimatedPush() throws {
        let screen = UIViewController()
        screen.title = "Places"
        let search = UISearchController(searchResultsController: nil)
        screen.navigationItem.searchController = search
        let navigation = UINavigationController(rootViewController: screen)
        let host = makeHost(navigation)
        let bar = search.searchBar
        let root = try #require(navigation.viewIfLoaded)
        #expect(bar.superview === root)
        let start = bar.frame
        let detail = UIViewController()
        detail.title = "Kamppi"
        navigation.pushViewController(detail, animated: true)
        host.advance(by: UINavigationController.transitionDuration / 2)
        // Mid-push the old bar is still there, part faded and moved towards the back.
        #expect(bar.superview === root)
        let shown = try #require(bar.layer.presentation())
        #expect(shown.opacity > 0.05 && shown.opacity < 0.95)
        #expect(shown.position.x < start.midX - 10)
        host.advance(by: UINavigationController.transitionDuration)
        host.runUntilIdle()
        #expect(bar.superview == nil)
        #expect(bar.alpha == 1)
        // Back again: the bar shows, opaque, in its place.
        navigation.popViewController(animated: true)
        host.advance(by: 1)
        host.runUntilIdle()
        #expect(bar.superview === root)
        #expect(bar.alpha == 1 && bar.frame == start)
        host.terminate()
    }

    // MARK: System symbols

    static let mapSymbols = [
        "car.fill", "location", "location.fill", "magnifyingglass", "xmark", "xmark.circle.fill", "plus", "minus",
        "map", "map.fill", "mappin", "mappin.and.ellipse", "star", "star.fill", "info.circle", "gearshape",
        "list.bullet", "chevron.right", "chevron.left", "square.stack.3d.up", "figure.walk", "bicycle", "tram.fill",
        "heart", "heart.fill", "trash", "arrow.triangle.turn.up.right.diamond.fill",
    ]

    @Test func mapScreenSymbolsAreDrawnTemplatesAndUnknownNamesAreNil() throws {
        var inks: [String: Int] = [:]
        for name in Self.mapSymbols {
            let image = try #require(UIImage(systemName: name), "\(name)")
            #expect(image.renderingMode == .alwaysTemplate)
            #expect(image.size == CGSize(width: 20, height: 20))
            var ink = 0
            for y in 0..<Int(image.size.height) {
                for x in 0..<Int(image.size.width) where pixel(image, x, y).a > 128 { ink += 1 }
            }
            inks[name] = ink
            // Some ink, and not a filled square.
            #expect(ink > 15, "\(name)")
            #expect(ink < 400 * 3 / 4, "\(name)")
        }
        // Filled variants carry more ink than their outlines.
        for (outline, filled) in [("heart", "heart.fill"), ("star", "star.fill"), ("map", "map.fill")] {
            #expect(inks[filled, default: 0] > inks[outline, default: 0], "\(filled)")
        }
        #expect(UIImage(systemName: "car.side.rear.open.crop") == nil)
        #expect(Set(Self.mapSymbols).isSubset(of: Set(UIImage.availableSystemSymbolNames)))
    }

    // MARK: Ending a window app by signal

    /// A window backend with no window: each wait runs `onWait` (the wait number) and sleeps 5 ms.
    final class FakeBackend: WindowBackend {
        var waits = 0
        var onWait: (Int) -> Void = { _ in }
        let driverName = "fake"
        func geometry() -> (size: CGSize, scale: CGFloat) { (CGSize(width: 100, height: 100), 1) }
        func waitForEvents(until deadline: TimeInterval, host: WindowHost) {
            waits += 1
            onWait(waits)
            usleep(5000)
            if waits > 400 { host.close() }
        }
        var nextInputDeadline: TimeInterval? { nil }
        func runDueInput(now: TimeInterval) {}
        func present(_ image: UIImage) {}
        func cancelInput() {}
        func close() {}
    }

    @MainActor final class Delegate: UIResponder, UIApplicationDelegate {
        var window: UIWindow?
        var terminated = 0
        func application(
            _ application: UIApplication,
            didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
        ) -> Bool {
            window = UIWindow(frame: UIScreen.main.bounds)
            window?.rootViewController = UIViewController()
            window?.makeKeyAndVisible()
            return true
        }
        func applicationWillTerminate(_ application: UIApplication) { terminated += 1 }
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func interruptOrTerminateSignalEndsTheWindowLoopCleanly(signal: Int32) {
        UIApplication.shared.resetForNextRun()
        let backend = FakeBackend()
        backend.onWait = { n in if n == 3 { kill(getpid(), signal) } }
        var options = UIApplicationHostOptions(title: "signals")
        options.backend = .window
        let delegate = Delegate()
        func handlerBits() -> Int {
            var action = sigaction()
            sigaction(signal, nil, &action)
            return withUnsafeBytes(of: &action.__sigaction_handler) { $0.load(as: Int.self) }
        }
        let before = handlerBits()
        let status = ApplicationRunner.run(delegate: delegate, options: options) { _ in .success(backend) }
        #expect(status == 0)
        // The signal, not the fake's own stop after 400 waits, ended the loop: the kernel may hand the signal to
        // another thread of the test process, so the loop sees it a wait or a few later under load.
        #expect(backend.waits >= 3 && backend.waits < 400)
        #expect(delegate.terminated == 1)
        // The previous handler is back.
        #expect(handlerBits() == before)
        UIApplication.shared.resetForNextRun()
    }
}
