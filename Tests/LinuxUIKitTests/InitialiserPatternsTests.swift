import Foundation
import Testing

@testable import LinuxUIKit

// The initialiser patterns iOS view controllers, views and cells are written with, spelt as on iOS: this file failing
// to compile is the failure. Each type is then made and checked at run time.

/// No initialisers of its own: inherits `init()` and `init(nibName:bundle:)`.
private final class PlainScreen: UIViewController {
    var loaded = false
    override func viewDidLoad() {
        super.viewDidLoad()
        loaded = true
    }
}

/// A designated initialiser with arguments, calling `super.init(nibName: nil, bundle: nil)`, and the
/// `init?(coder:)` Xcode inserts.
private final class PlaceScreen: UIViewController {
    let place: String
    init(place: String) {
        self.place = place
        super.init(nibName: nil, bundle: nil)
        title = place
    }
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
}

/// A designated `init()` (not an override: UIKit's `init()` is a convenience initialiser).
private final class SettingsScreen: UIViewController {
    let rows: [String]
    init() {
        rows = ["Dark", "Traffic"]
        super.init(nibName: nil, bundle: nil)
    }
    required init?(coder aDecoder: NSCoder) {
        rows = []
        super.init(coder: aDecoder)
    }
}

/// Overrides both designated initialisers, so `init()` is inherited, and adds a convenience initialiser.
private class BaseMapScreen: UIViewController {
    var zoom: Float = 10
    override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }
    required init?(coder aDecoder: NSCoder) { super.init(coder: aDecoder) }
    convenience init(zoom: Float) {
        self.init()
        self.zoom = zoom
    }
}

/// A subclass of a subclass, inheriting everything.
private final class CityMapScreen: BaseMapScreen {}

/// A view with `override init(frame:)`, a setup method and the coder initialiser; `init()` is inherited.
private final class BadgeView: UIView {
    let label = UILabel()
    override init(frame: CGRect) {
        super.init(frame: frame)
        addSubview(label)
    }
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
    convenience init(text: String) {
        self.init(frame: CGRect(x: 0, y: 0, width: 40, height: 20))
        label.text = text
    }
}

/// A view with its own designated `init()` calling `super.init(frame: .zero)`.
private final class LegendView: UIView {
    let entries: Int
    init() {
        entries = 3
        super.init(frame: .zero)
    }
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
}

/// A cell overriding `init(style:reuseIdentifier:)`.
private final class PlaceCell: UITableViewCell {
    override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        super.init(style: .subtitle, reuseIdentifier: reuseIdentifier)
    }
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
}

/// A navigation controller subclass with UIKit's designated initialisers.
private final class RoutesNavigationController: UINavigationController {
    override init(rootViewController: UIViewController) {
        super.init(rootViewController: rootViewController)
    }
    required init?(coder aDecoder: NSCoder) { fatalError("init(coder:) has not been implemented") }
}

/// iOS code's initialiser patterns compile unchanged and make working objects.
@MainActor @Suite struct InitialiserPatternsTests {
    @Test func viewControllerPatterns() {
        let plain = PlainScreen()
        #expect(!plain.loaded)
        _ = plain.view
        #expect(plain.loaded)
        #expect(PlainScreen(nibName: nil, bundle: nil).title == nil)
        #expect(PlaceScreen(place: "Kamppi").title == "Kamppi")
        #expect(SettingsScreen().rows == ["Dark", "Traffic"])
        #expect(BaseMapScreen(zoom: 14).zoom == 14)
        #expect(CityMapScreen().zoom == 10 && CityMapScreen(zoom: 3).zoom == 3)
        let navigation = RoutesNavigationController(rootViewController: PlaceScreen(place: "Pasila"))
        #expect(navigation.viewControllers.count == 1 && navigation.topViewController?.title == "Pasila")
        #expect(UIViewController().isViewLoaded == false)
    }

    @Test func viewAndControlPatterns() {
        #expect(BadgeView().subviews.count == 1 && BadgeView().frame == .zero)
        #expect(BadgeView(text: "3").label.text == "3")
        #expect(LegendView().entries == 3)
        #expect(PlaceCell(style: .default, reuseIdentifier: "place").reuseIdentifier == "place")
        // The controls' argument-free and frame initialisers, as iOS code calls them.
        let views: [UIView] = [
            UIView(), UILabel(), UIButton(), UIButton(type: .system), UIImageView(), UIImageView(image: nil),
            UISwitch(), UISlider(), UIStepper(), UISegmentedControl(), UISegmentedControl(items: ["A", "B"]),
            UITextField(), UITextView(), UIActivityIndicatorView(), UIActivityIndicatorView(style: .large),
            UIPickerView(), UIScrollView(), UITableView(), UITableView(frame: .zero, style: .grouped),
            UITableViewCell(), UIStackView(), UIStackView(arrangedSubviews: [UIView()]),
        ]
        #expect(views.count == 22)
        #expect(UISwitch().frame.size == CGSize(width: 51, height: 31))
        #expect(UIStackView(arrangedSubviews: [UIView(), UIView()]).arrangedSubviews.count == 2)
    }
}
