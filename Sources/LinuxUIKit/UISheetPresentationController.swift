import Foundation

/// Told when the user changes a sheet's detent, as UIKit's `UISheetPresentationControllerDelegate`.
/// - Thread rules: main actor only; called on the main actor.
@preconcurrency @MainActor public protocol UISheetPresentationControllerDelegate: AnyObject {
    /// The selected detent changed by a drag (not by setting
    /// ``UISheetPresentationController/selectedDetentIdentifier``).
    func sheetPresentationControllerDidChangeSelectedDetentIdentifier(
        _ sheetPresentationController: UISheetPresentationController)
}

extension UISheetPresentationControllerDelegate {
    /// Does nothing.
    public func sheetPresentationControllerDidChangeSelectedDetentIdentifier(
        _ sheetPresentationController: UISheetPresentationController
    ) {}
}

/// What a custom detent's resolver gets, as UIKit's `UISheetPresentationControllerDetentResolutionContext`.
@preconcurrency @MainActor public protocol UISheetPresentationControllerDetentResolutionContext {
    /// The traits of the sheet's container (the window).
    var containerTraitCollection: UITraitCollection { get }
    /// The height of the large detent, points: the most a detent may be.
    var maximumDetentValue: CGFloat { get }
}

/// How a sheet presents: as a card from the bottom edge with rounded top corners, at one of its ``detents``, as
/// UIKit's `UISheetPresentationController`.
///
/// Every controller presented with `.automatic`, `.pageSheet` or `.formSheet` (Waymark lays out as an iPhone, where a
/// form sheet is a page sheet) is a sheet and has one (``UIViewController/sheetPresentationController``). Geometry,
/// in the window (points): the large detent's card starts 10 points below the window's top safe-area inset and is as
/// tall as the rest (``maximumDetentValue``); the medium detent is half of that. The card keeps its top corners
/// rounded by ``preferredCornerRadius`` (default 10) and reaches the bottom edge. While the selected detent is larger
/// than ``largestUndimmedDetentIdentifier``, the presenter is dimmed (black at 20 %) and a tap on the dimmed area
/// dismisses the sheet (unless `isModalInPresentation`); at the large detent the presenter's view also shrinks to
/// leave 16 points on each side, with rounded corners. At an undimmed detent, touches above the card reach the
/// presenter (a map stays interactive). A vertical drag on the card moves it and, when the finger lifts, settles on
/// the nearest detent or — dragged below half of the smallest one — dismisses. Changes animate over 0.35 s on the
/// host clock.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UISheetPresentationController {
    /// A height a sheet rests at, as UIKit's `UISheetPresentationController.Detent`.
    @preconcurrency @MainActor public final class Detent {
        /// A detent's name, as UIKit's `UISheetPresentationController.Detent.Identifier`.
        public struct Identifier: Hashable, RawRepresentable, Sendable {
            /// The name.
            public var rawValue: String
            /// Creates an identifier.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// The medium (half-height) detent.
            public static let medium = Identifier(rawValue: "com.apple.UIKit.medium")
            /// The large (full-height) detent.
            public static let large = Identifier(rawValue: "com.apple.UIKit.large")
        }

        /// The detent's name.
        public let identifier: Identifier
        private let resolver: @MainActor (any UISheetPresentationControllerDetentResolutionContext) -> CGFloat?

        private init(
            identifier: Identifier,
            resolver: @escaping @MainActor (any UISheetPresentationControllerDetentResolutionContext) -> CGFloat?
        ) {
            self.identifier = identifier
            self.resolver = resolver
        }

        /// The medium detent: half of the large detent's height.
        public static func medium() -> Detent {
            Detent(identifier: .medium) { ($0.maximumDetentValue / 2).rounded() }
        }

        /// The large detent: the full sheet height.
        public static func large() -> Detent {
            Detent(identifier: .large) { $0.maximumDetentValue }
        }

        /// A detent whose height (points, clamped to 0…the maximum) `resolver` computes; a nil height leaves the
        /// detent out. A nil identifier gets a unique one.
        public static func custom(
            identifier: Identifier? = nil,
            resolver: @escaping @MainActor (any UISheetPresentationControllerDetentResolutionContext) -> CGFloat?
        ) -> Detent {
            Detent(identifier: identifier ?? Identifier(rawValue: UUID().uuidString), resolver: resolver)
        }

        /// The detent's height in `context`, or nil when it is left out.
        func resolvedValue(in context: any UISheetPresentationControllerDetentResolutionContext) -> CGFloat? {
            resolver(context).map { min(max(0, $0), context.maximumDetentValue) }
        }
    }

    /// The controller shown in the sheet.
    public private(set) weak var presentedViewController: UIViewController?
    /// The controller the sheet is presented over, while presented.
    public var presentingViewController: UIViewController? { presentedViewController?.presentingViewController }
    /// Told when a drag changes the detent; held weakly. Defaults to nil.
    open weak var delegate: (any UISheetPresentationControllerDelegate)?

    /// The heights the sheet may rest at, any order. Defaults to `[.large()]`; an empty array means `[.large()]`.
    open var detents: [Detent] = [.large()] { didSet { relayout() } }
    /// The detent the sheet rests at; nil means the smallest detent. Defaults to nil.
    open var selectedDetentIdentifier: Detent.Identifier? { didSet { relayout() } }
    /// The largest detent at which the presenter is neither dimmed nor shrunk and takes touches; nil dims at every
    /// detent. Defaults to nil.
    open var largestUndimmedDetentIdentifier: Detent.Identifier? { didSet { relayout() } }
    /// Whether a grabber (a 36 × 5 point pill, 5 points from the top, `tertiaryLabel`) shows at the card's top.
    /// Defaults to false.
    open var prefersGrabberVisible = false { didSet { relayout() } }
    /// The radius of the card's top corners, points; nil uses the system's 10. Defaults to nil.
    open var preferredCornerRadius: CGFloat? { didSet { relayout() } }
    /// Whether scrolling the sheet's content at its top edge grows the sheet; stored only. Defaults to true.
    open var prefersScrollingExpandsWhenScrolledToEdge = true
    /// Whether the sheet attaches to the bottom edge in compact height; stored only. Defaults to false.
    open var prefersEdgeAttachedInCompactHeight = false
    /// Whether an edge-attached sheet follows `preferredContentSize`'s width; stored only. Defaults to false.
    open var widthFollowsPreferredContentSizeWhenEdgeAttached = false

    /// The view the sheet is shown in while presented (the window-sized container).
    open var containerView: UIView? { container }

    /// The system's corner radius, points: 10.
    static let systemCornerRadius: CGFloat = 10
    /// The dimming colour: black at 20 %.
    static let dimmingColor = UIColor(white: 0, alpha: 0.2)

    var container: SheetContainerView?
    private weak var scaledPresenterView: UIView?
    private var savedPresenterLook: (transform: CGAffineTransform, radius: CGFloat, masks: Bool)?

    init(presented: UIViewController) { presentedViewController = presented }

    /// Runs `changes` (for example a new ``selectedDetentIdentifier``) and animates the sheet to the result over
    /// 0.35 s, as UIKit's method.
    open func animateChanges(_ changes: () -> Void) {
        changes()
        guard container != nil else { return }
        animateLayout()
    }

    /// Animates ``layout()`` over 0.35 s, then restores the presenter's corners when it grew back.
    private func animateLayout() {
        UIView.animate(
            withDuration: UIViewController.presentationDuration(.coverVertical), delay: 0, options: [.curveEaseInOut],
            animations: { self.layout() }, completion: { [weak self] _ in self?.restorePresenterCornersIfGrown() })
    }

    // MARK: Geometry

    private struct Context: UISheetPresentationControllerDetentResolutionContext {
        let containerTraitCollection: UITraitCollection
        let maximumDetentValue: CGFloat
    }

    /// The sheet's top inset in `bounds`: the top safe-area inset plus 10 points.
    private func topInset(_ container: UIView) -> CGFloat { container.safeAreaInsets.top + 10 }

    /// The detents with their heights, smallest first, in `container`.
    func resolvedDetents(in container: UIView) -> [(id: Detent.Identifier, height: CGFloat)] {
        let maximum = max(0, container.bounds.height - topInset(container))
        let context = Context(containerTraitCollection: container.traitCollection, maximumDetentValue: maximum)
        let list = (detents.isEmpty ? [.large()] : detents).compactMap { d in
            d.resolvedValue(in: context).map { (id: d.identifier, height: $0) }
        }
        return (list.isEmpty ? [(id: Detent.Identifier.large, height: maximum)] : list).sorted { $0.height < $1.height }
    }

    /// The selected detent and its height in `container`.
    private func selected(in container: UIView) -> (id: Detent.Identifier, height: CGFloat) {
        let list = resolvedDetents(in: container)
        return list.first { $0.id == selectedDetentIdentifier } ?? list[0]
    }

    /// Whether the presenter is dimmed at the selected detent.
    var isDimmed: Bool {
        guard let container else { return true }
        let list = resolvedDetents(in: container)
        guard let undimmedID = largestUndimmedDetentIdentifier,
            let undimmed = list.first(where: { $0.id == undimmedID })
        else { return true }
        return selected(in: container).height > undimmed.height
    }

    /// The card's frame in the container at the selected detent (it reaches past the bottom edge by the corner
    /// radius, so only its top corners show rounded).
    func cardFrame(in container: UIView) -> CGRect {
        let height = selected(in: container).height
        let radius = preferredCornerRadius ?? Self.systemCornerRadius
        return CGRect(
            x: 0, y: container.bounds.height - height, width: container.bounds.width, height: height + radius)
    }

    // MARK: Presenting

    /// Puts the presented view in a card in a new container over `window`; with `animated` the card starts below
    /// the bottom edge (the caller animates ``layout()``).
    func install(in window: UIWindow, presenter: UIViewController, animated: Bool) -> UIView? {
        guard let presented = presentedViewController, let view = presented.view else { return nil }
        let container = SheetContainerView(frame: window.bounds)
        container.sheet = self
        container.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        self.container = container
        container.laidOutSize = container.bounds.size
        view.autoresizingMask = []
        container.card.addSubview(view)
        container.card.addSubview(container.grabber)
        window.addSubview(container)
        scaledPresenterView = presenter.viewIfLoaded
        if animated {
            var start = cardFrame(in: container)
            start.origin.y = container.bounds.height
            container.card.frame = start
            container.dimming.alpha = 0
            layoutContent()
        } else {
            layout()
        }
        return container
    }

    /// Places card, dimming and presenter for the selected detent (inside an animation block, animated).
    func layout() {
        guard let container else { return }
        container.card.frame = cardFrame(in: container)
        layoutContent()
        let dimmed = isDimmed
        container.dimming.alpha = dimmed ? 1 : 0
        let full =
            selected(in: container).height >= resolvedDetents(in: container).last!.height
            && selected(in: container).id == .large
        setPresenterShrunk(dimmed && full, in: container)
    }

    private func layoutContent() {
        guard let container else { return }
        let radius = preferredCornerRadius ?? Self.systemCornerRadius
        let card = container.card
        card.layer.cornerRadius = radius
        let height = max(0, card.frame.height - radius)
        presentedViewController?.viewIfLoaded?.frame = CGRect(x: 0, y: 0, width: card.frame.width, height: height)
        container.grabber.isHidden = !prefersGrabberVisible
        container.grabber.frame = CGRect(x: card.frame.width / 2 - 18, y: 5, width: 36, height: 5)
        container.card.bringSubviewToFront(container.grabber)
    }

    /// Shrinks the presenter's view (16 points in from each side, top at the safe-area inset, rounded corners) or
    /// gives it back its own look.
    private func setPresenterShrunk(_ shrunk: Bool, in container: UIView) {
        guard let view = scaledPresenterView else { return }
        if shrunk {
            if savedPresenterLook == nil {
                savedPresenterLook = (view.transform, view.layer.cornerRadius, view.layer.masksToBounds)
            }
            let b = view.bounds
            guard b.width > 32, b.height > 0 else { return }
            let s = (b.width - 32) / b.width
            let dy = container.safeAreaInsets.top - b.height * (1 - s) / 2
            view.layer.cornerRadius = preferredCornerRadius ?? Self.systemCornerRadius
            view.layer.masksToBounds = true
            view.transform = CGAffineTransform(translationX: 0, y: dy).scaledBy(x: s, y: s)
        } else if let saved = savedPresenterLook {
            view.transform = saved.transform
            // Corner radius and masking return once the transform animation has ended (restorePresenter()).
        }
    }

    /// Gives the presenter's view its own look back and forgets the container (after dismissal).
    func tearDown() {
        if let view = scaledPresenterView, let saved = savedPresenterLook {
            view.transform = saved.transform
            view.layer.cornerRadius = saved.radius
            view.layer.masksToBounds = saved.masks
        }
        savedPresenterLook = nil
        scaledPresenterView = nil
        container?.removeFromSuperview()
        container = nil
    }

    /// Animates the card off the bottom edge and the presenter back (the dismissal's animation block).
    func layoutDismissed() {
        guard let container else { return }
        var frame = container.card.frame
        frame.origin.y = container.bounds.height
        container.card.frame = frame
        container.dimming.alpha = 0
        setPresenterShrunk(false, in: container)
    }

    /// Restores the presenter's corner look when no longer shrunk (after an animation that grew it back).
    func restorePresenterCornersIfGrown() {
        guard let container, let view = scaledPresenterView, let saved = savedPresenterLook else { return }
        let full = selected(in: container).id == .large
        if !(isDimmed && full) {
            view.layer.cornerRadius = saved.radius
            view.layer.masksToBounds = saved.masks
            savedPresenterLook = nil
        }
    }

    private func relayout() {
        guard container != nil else { return }
        layout()
        restorePresenterCornersIfGrown()
    }

    // MARK: Dragging

    private var dragStartY: CGFloat?
    private var dragStartCardY: CGFloat = 0

    /// Whether a finger drags the card now.
    var dragging: Bool { dragStartY != nil }

    func dragBegan(at y: CGFloat) {
        guard let container else { return }
        dragStartY = y
        dragStartCardY = container.card.frame.minY
    }

    func dragMoved(to y: CGFloat) {
        guard let container, let start = dragStartY else { return }
        let list = resolvedDetents(in: container)
        let highest = container.bounds.height - list.last!.height
        var frame = container.card.frame
        frame.origin.y = max(highest, dragStartCardY + (y - start))
        container.card.frame = frame
    }

    func dragEnded(at y: CGFloat) {
        guard let container, dragStartY != nil else { return }
        dragStartY = nil
        let shownHeight = container.bounds.height - container.card.frame.minY
        let list = resolvedDetents(in: container)
        let presented = presentedViewController
        if shownHeight < list[0].height / 2, presented?.isModalInPresentation == false {
            presented?.dismiss(animated: true)
            return
        }
        let nearest = list.min { abs($0.height - shownHeight) < abs($1.height - shownHeight) }!
        let changed = nearest.id != selected(in: container).id
        selectedDetentIdentifier = nearest.id
        container.card.frame = CGRect(
            origin: CGPoint(x: 0, y: container.bounds.height - shownHeight),
            size: container.card.frame.size)
        animateLayout()
        if changed { delegate?.sheetPresentationControllerDidChangeSelectedDetentIdentifier(self) }
    }
}

