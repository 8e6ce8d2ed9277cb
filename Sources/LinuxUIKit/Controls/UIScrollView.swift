import Foundation

/// What a scroll view tells its delegate, as UIKit's `UIScrollViewDelegate`. Every method has an empty default.
/// Table and text view delegates refine it.
@preconcurrency @MainActor public protocol UIScrollViewDelegate: AnyObject {
    /// ``UIScrollView/contentOffset`` changed (dragging, animation or code).
    func scrollViewDidScroll(_ scrollView: UIScrollView)
    /// A drag began (the finger moved 10 points).
    func scrollViewWillBeginDragging(_ scrollView: UIScrollView)
    /// The dragging finger lifted; `decelerate` is always false (Waymark's scroll views stop where left).
    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool)
    /// An animated ``UIScrollView/setContentOffset(_:animated:)`` finished.
    func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView)
}

extension UIScrollViewDelegate {
    /// Does nothing.
    public func scrollViewDidScroll(_ scrollView: UIScrollView) {}
    /// Does nothing.
    public func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {}
    /// Does nothing.
    public func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {}
    /// Does nothing.
    public func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView) {}
}

/// A view whose content is larger than its bounds and is moved by dragging, as UIKit's `UIScrollView`.
///
/// ``contentOffset`` is the bounds origin: the content point shown at the top-left corner. A finger that moves more
/// than 10 points starts a drag (`scrollViewWillBeginDragging(_:)`); the content then follows the finger along the
/// axes that scroll (content larger than the bounds, or ``alwaysBounceVertical``/``alwaysBounceHorizontal``),
/// clamped to the content's edges plus ``contentInset`` (no rubber band and no deceleration: the content stops
/// where the finger lifts). A touch that does not drag is a tap, which subclasses use (a table view selects the row).
/// Setting ``contentOffset`` in code is not clamped, as on iOS. Touches that begin on a control inside the content
/// go to the control.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIScrollView: UIView, UITouchResponder, UIFrameTicking {
    /// The distance, in points, a finger moves before a touch becomes a drag: 10.
    public static let dragThreshold: CGFloat = 10
    /// The length of an animated offset change: 0.3 s on the host clock.
    public static let animationDuration: TimeInterval = 0.3

    /// The delegate, held weakly. Table and text views take their own delegates here (a `UITableViewDelegate` is a
    /// `UIScrollViewDelegate`). Defaults to nil.
    open weak var delegate: (any UIScrollViewDelegate)?

    /// The content point at the top-left of the bounds (the bounds origin), points. Setting it is not clamped and
    /// calls `scrollViewDidScroll(_:)`; it stops an animated change.
    open var contentOffset: CGPoint {
        get { bounds.origin }
        set {
            animation = nil
            moveContent(to: newValue)
        }
    }
    /// The size of the content, points. Defaults to `.zero`.
    open var contentSize: CGSize = .zero
    /// Extra scrollable space around the content, points. Defaults to `.zero`.
    open var contentInset: UIEdgeInsets = .zero
    /// The insets scrolling uses: ``contentInset`` (Linux windows have no safe-area insets to add).
    open var adjustedContentInset: UIEdgeInsets { contentInset }

    /// How the safe area adjusts the content insets, as UIKit's `UIScrollView.ContentInsetAdjustmentBehavior`.
    public enum ContentInsetAdjustmentBehavior: Int, Sendable {
        /// The system's choice (`.scrollableAxes`, or always for the top in a navigation controller).
        case automatic = 0
        /// Adjust along the axes that scroll.
        case scrollableAxes
        /// Never adjust.
        case never
        /// Always adjust.
        case always
    }

    /// How ``adjustedContentInset`` adds the safe area. Defaults to `.automatic`. Stored and read back only: Linux
    /// windows have no safe-area insets, so every behaviour gives ``contentInset``.
    open var contentInsetAdjustmentBehavior: ContentInsetAdjustmentBehavior = .automatic
    /// Whether dragging scrolls. Defaults to true.
    open var isScrollEnabled = true
    /// Whether the content may be dragged vertically even when it fits. Defaults to false.
    open var alwaysBounceVertical = false
    /// Whether the content may be dragged horizontally even when it fits. Defaults to false.
    open var alwaysBounceHorizontal = false
    /// Stored only (no rubber band on Linux). Defaults to true.
    open var bounces = true
    /// Stored only. Defaults to false.
    open var isPagingEnabled = false
    /// Stored only (no scroll indicators are drawn). Defaults to true.
    open var showsVerticalScrollIndicator = true
    /// Stored only (no scroll indicators are drawn). Defaults to true.
    open var showsHorizontalScrollIndicator = true

    /// Whether a drag is in progress.
    public private(set) var isDragging = false
    /// Whether a finger is down on the content.
    public private(set) var isTracking = false
    /// Always false: scroll views stop where the finger lifts.
    public var isDecelerating: Bool { false }

    private var touch: UITouch?
    private var anchor: CGPoint = .zero
    private var anchorOffset: CGPoint = .zero
    private var animation: (from: CGPoint, to: CGPoint, start: TimeInterval)?

    /// Creates a scroll view; it clips its content.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        clipsToBounds = true
    }

    /// Creates a scroll view (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        clipsToBounds = true
    }

    private func moveContent(to offset: CGPoint) {
        guard offset.x.isFinite, offset.y.isFinite, offset != bounds.origin else { return }
        bounds.origin = offset
        setNeedsLayout()
        delegate?.scrollViewDidScroll(self)
    }

    /// The smallest offset dragging reaches: minus the leading insets.
    var minimumOffset: CGPoint { CGPoint(x: -adjustedContentInset.left, y: -adjustedContentInset.top) }

    /// The largest offset dragging reaches: the content's far edges plus insets at the bounds' far edges (never
    /// below ``minimumOffset``).
    var maximumOffset: CGPoint {
        let i = adjustedContentInset
        return CGPoint(
            x: max(-i.left, contentSize.width + i.right - bounds.width),
            y: max(-i.top, contentSize.height + i.bottom - bounds.height))
    }

    private var scrollsHorizontally: Bool { alwaysBounceHorizontal || maximumOffset.x > minimumOffset.x }
    private var scrollsVertically: Bool { alwaysBounceVertical || maximumOffset.y > minimumOffset.y }

    /// Moves the content to `contentOffset` (not clamped), over 0.3 s on the host clock when `animated`
    /// (`scrollViewDidScroll(_:)` each frame, then `scrollViewDidEndScrollingAnimation(_:)`), else at once.
    open func setContentOffset(_ contentOffset: CGPoint, animated: Bool) {
        guard animated, contentOffset != bounds.origin else {
            self.contentOffset = contentOffset
            return
        }
        animation = (bounds.origin, contentOffset, UIAnimator.shared.now)
    }

    /// Scrolls the least distance that shows `rect` (content coordinates), clamped to the content.
    open func scrollRectToVisible(_ rect: CGRect, animated: Bool) {
        var o = bounds.origin
        if rect.maxY > o.y + bounds.height { o.y = rect.maxY - bounds.height }
        if rect.minY < o.y { o.y = rect.minY }
        if rect.maxX > o.x + bounds.width { o.x = rect.maxX - bounds.width }
        if rect.minX < o.x { o.x = rect.minX }
        setContentOffset(clamp(o), animated: animated)
    }

    func clamp(_ p: CGPoint) -> CGPoint {
        let lo = minimumOffset
        let hi = maximumOffset
        return CGPoint(x: min(max(p.x, lo.x), hi.x), y: min(max(p.y, lo.y), hi.y))
    }

    // MARK: Frames

    package var needsFrames: Bool { animation != nil }
    package var isLoading: Bool { false }

    package func tickFrame() {
        guard let a = animation else { return }
        let t = min(1, max(0, (UIAnimator.shared.now - a.start) / Self.animationDuration))
        let eased = CGFloat(t * t * (3 - 2 * t))
        moveContent(
            to: CGPoint(x: a.from.x + (a.to.x - a.from.x) * eased, y: a.from.y + (a.to.y - a.from.y) * eased))
        if t >= 1 {
            animation = nil
            delegate?.scrollViewDidEndScrollingAnimation(self)
        }
    }

    // MARK: Touches

    /// Starts tracking the first finger.
    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard touch == nil, let first = touches.first else { return }
        touch = first
        isTracking = true
        animation = nil
        anchor = first.location(in: nil)
        anchorOffset = bounds.origin
    }

    /// Drags the content once the finger moved past ``dragThreshold``.
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch, touches.contains(touch) else { return }
        let p = touch.location(in: nil)
        if !isDragging {
            guard isScrollEnabled, hypot(p.x - anchor.x, p.y - anchor.y) > Self.dragThreshold else { return }
            isDragging = true
            anchor = p
            anchorOffset = bounds.origin
            delegate?.scrollViewWillBeginDragging(self)
        }
        var o = anchorOffset
        if scrollsHorizontally { o.x -= p.x - anchor.x }
        if scrollsVertically { o.y -= p.y - anchor.y }
        moveContent(to: clamp(o))
    }

    /// Ends a drag, or reports a tap to ``contentTapped(at:)``.
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch, touches.contains(touch) else { return }
        self.touch = nil
        isTracking = false
        if isDragging {
            isDragging = false
            delegate?.scrollViewDidEndDragging(self, willDecelerate: false)
        } else {
            contentTapped(at: touch.location(in: self))
        }
    }

    /// Ends a drag without a tap.
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch, touches.contains(touch) else { return }
        self.touch = nil
        isTracking = false
        if isDragging {
            isDragging = false
            delegate?.scrollViewDidEndDragging(self, willDecelerate: false)
        }
    }

    /// A touch ended without dragging at `point` (content coordinates). Subclasses select or start editing.
    func contentTapped(at point: CGPoint) {}
}
