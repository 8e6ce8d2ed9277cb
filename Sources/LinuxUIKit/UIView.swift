import CCairo
import Foundation

/// A rectangular area of the screen with content, subviews, geometry and animatable appearance, as UIKit's
/// `UIView`.
///
/// Geometry lives in the view's ``layer``: ``frame`` is in the superview's coordinates, ``bounds`` is the view's own
/// space (points, origin top-left, y down), ``center`` is the middle of the frame and ``transform`` applies about the
/// centre. Changing ``alpha``, ``backgroundColor``, ``tintColor``, ``transform``, ``bounds``, ``frame`` or ``center``
/// inside a `UIView.animate` block animates it (see `UIView+Animation.swift`); outside a block the change is immediate
/// and stops any animation of that property.
///
/// Drawing: ``draw(_:)`` for subclasses, then subviews back to front, clipped when ``clipsToBounds``; the whole tree
/// renders into an image with `layer.render(in:)` or ``renderImage(scale:)``. There is no window or event handling:
/// Waymark's map snapshots views (marker icon views, info windows) and draws them itself.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIView {
    /// The layer class for new views; subclasses override to use a `CALayer` subclass. Defaults to `CALayer`.
    open class var layerClass: CALayer.Type { CALayer.self }

    /// The backing layer (geometry, background, border, shadow, corner radius, animations): an instance of
    /// ``layerClass``. Subclasses may override it with their layer class's type, as UIKit's `GMSMapView.layer` is a
    /// `GMSMapLayer` (return `super.layer` cast).
    open var layer: CALayer { backingLayer }
    /// The layer made at initialisation.
    private let backingLayer: CALayer

    /// Creates a view occupying `frame` (superview coordinates, points).
    public init(frame: CGRect) {
        backingLayer = Self.layerClass.init()
        backingLayer.owningView = self
        backingLayer.frame = frame
        backingLayer.bounds.origin = .zero
    }

    /// Creates a view with a zero frame.
    public convenience init() { self.init(frame: .zero) }

    /// Interface Builder archives do not exist on Linux: creates an empty zero-frame view, ignoring `coder`.
    public required init?(coder: NSCoder) {
        backingLayer = Self.layerClass.init()
        backingLayer.owningView = self
    }

    // MARK: Geometry

    /// The rectangle in the superview's coordinates, points: with a non-identity ``transform``, the bounding box of
    /// the transformed bounds. Setting it sets ``center`` and the size of ``bounds`` (both animatable).
    open var frame: CGRect {
        get { layer.frame }
        set {
            center = CGPoint(x: newValue.midX, y: newValue.midY)
            bounds = CGRect(origin: bounds.origin, size: newValue.size)
        }
    }

    /// The view's own coordinate space, points; origin defaults to `.zero`. Animatable. Changing the size asks for
    /// layout (``setNeedsLayout()``).
    open var bounds: CGRect {
        get { layer.bounds }
        set {
            let oldSize = layer.bounds.size
            let sizeChanged = newValue.size != oldSize
            change("bounds", to: newValue) { layer.bounds = newValue }
            if sizeChanged {
                setNeedsLayout()
                if autoresizesSubviews {
                    for sub in subviews { sub.autoresize(superviewSize: oldSize, to: newValue.size) }
                }
            }
        }
    }

    /// The centre of the frame in the superview's coordinates, points. Animatable.
    open var center: CGPoint {
        get { layer.position }
        set { change("position", to: newValue) { layer.position = newValue } }
    }

    /// The transform applied about the centre. Defaults to `.identity`. Animatable.
    open var transform: CGAffineTransform {
        get { layer.affineTransform() }
        set { change("transform", to: newValue) { layer.setAffineTransform(newValue) } }
    }

    // MARK: Appearance

    /// Opacity, `0...1`; 0 hides the view and its subviews. Defaults to 1. Animatable.
    open var alpha: CGFloat {
        get { CGFloat(layer.opacity) }
        set {
            let v = Float(min(max(newValue, 0), 1))
            change("opacity", to: v) { layer.opacity = v }
        }
    }

    /// When true, the view and its subviews are not drawn. Defaults to `false`. Not animatable.
    open var isHidden: Bool {
        get { layer.isHidden }
        set {
            let changed = layer.isHidden != newValue
            layer.isHidden = newValue
            if changed { superview?.subviewArrangementDidChange(self) }
        }
    }

    /// Called when a subview's ``isHidden`` changed or it is leaving (a stack view re-arranges). The default does
    /// nothing.
    func subviewArrangementDidChange(_ subview: UIView) {}

    /// The fill behind the content, or nil (transparent). Defaults to nil. Animatable.
    /// A dynamic colour is resolved for the view's ``traitCollection`` and again whenever it changes.
    open var backgroundColor: UIColor? {
        get { backgroundColorAsSet }
        set {
            let cg = layerBackground(for: newValue)
            change("backgroundColor", to: cg ?? UIColor.clear.cgColor) { layer.backgroundColor = cg }
        }
    }

    private var ownTintColor: UIColor?

    /// The colour template images and tinted controls use. Reading gives the view's own tint, else the nearest
    /// ancestor's, else `.systemBlue`; setting nil returns to inheriting. Animatable; subviews that inherit follow
    /// the animation.
    open var tintColor: UIColor! {
        get { ownTintColor ?? superview?.tintColor ?? .systemBlue }
        set {
            let old = tintColor
            let target = newValue ?? superview?.tintColor ?? .systemBlue
            change("tintColor", to: target) { ownTintColor = newValue }
            if old != tintColor { notifyTintChange() }
        }
    }

    /// Called when the effective ``tintColor`` changes (for this view, then its subviews). Override to react;
    /// the default does nothing.
    open func tintColorDidChange() {}

    private func notifyTintChange() {
        setNeedsDisplay()
        tintColorDidChange()
        for sub in subviews where sub.ownTintColor == nil { sub.notifyTintChange() }
    }

    /// The tint shown at the animator clock's time (own animation, else own tint, else the parent's presented tint).
    var presentedTintColor: UIColor {
        if !layer.animationEntries(forKeyPath: "tintColor").isEmpty,
            let c = layer.presentationValue(forKey: "tintColor") as? UIColor
        {
            return c
        }
        return ownTintColor ?? superview?.presentedTintColor ?? .systemBlue
    }

    /// When true, content and subviews are clipped to the bounds (rounded by `layer.cornerRadius`). Defaults to
    /// `false`.
    open var clipsToBounds: Bool {
        get { layer.masksToBounds }
        set { layer.masksToBounds = newValue }
    }

    /// Whether the view claims to be fully opaque; informational. Defaults to `true`, as UIKit.
    open var isOpaque = true
    /// Whether the view would take touches; informational (Waymark's map does its own hit testing). Defaults to
    /// `true`.
    open var isUserInteractionEnabled = true
    /// A number to find the view with ``viewWithTag(_:)``. Defaults to 0.
    open var tag = 0
    /// How content (an image view's image) is placed in the bounds. Defaults to `.scaleToFill`.
    open var contentMode: ContentMode = .scaleToFill {
        didSet { setNeedsDisplay() }
    }
    /// A label for assistive technologies; stored only.
    open var accessibilityLabel: String?
    /// A hint for assistive technologies; stored only. Defaults to nil.
    open var accessibilityHint: String?
    /// A value for assistive technologies; stored only. Defaults to nil.
    open var accessibilityValue: String?
    /// A name for UI tests to find the view by (UIAccessibilityIdentification); stored only. Defaults to nil.
    open var accessibilityIdentifier: String?
    /// Whether assistive technologies treat the view as one element; stored only. Defaults to false.
    open var isAccessibilityElement = false
    /// What the element is and does for assistive technologies; stored only. Defaults to none.
    open var accessibilityTraits: UIAccessibilityTraits = .none
    /// Whether the view and its subviews are hidden from assistive technologies; stored only. Defaults to false.
    open var accessibilityElementsHidden = false

    /// How a view places its content in its bounds, as UIKit's `UIView.ContentMode`.
    public enum ContentMode: Int, Sendable {
        /// Stretch to fill the bounds exactly.
        case scaleToFill = 0
        /// Scale keeping the aspect ratio until it fits; centred.
        case scaleAspectFit = 1
        /// Scale keeping the aspect ratio until it fills the bounds; centred, overflow cropped by the clip only.
        case scaleAspectFill = 2
        /// Redraw on bounds change; placed like `.scaleToFill`.
        case redraw = 3
        /// Natural size, centred.
        case center = 4
        /// Natural size, top edge centred.
        case top = 5
        /// Natural size, bottom edge centred.
        case bottom = 6
        /// Natural size, left edge centred.
        case left = 7
        /// Natural size, right edge centred.
        case right = 8
        /// Natural size, top-left corner.
        case topLeft = 9
        /// Natural size, top-right corner.
        case topRight = 10
        /// Natural size, bottom-left corner.
        case bottomLeft = 11
        /// Natural size, bottom-right corner.
        case bottomRight = 12
    }

    // MARK: Hierarchy

    /// The subviews, back to front.
    public private(set) var subviews: [UIView] = []
    /// The view this one is a subview of.
    public private(set) weak var superview: UIView?

    /// Adds `view` on top of the subviews (moving it from its old superview). Adding a view to itself or to one of
    /// its own descendants is a programmer error.
    open func addSubview(_ view: UIView) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` (clamped to `0...subviews.count`).
    /// - Precondition: `view` is not `self` and not an ancestor of `self`.
    open func insertSubview(_ view: UIView, at index: Int) {
        precondition(view !== self && !isDescendant(of: view), "UIView: adding a view to its own subtree")
        let oldTint = view.tintColor
        if view.superview === self, let old = subviews.firstIndex(where: { $0 === view }) {
            subviews.remove(at: old)
        } else {
            view.removeFromSuperview()
        }
        let i = min(max(index, 0), subviews.count)
        subviews.insert(view, at: i)
        view.superview = self
        LayoutEngine.subviewAdded(view, to: self)
        rebuildSublayers()
        setNeedsLayout()
        view.updateTraitsInSubtree()
        if view.tintColor != oldTint { view.notifyTintChange() }
        view.didMoveToSuperview()
    }

    /// Inserts `view` just above `siblingSubview` (at the top when the sibling is not a subview).
    open func insertSubview(_ view: UIView, aboveSubview siblingSubview: UIView) {
        let i = subviews.firstIndex { $0 === siblingSubview }.map { $0 + 1 } ?? subviews.count
        insertSubview(view, at: i)
    }

    /// Inserts `view` just below `siblingSubview` (at the bottom when the sibling is not a subview).
    open func insertSubview(_ view: UIView, belowSubview siblingSubview: UIView) {
        insertSubview(view, at: subviews.firstIndex { $0 === siblingSubview } ?? 0)
    }

    /// Detaches the view from its superview; nothing happens when it has none.
    open func removeFromSuperview() {
        guard let parent = superview else { return }
        let oldTint = tintColor
        LayoutEngine.subviewWillBeRemoved(self, from: parent)
        parent.subviews.removeAll { $0 === self }
        superview = nil
        parent.subviewArrangementDidChange(self)
        LayoutEngine.subviewRemoved(self)
        parent.rebuildSublayers()
        parent.setNeedsLayout()
        if tintColor != oldTint { notifyTintChange() }
        didMoveToSuperview()
    }

    /// Moves `view` (a subview) to the top; ignored for other views.
    open func bringSubviewToFront(_ view: UIView) {
        guard let i = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.append(subviews.remove(at: i))
        rebuildSublayers()
    }

    /// Moves `view` (a subview) to the bottom; ignored for other views.
    open func sendSubviewToBack(_ view: UIView) {
        guard let i = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.insert(subviews.remove(at: i), at: 0)
        rebuildSublayers()
    }

    /// Swaps the subviews at two indices; ignored when either is out of range.
    open func exchangeSubview(at index1: Int, withSubviewAt index2: Int) {
        guard subviews.indices.contains(index1), subviews.indices.contains(index2) else { return }
        subviews.swapAt(index1, index2)
        rebuildSublayers()
    }

    /// True when `view` is this view or one of its ancestors.
    public func isDescendant(of view: UIView) -> Bool {
        var v: UIView? = self
        while let current = v {
            if current === view { return true }
            v = current.superview
        }
        return false
    }

    /// This view or the first descendant (depth first, front to back order of `subviews`) whose ``tag`` is `tag`.
    public func viewWithTag(_ tag: Int) -> UIView? {
        if self.tag == tag { return self }
        for sub in subviews {
            if let found = sub.viewWithTag(tag) { return found }
        }
        return nil
    }

    /// Called after the view moved to a new superview (or was removed). The default does nothing.
    open func didMoveToSuperview() {}

    /// Keeps the layer tree in step with `subviews`; extra sublayers added directly to the layer stay on top.
    private func rebuildSublayers() {
        let viewLayers = subviews.map(\.layer)
        let others = (layer.sublayers ?? []).filter { sub in sub.owningView == nil }
        for sub in layer.sublayers ?? [] { sub.removeFromSuperlayer() }
        for sub in viewLayers + others { layer.addSublayer(sub) }
    }

    // MARK: Coordinates

    /// The transform from this view's bounds coordinates to its superview's bounds coordinates.
    var transformToSuperview: CGAffineTransform {
        let size = layer.bounds.size
        return CGAffineTransform(
            translationX: -layer.bounds.minX - layer.anchorPoint.x * size.width,
            y: -layer.bounds.minY - layer.anchorPoint.y * size.height
        )
        .concatenating(layer.affineTransform())
        .concatenating(CGAffineTransform(translationX: layer.position.x, y: layer.position.y))
    }

    private var transformToRoot: CGAffineTransform {
        var t = CGAffineTransform.identity
        var v: UIView? = self
        while let current = v, current.superview != nil {
            t = t.concatenating(current.transformToSuperview)
            v = current.superview
        }
        return t
    }

    /// Converts a point from this view's coordinates to `view`'s (to the root's when nil). Views in different trees
    /// give meaningless results, as UIKit.
    public func convert(_ point: CGPoint, to view: UIView?) -> CGPoint {
        let toRoot = point.applying(transformToRoot)
        return view.map { toRoot.applying($0.transformToRoot.inverted()) } ?? toRoot
    }

    /// Converts a point from `view`'s coordinates (the root's when nil) to this view's.
    public func convert(_ point: CGPoint, from view: UIView?) -> CGPoint {
        let root = view.map { point.applying($0.transformToRoot) } ?? point
        return root.applying(transformToRoot.inverted())
    }

    /// Converts a rectangle from this view's coordinates to `view`'s: the bounding box of its converted corners.
    public func convert(_ rect: CGRect, to view: UIView?) -> CGRect {
        let t = transformToRoot.concatenating(view?.transformToRoot.inverted() ?? .identity)
        return rect.applying(t)
    }

    /// True when `point` (view coordinates) lies inside ``bounds``.
    open func point(inside point: CGPoint, with event: AnyObject?) -> Bool { bounds.contains(point) }

    // MARK: Sizing and layout

    /// The size the view would like within `size`, points. The default returns the current bounds size; image
    /// views and labels compute theirs.
    open func sizeThatFits(_ size: CGSize) -> CGSize { bounds.size }

    /// Resizes the bounds to ``sizeThatFits(_:)`` of the current size, keeping the frame's top-left corner.
    open func sizeToFit() {
        let origin = frame.origin
        let size = sizeThatFits(bounds.size)
        frame = CGRect(origin: origin, size: size)
    }

    /// The natural content size, points; `UIView.noIntrinsicMetric` (-1) per dimension when there is none.
    open var intrinsicContentSize: CGSize { CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric) }

    /// The "no natural size" value of ``intrinsicContentSize`` dimensions: -1.
    public static let noIntrinsicMetric: CGFloat = -1

    private var layoutRequested = true

    /// Asks for ``layoutSubviews()`` before the next render or ``layoutIfNeeded()``.
    open func setNeedsLayout() { layoutRequested = true }

    /// Lays out this view (if requested) and then its subviews, top-down. Rendering calls it first. For the root
    /// view of a view controller, the controller's `viewWillLayoutSubviews()` and `viewDidLayoutSubviews()` bracket
    /// ``layoutSubviews()``.
    open func layoutIfNeeded() {
        LayoutEngine.updateIfNeeded(from: self, requested: layoutRequested)
        if layoutRequested {
            layoutRequested = false
            let controller = owningViewController
            UITraitCollection.with(traitCollection) {
                controller?.viewWillLayoutSubviews()
                layoutSubviews()
                controller?.viewDidLayoutSubviews()
            }
        }
        for sub in subviews { sub.layoutIfNeeded() }
    }

    /// True when this view or a descendant asked for layout since the last pass.
    var needsLayoutInTree: Bool {
        layoutRequested || subviews.contains { $0.needsLayoutInTree }
    }

    /// True when this view or a descendant asked for display or layout since it was last drawn: what a view drawn
    /// into an image (a map marker's icon view that tracks its changes) must be drawn again for. Package plumbing.
    package var needsRedrawInTree: Bool {
        layoutRequested || layer.needsDisplay() || subviews.contains { $0.needsRedrawInTree }
    }

    /// The view controller whose root view this is (set when the controller loads it).
    weak var owningViewController: UIViewController? {
        didSet { if superview != nil, owningViewController !== oldValue { updateTraitsInSubtree() } }
    }

    // MARK: Traits (see UIView+Appearance.swift)

    /// The style override, the traits last reported and the dynamic background (UIView+Appearance.swift).
    var appearance = ViewAppearance()

    /// Called after the view's ``traitCollection`` changed (an `overrideUserInterfaceStyle` above or on it, the app's
    /// style, a move into a hierarchy with other traits), with ``UITraitCollection/current`` set to the new traits;
    /// `previousTraitCollection` is the traits before. The default does nothing; dynamic colours set as
    /// ``backgroundColor`` are already re-resolved, and the view is marked for display.
    open func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {}

    /// How the view's frame follows its superview's size changes, as UIKit's `UIView.AutoresizingMask`.
    public struct AutoresizingMask: OptionSet, Sendable {
        /// The mask's bits.
        public let rawValue: UInt
        /// Creates a mask from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The left margin stretches.
        public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
        /// The width stretches.
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        /// The right margin stretches.
        public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
        /// The top margin stretches.
        public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
        /// The height stretches.
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
        /// The bottom margin stretches.
        public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)
    }

    /// How the frame changes when the superview's bounds change size: the size change of each axis is shared by
    /// its flexible parts (margins, size) in proportion to their current lengths (equally when all are 0). Defaults
    /// to `[]` (the frame keeps its origin and size). `[.flexibleWidth, .flexibleHeight]` keeps a view filling its
    /// superview.
    open var autoresizingMask: AutoresizingMask = []

    /// Whether subviews follow their ``autoresizingMask`` when this view's size changes. Defaults to true.
    open var autoresizesSubviews = true

    private func autoresize(superviewSize old: CGSize, to new: CGSize) {
        let mask = autoresizingMask
        guard !mask.isEmpty, old.width.isFinite, old.height.isFinite else { return }
        let f = frame
        func share(_ lengths: [CGFloat], _ flexible: [Bool], _ delta: CGFloat) -> [CGFloat] {
            let total = zip(lengths, flexible).reduce(0) { $0 + ($1.1 ? max(0, $1.0) : 0) }
            let count = CGFloat(flexible.filter { $0 }.count)
            guard count > 0 else { return lengths }
            return zip(lengths, flexible).map { length, isFlexible in
                guard isFlexible else { return length }
                return length + (total > 0 ? delta * max(0, length) / total : delta / count)
            }
        }
        let x = share(
            [f.minX, f.width, old.width - f.maxX],
            [mask.contains(.flexibleLeftMargin), mask.contains(.flexibleWidth), mask.contains(.flexibleRightMargin)],
            new.width - old.width)
        let y = share(
            [f.minY, f.height, old.height - f.maxY],
            [mask.contains(.flexibleTopMargin), mask.contains(.flexibleHeight), mask.contains(.flexibleBottomMargin)],
            new.height - old.height)
        let resized = CGRect(x: x[0], y: y[0], width: max(0, x[1]), height: max(0, y[1]))
        if resized != f { frame = resized }
    }

    /// The window this view is in (the nearest ``UIWindow`` ancestor, or the view itself), or nil.
    public var window: UIWindow? {
        var v: UIView? = self
        while let current = v {
            if let w = current as? UIWindow { return w }
            v = current.superview
        }
        return nil
    }

    /// Insets of the area not covered by bars or rounded corners, points. Linux windows have none: `.zero` (a
    /// ``UIWindow`` reports its own, also `.zero`).
    open var safeAreaInsets: UIEdgeInsets { window.map { $0 === self ? .zero : $0.safeAreaInsets } ?? .zero }

    /// Override to position subviews; the default does nothing (frames from Auto Layout are written before it
    /// runs, see `Layout/LayoutEngine.swift`).
    open func layoutSubviews() {}

    // MARK: Auto Layout (the rest is in Layout/UIView+AutoLayout.swift)

    /// The view's Auto Layout state (constraints, guides, priorities), made on first use.
    var autoLayoutStorage: ViewLayoutState?

    /// Whether the view's frame is fixed in Auto Layout (true: the engine keeps the frame as set, relative to the
    /// superview, as UIKit's autoresizing-mask constraints do) or solved from constraints (false: the layout pass
    /// writes the frame). Set false on every view you position with constraints. Defaults to true.
    open var translatesAutoresizingMaskIntoConstraints = true {
        didSet {
            if oldValue != translatesAutoresizingMaskIntoConstraints, LayoutEngine.engine(of: self) != nil {
                LayoutEngine.structureDidChange(at: self)
            }
        }
    }

    /// Override to add or change constraints before the layout pass that follows ``setNeedsUpdateConstraints()``;
    /// UIKit asks overrides to call super last. Called deepest views first. The default does nothing.
    open func updateConstraints() {}

    // MARK: Drawing

    /// Marks the content for redrawing, as UIKit's method: what ``draw(_:)`` drew is kept (as a layer's backing store)
    /// and composited on later frames until this is called, or the bounds, the traits or the window's scale change.
    /// Call it whenever something ``draw(_:)`` reads changes. UIKit's own views call it for their properties, and
    /// trait and tint changes call it. The map also uses the flag to decide whether a snapshot is stale.
    open func setNeedsDisplay() { layer.setNeedsDisplay() }

    /// Override to draw content with `UIGraphicsGetCurrentContext()`, in bounds coordinates (points); `rect` is the
    /// bounds. Called during rendering, after the background and before the subviews, when the content is not kept
    /// from an earlier frame (see ``setNeedsDisplay()``). The default draws nothing.
    open func draw(_ rect: CGRect) {}

    /// True when the content drawn depends on the time (an animated image), so it must not be kept between frames.
    /// Defaults to false.
    var contentChangesOverTime: Bool { false }

    /// Draws the view's own content (after the background) into `cr`, whose user space is the view's bounds space.
    /// Image views and labels override it; the default calls ``draw(_:)`` with a current context.
    func drawContent(in cr: OpaquePointer, bounds: CGRect) {
        let context = CGContext(cairo: cr)
        cairo_save(cr)
        UIGraphicsPushContext(context)
        draw(bounds)
        UIGraphicsPopContext()
        cairo_restore(cr)
    }

    /// Draws the whole view tree, as shown, into the current graphics context (`UIGraphicsGetCurrentContext()`,
    /// for example inside `UIGraphicsImageRenderer.image { … }`), scaled to fill `rect` (points of that context), as
    /// UIKit's method. Presented (animated) values are drawn; with `afterScreenUpdates` pending layout is done first
    /// (rendering always lays out, so both values draw the same).
    /// - Returns: false when there is no current context or the view has an empty size, else true.
    @discardableResult
    open func drawHierarchy(in rect: CGRect, afterScreenUpdates: Bool) -> Bool {
        guard let context = UIGraphicsGetCurrentContext(), bounds.width > 0, bounds.height > 0 else { return false }
        if afterScreenUpdates { layoutIfNeeded() }
        context.saveGState()
        context.translateBy(x: rect.minX, y: rect.minY)
        context.scaleBy(x: rect.width / bounds.width, y: rect.height / bounds.height)
        layer.render(in: context)
        context.restoreGState()
        return true
    }

    /// Renders the view tree (the view's bounds, its own opacity but not its own transform or position,
    /// like `layer.render(in:)`) into a new image at `scale` pixels per point (values ≤ 0 mean 1). Calls
    /// ``UIAnimator/tick()`` and ``layoutIfNeeded()`` first; presented (animated) values are drawn. This is the
    /// snapshot Waymark's map takes of marker icon views and custom info windows.
    package func renderImage(scale: CGFloat) -> UIImage { renderImage(scale: scale, reusing: nil) }

    /// ``renderImage(scale:)`` drawn into `bitmap` (cleared first) when it has the image's pixel size (the window
    /// host's previous frame), else into a new bitmap.
    func renderImage(scale: CGFloat, reusing bitmap: CairoBitmap?) -> UIImage {
        let format = UIGraphicsImageRendererFormat()
        format.scale = scale > 0 && scale.isFinite ? scale : 1
        return UIGraphicsImageRenderer(size: bounds.size, format: format).image(reusing: bitmap) { context in
            layer.render(in: context.cgContext)
        }
    }

    // MARK: Description

    /// A one-line description, cheap whatever the view holds: `<GMSMapView: 0x…; frame = (0 0; 400 300)>` (class
    /// name, identity, ``frame`` in points), then only the fields that differ from their defaults (`hidden = YES`,
    /// `alpha = 0.5`, `tag = 7`, `clipsToBounds = YES`, `subviews = 2`, a count only). It never walks the layer,
    /// the subviews or a subclass's state, so printing a map view or an expectation failure about one stays short.
    /// Non-finite geometry is written as Swift prints it (`nan`). Overrides should stay as cheap.
    open var description: String {
        var fields = ["frame = \(describeRect(frame))"]
        if isHidden { fields.append("hidden = YES") }
        if alpha != 1 { fields.append("alpha = \(describeNumber(alpha))") }
        if tag != 0 { fields.append("tag = \(tag)") }
        if clipsToBounds { fields.append("clipsToBounds = YES") }
        if !subviews.isEmpty { fields.append("subviews = \(subviews.count)") }
        let identity = Unmanaged.passUnretained(self).toOpaque()
        return "<\(type(of: self)): \(identity); " + fields.joined(separator: "; ") + ">"
    }

    /// The same line as ``description`` (what `String(reflecting:)` and debuggers show).
    open var debugDescription: String { description }

    /// A flat mirror for reflection (test frameworks expanding a failed expectation's operands, `dump`): subject type
    /// `UIView` for every subclass (``description`` names the class), five children (`frame`, `isHidden`, `alpha`,
    /// `tag`, `subviewCount`), no ancestors; never the layer, the subview tree or a subclass's stored properties (a
    /// map view's renderer and caches took seconds to minutes to walk).
    open var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "frame": frame, "isHidden": isHidden, "alpha": alpha, "tag": tag, "subviewCount": subviews.count,
            ],
            displayStyle: .class, ancestorRepresentation: .suppressed)
    }

    // MARK: Animation plumbing

    /// Values of view-level animatable keys (`"tintColor"`) for the layer's key-value access.
    func animatableValue(forKey key: String) -> Any? {
        key == "tintColor" ? tintColor : nil
    }

    func setAnimatableValue(_ value: Any?, forKey key: String) {
        if key == "tintColor" { ownTintColor = value as? UIColor }
    }

    /// Applies a model change, animating it from the presented value when inside an animation block; outside one,
    /// stops any animation of that key.
    func change(_ keyPath: String, to newValue: Any, apply: () -> Void) {
        guard UIView.currentAnimationContext != nil else {
            layer.removeEntries(forKeyPath: keyPath)
            apply()
            return
        }
        let from = layer.presentationValue(forKey: keyPath)
        let oldModel = layer.value(forKey: keyPath)
        apply()
        if isSameValue(oldModel, newValue) && layer.animationEntries(forKeyPath: keyPath).isEmpty { return }
        layer.addViewAnimation(forKey: keyPath, from: from, to: newValue)
    }
}

private func isSameValue(_ a: Any?, _ b: Any?) -> Bool {
    guard let a = a as? AnyHashable, let b = b as? AnyHashable else { return false }
    return a == b
}

/// Views describe and reflect themselves cheaply (``UIView/description``, ``UIView/customMirror``), on the main actor
/// like the rest of the view.
extension UIView: @MainActor CustomStringConvertible, @MainActor CustomDebugStringConvertible,
    @MainActor CustomReflectable
{}

/// `(x y; width height)`, as UIKit writes frames.
private func describeRect(_ rect: CGRect) -> String {
    let parts = [rect.origin.x, rect.origin.y, rect.width, rect.height].map(describeNumber)
    return "(\(parts[0]) \(parts[1]); \(parts[2]) \(parts[3]))"
}

/// A whole number without a fraction (`400`); anything else as Swift prints it (`0.5`, `nan`, `inf`).
private func describeNumber(_ value: CGFloat) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
}