/// The window-sized view a sheet is shown in: the dimming view and the card. Touches reach it only on the card or,
/// while dimmed, on the dimming view; elsewhere they pass to the views behind.
@MainActor final class SheetContainerView: UIView {
    weak var sheet: UISheetPresentationController?
    let dimming = SheetDimmingView()
    let card = SheetCardView()
    let grabber = SheetGrabberView()

    override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
        dimming.frame = bounds
        dimming.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        addSubview(dimming)
        addSubview(card)
    }

    required init?(coder: NSCoder) { nil }

    /// The size the sheet was last laid out for.
    var laidOutSize: CGSize = .zero

    override func layoutSubviews() {
        dimming.frame = bounds
        guard bounds.size != laidOutSize, let sheet, !sheet.dragging else { return }
        laidOutSize = bounds.size
        sheet.layout()
    }

    override func point(inside point: CGPoint, with event: AnyObject?) -> Bool {
        guard bounds.contains(point) else { return false }
        if sheet?.isDimmed ?? true { return true }
        return card.frame.contains(point)
    }
}

/// The dimming view behind a sheet: a tap dismisses the sheet unless the presented controller is modal.
@MainActor final class SheetDimmingView: UIView, UITouchResponder {
    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = UISheetPresentationController.dimmingColor
    }

    required init?(coder: NSCoder) { nil }

    func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let container = superview as? SheetContainerView, let sheet = container.sheet,
            let presented = sheet.presentedViewController, !presented.isModalInPresentation,
            let touch = touches.first, bounds.contains(touch.location(in: self))
        else { return }
        presented.dismiss(animated: true)
    }
}

