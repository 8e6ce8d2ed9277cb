import Foundation
import Testing
import UIKitTestSupport

@testable import LinuxUIKit

/// A table view controller subclass written as iOS code writes one: overrides of the data source and delegate
/// methods, `init(style:)` from its own initialiser.
@MainActor private final class FixesController: UITableViewController {
    let names: [String]
    var selected: [IndexPath] = []

    init(names: [String]) {
        self.names = names
        super.init(style: .insetGrouped)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "Fix")
    }

    override func numberOfSections(in tableView: UITableView) -> Int { 1 }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { names.count }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Fix", for: indexPath)
        cell.textLabel?.text = names[indexPath.row]
        return cell
    }

    override func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { 50 }

    override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        selected.append(indexPath)
    }
}

/// The UIKit API issue 30's map screens needed that Waymark lacked: table view controllers, system symbols, text
/// styles, directional margins, popovers, feedback generators.
@MainActor @Suite(.serialized) struct MapScreenAPITests {
    @Test func tableViewControllerFeedsItsOwnTableFromOverrides() {
        _ = installManualClock()
        UIApplication.shared.resetForNextRun()
        let controller = FixesController(names: ["Fix A", "Fix B", "Fix C"])
        let host = UIHeadlessHost(rootViewController: controller, size: CGSize(width: 320, height: 480))
        let table: UITableView = controller.tableView
        #expect(table === controller.view)
        #expect(table.style == .insetGrouped)
        #expect(table.dataSource === controller)
        #expect(table.delegate === controller)
        #expect(table.numberOfRows(inSection: 0) == 3)
        table.layoutIfNeeded()
        #expect(table.cellForRow(at: IndexPath(row: 1, section: 0))?.textLabel?.text == "Fix B")
        let row1 = table.rectForRow(at: IndexPath(row: 1, section: 0))
        #expect(row1.height == 50)
        host.tap(at: CGPoint(x: row1.midX, y: row1.midY - table.contentOffset.y))
        #expect(controller.selected == [IndexPath(row: 1, section: 0)])
        #expect(table.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
        // Coming back to the list clears the selection (clearsSelectionOnViewWillAppear defaults to true)…
        #expect(controller.clearsSelectionOnViewWillAppear)
        controller.viewWillAppear(false)
        #expect(table.indexPathForSelectedRow == nil)
        // …unless told not to.
        controller.clearsSelectionOnViewWillAppear = false
        table.selectRow(at: IndexPath(row: 2, section: 0), animated: false, scrollPosition: .none)
        controller.viewWillAppear(false)
        #expect(table.indexPathForSelectedRow == IndexPath(row: 2, section: 0))
        host.terminate()
    }

    @Test func plainTableViewControllerDefaultsToNoRows() {
        let controller = UITableViewController(style: .plain)
        #expect(controller.tableView.style == .plain)
        #expect(controller.tableView.numberOfRows(inSection: 0) == 0)
        #expect(UITableViewController(nibName: nil, bundle: nil).tableView.style == .plain)
    }

    @Test func systemSymbolsAreTemplateVectorImages() {
        let plus = UIImage(systemName: "plus")
        #expect(plus != nil)
        #expect(plus?.renderingMode == .alwaysTemplate)
        // 17 points × 1.2, rounded.
        #expect(plus?.size == CGSize(width: 20, height: 20))
        if let plus {
            // Ink in the middle of the cross, none in the corners. Points to device pixels at the image's scale
            // (the screen's when it was drawn, which suites running beside this one may change).
            let s = Int(plus.scale)
            #expect(pixel(plus, 10 * s, 10 * s).a > 200)
            #expect(pixel(plus, 1 * s, 1 * s).a == 0)
            #expect(pixel(plus, 3 * s, 17 * s).a == 0)
        }
        for name in [
            "plus", "minus", "xmark", "location", "location.fill", "map", "moon", "moon.fill", "sun.max", "gear",
            "magnifyingglass", "list.bullet", "star", "star.fill", "trash", "info.circle", "square.stack.3d.up",
        ] {
            #expect(UIImage(systemName: name) != nil, "\(name)")
        }
        #expect(UIImage(systemName: "no.such.symbol") == nil)
        #expect(!UIImage.availableSystemSymbolNames.contains("no.such.symbol"))
    }

    @Test func filledSymbolsHaveMoreInkAndWeightsThickenStrokes() {
        func ink(_ image: UIImage?) -> Int {
            guard let image else { return -1 }
            let side = Int(image.size.width * image.scale)
            var total = 0
            for y in 0..<side { for x in 0..<side { total += pixel(image, x, y).a } }
            return total
        }
        #expect(ink(UIImage(systemName: "star.fill")) > ink(UIImage(systemName: "star")))
        #expect(ink(UIImage(systemName: "moon.fill")) > ink(UIImage(systemName: "moon")))
        #expect(ink(UIImage(systemName: "moon")) > 0)
        let regular = UIImage(
            systemName: "plus", withConfiguration: UIImage.SymbolConfiguration(pointSize: 34, weight: .regular))
        let bold = UIImage(
            systemName: "plus", withConfiguration: UIImage.SymbolConfiguration(pointSize: 34, weight: .bold))
        #expect(regular?.size == CGSize(width: 41, height: 41))
        #expect(ink(bold) > ink(regular))
    }

    @Test func preferredFontsHaveIOSDefaultSizes() {
        let expected: [(UIFont.TextStyle, CGFloat)] = [
            (.largeTitle, 34), (.title1, 28), (.title2, 22), (.title3, 20), (.headline, 17), (.body, 17),
            (.callout, 16), (.subheadline, 15), (.footnote, 13), (.caption1, 12), (.caption2, 11),
        ]
        for (style, size) in expected {
            #expect(UIFont.preferredFont(forTextStyle: style).pointSize == size, "\(style.rawValue)")
        }
        #expect(UIFont.preferredFont(forTextStyle: .headline).weight == .semibold)
        #expect(UIFont.preferredFont(forTextStyle: .body).weight == .regular)
        let label = UILabel()
        label.font = .preferredFont(forTextStyle: .footnote)
        #expect(label.font.pointSize == 13)
    }

    @Test func monospacedFonts() {
        let digits = UIFont.monospacedDigitSystemFont(ofSize: 13, weight: .medium)
        #expect(digits.pointSize == 13 && digits.weight == .medium)
        let mono = UIFont.monospacedSystemFont(ofSize: 12, weight: .regular)
        #expect(mono.pointSize == 12)
        #expect(mono.pangoFamily == "monospace")
        #expect(mono != UIFont.systemFont(ofSize: 12))
    }

    @Test func directionalLayoutMarginsAreLayoutMarginsInLeftToRight() {
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        view.directionalLayoutMargins = NSDirectionalEdgeInsets(top: 12, leading: 16, bottom: 10, trailing: 20)
        #expect(view.layoutMargins == UIEdgeInsets(top: 12, left: 16, bottom: 10, right: 20))
        view.layoutMargins = UIEdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        #expect(view.directionalLayoutMargins == NSDirectionalEdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4))
        // The margins guide follows.
        let stack = UIStackView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        stack.isLayoutMarginsRelativeArrangement = true
        stack.directionalLayoutMargins = NSDirectionalEdgeInsets(top: 10, leading: 30, bottom: 10, trailing: 30)
        let child = UIView()
        stack.addArrangedSubview(child)
        stack.layoutIfNeeded()
        #expect(child.frame == CGRect(x: 30, y: 10, width: 140, height: 80))
    }

    @Test func popoverControllerExistsOnlyForPopoverStyle() {
        let sheet = UIAlertController(title: "T", message: nil, preferredStyle: .actionSheet)
        #expect(sheet.popoverPresentationController == nil)
        sheet.popoverPresentationController?.sourceView = UIView()
        let controller = UIViewController()
        controller.modalPresentationStyle = .popover
        let popover = controller.popoverPresentationController
        #expect(popover != nil)
        #expect(popover === controller.popoverPresentationController)
        #expect(popover?.presentedViewController === controller)
        #expect(popover?.permittedArrowDirections == .any)
        let source = UIView()
        popover?.sourceView = source
        popover?.sourceRect = CGRect(x: 1, y: 2, width: 3, height: 4)
        popover?.permittedArrowDirections = [.up, .down]
        #expect(controller.popoverPresentationController?.sourceView === source)
        #expect(controller.popoverPresentationController?.sourceRect == CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(controller.popoverPresentationController?.permittedArrowDirections == [.up, .down])
    }

    @Test func safeAreaAndInsetAdjustmentSettingsAreKept() {
        let controller = UIViewController()
        #expect(controller.additionalSafeAreaInsets == .zero)
        controller.additionalSafeAreaInsets = UIEdgeInsets(top: 0, left: 0, bottom: 44, right: 0)
        #expect(controller.additionalSafeAreaInsets.bottom == 44)
        let scroll = UIScrollView(frame: .zero)
        #expect(scroll.contentInsetAdjustmentBehavior == .automatic)
        scroll.contentInsetAdjustmentBehavior = .never
        #expect(scroll.contentInsetAdjustmentBehavior == .never)
    }

    @Test func feedbackGeneratorsKeepTheirStyleAndDoNothing() {
        let impact = UIImpactFeedbackGenerator(style: .light)
        impact.prepare()
        impact.impactOccurred()
        impact.impactOccurred(intensity: 0.5)
        #expect(impact.style == .light)
        #expect(UIImpactFeedbackGenerator().style == .medium)
        UISelectionFeedbackGenerator().selectionChanged()
        let notification = UINotificationFeedbackGenerator()
        notification.notificationOccurred(.success)
        #expect(UINotificationFeedbackGenerator.FeedbackType.error.rawValue == 2)
    }
}

/// One grouped row for the dark-mode table.
@MainActor private final class OneRow: UITableViewDataSource {
    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 1 }
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
        var content = cell.defaultContentConfiguration()
        content.text = "Row"
        cell.contentConfiguration = content
        return cell
    }
}