/// A sheet's card: clips the presented view to its rounded top corners; drags on it (that its content does not
/// take) move the sheet between detents.
@MainActor final class SheetCardView: UIView, UITouchResponder {
    override init(frame: CGRect) {
        super.init(frame: frame)
        clipsToBounds = true
        backgroundColor = .systemBackground
    }

    required init?(coder: NSCoder) { nil }

    private var sheet: UISheetPresentationController? { (superview as? SheetContainerView)?.sheet }

    private func y(_ touches: Set<UITouch>) -> CGFloat? {
        guard let window = superview else { return nil }
        return touches.first?.location(in: window).y
    }

    func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        if let y = y(touches) { sheet?.dragBegan(at: y) }
    }

    func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        if let y = y(touches) { sheet?.dragMoved(to: y) }
    }

    func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        if let y = y(touches) { sheet?.dragEnded(at: y) }
    }

    func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        if let y = y(touches) { sheet?.dragEnded(at: y) }
    }
}

/// The grabber pill at a sheet's top.
@MainActor final class SheetGrabberView: UIView {
    override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
        isUserInteractionEnabled = false
    }

    required init?(coder: NSCoder) { nil }

    override func draw(_ rect: CGRect) {
        UIColor.tertiaryLabel.setFill()
        UIBezierPath(roundedRect: bounds, cornerRadius: bounds.height / 2).fill()
    }
}

extension UIViewController {
    /// The sheet presentation controller, as UIKit's property: one (kept for the controller's life) while
    /// ``modalPresentationStyle`` is `.automatic`, `.pageSheet` or `.formSheet`, otherwise nil. Set its detents
    /// before presenting.
    public var sheetPresentationController: UISheetPresentationController? {
        guard presentsAsSheet else { return nil }
        if let sheet = links.presentation.sheet { return sheet }
        let sheet = UISheetPresentationController(presented: self)
        links.presentation.sheet = sheet
        return sheet
    }

    /// Whether the controller presents as a sheet: `.automatic`, `.pageSheet` or `.formSheet`.
    var presentsAsSheet: Bool { [.automatic, .pageSheet, .formSheet].contains(modalPresentationStyle) }

    /// Whether the controller refuses interactive dismissal (a tap on the dimmed area, a drag down), as UIKit's
    /// property. Defaults to false.
    public var isModalInPresentation: Bool {
        get { links.presentation.isModalInPresentation }
        set { links.presentation.isModalInPresentation = newValue }
    }
}