/// UIKit's own views follow the appearance (issue 30): in dark mode they use iOS's dark semantic colours; in light
/// mode they look as before.
@MainActor @Suite(.serialized) struct ControlAppearanceTests {
    private static let dark = UITraitCollection(userInterfaceStyle: .dark)
    private static let light = UITraitCollection(userInterfaceStyle: .light)

    /// A grouped table with one row above a segmented control, in `style`; returns the frame's pixels.
    private func render(_ style: UIUserInterfaceStyle) -> (image: UIImage, row: CGRect) {
        _ = installManualClock()
        UIApplication.shared.resetForNextRun()
        let controller = UIViewController()
        controller.overrideUserInterfaceStyle = style
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 300))
        root.backgroundColor = .systemBackground
        controller.view = root
        let rows = OneRow()
        let table = UITableView(frame: CGRect(x: 0, y: 0, width: 320, height: 200), style: .grouped)
        table.dataSource = rows
        root.addSubview(table)
        let segments = UISegmentedControl(items: ["One", "Two"])
        segments.frame = CGRect(x: 20, y: 220, width: 280, height: 32)
        segments.selectedSegmentIndex = 0
        root.addSubview(segments)
        let host = UIHeadlessHost(rootViewController: controller, size: CGSize(width: 320, height: 300))
        let image = host.snapshot()
        let row = table.rectForRow(at: IndexPath(row: 0, section: 0))
        host.terminate()
        return withExtendedLifetime(rows) { (image, row) }
    }

    @Test func tableCellsAndSegmentsTurnDarkInDarkMode() {
        let (image, row) = render(.dark)
        #expect(row.maxY < 180)
        // The grouped table's background below its row: systemGroupedBackground, black.
        #expect(pixelMatches(pixel(image, 160, 190), 0, 0, 0, 255))
        // The cell: secondarySystemGroupedBackground, #1C1C1E.
        let cellY = Int(row.midY) - 10
        #expect(pixelMatches(pixel(image, 300, cellY), 28, 28, 30, 255, tolerance: 3))
        // The unselected segment's track: tertiarySystemFill over the root's clear background (dark, not light grey).
        #expect(pixel(image, 294, 236).r < 80)
    }

    @Test func lightModeUsesIOSLightSystemColours() {
        let (image, row) = render(.light)
        // systemGroupedBackground, #F2F2F7.
        #expect(pixelMatches(pixel(image, 160, 190), 242, 242, 247, 255))
        // secondarySystemGroupedBackground, white.
        #expect(pixelMatches(pixel(image, 300, Int(row.midY) - 10), 255, 255, 255, 255))
        // The unselected segment's track: tertiarySystemFill (#767680 at 12 %) over white.
        #expect(pixelMatches(pixel(image, 294, 236), 239, 239, 240, 255, tolerance: 1))
    }

    @Test func defaultTextColoursAreSemantic() {
        let field = UITextField()
        #expect(field.textColor?.resolvedColor(with: Self.dark).rgba.red == 1)
        #expect(field.textColor?.resolvedColor(with: Self.light).rgba.red == 0)
        let content = UIListContentConfiguration.subtitleCell()
        #expect(content.textProperties.color.resolvedColor(with: Self.dark).rgba.red == 1)
        #expect(content.textProperties.color.resolvedColor(with: Self.light).rgba.red == 0)
        let secondary = content.secondaryTextProperties.color
        #expect(secondary.resolvedColor(with: Self.dark).rgba.red > 0.9)
        #expect(secondary.resolvedColor(with: Self.light).rgba.red < 0.5)
        #expect(UITableView(frame: .zero, style: .plain).backgroundColor === UIColor.systemBackground)
        #expect(UITableViewCell().backgroundColor === UIColor.systemBackground)
    }
}

/// Issue 30: an alert with a preferred action bolds it alone, as iOS does; without one, the cancel action is bold.
@MainActor @Suite(.serialized) struct AlertPreferredActionTests {
    @Test func alertBoldsOnlyThePreferredAction() {
        _ = installManualClock()
        UIApplication.shared.resetForNextRun()
        let root = UIViewController()
        let host = UIHeadlessHost(rootViewController: root, size: CGSize(width: 390, height: 600))
        let alert = UIAlertController(title: "Stop tracking?", message: nil, preferredStyle: .alert)
        let cancel = UIAlertAction(title: "Cancel", style: .cancel)
        let stop = UIAlertAction(title: "Stop", style: .default)
        alert.addAction(cancel)
        alert.addAction(stop)
        alert.preferredAction = stop
        root.present(alert, animated: false)
        _ = host.runUntilIdle()
        #expect(alert.buttonIsBold(for: stop) == true)
        #expect(alert.buttonIsBold(for: cancel) == false)
        alert.preferredAction = nil
        #expect(alert.buttonIsBold(for: cancel) == true)
        #expect(alert.buttonIsBold(for: stop) == false)
        host.terminate()
    }
}
