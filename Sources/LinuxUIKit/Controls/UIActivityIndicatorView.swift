import Foundation

/// A spinning wheel showing that work is in progress, as UIKit's `UIActivityIndicatorView`: eight spokes whose
/// shades turn once a second, timed by the host clock (`UIAnimator.shared.clock`), so a headless host shows the
/// same frame for the same time.
///
/// While animating in a window it asks the host for a frame each turn; stopped, it draws nothing and is hidden
/// when ``hidesWhenStopped``.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIActivityIndicatorView: UIView, UIFrameTicking {
    /// The indicator's size, as UIKit's `UIActivityIndicatorView.Style`.
    public enum Style: Int, Sendable {
        /// 20 × 20 points (the default).
        case medium = 100
        /// 37 × 37 points.
        case large = 101

        var size: CGSize { self == .large ? CGSize(width: 37, height: 37) : CGSize(width: 20, height: 20) }
    }

    /// The size style. Defaults to `.medium`. Setting it resizes the indicator.
    open var style: Style = .medium {
        didSet {
            frame.size = style.size
            setNeedsDisplay()
        }
    }
    /// The spokes' colour; defaults to grey.
    open var color: UIColor! = .gray {
        didSet {
            if color == nil { color = .gray }
            setNeedsDisplay()
        }
    }
    /// Whether the indicator hides itself while stopped. Defaults to true.
    open var hidesWhenStopped = true {
        didSet { if !isAnimating { isHidden = hidesWhenStopped } }
    }
    /// Whether the wheel turns.
    public private(set) var isAnimating = false
    private var start: TimeInterval = 0

    /// Creates a stopped (and so hidden) indicator of `style`.
    public init(style: Style) {
        super.init(frame: CGRect(origin: .zero, size: style.size))
        self.style = style
        isOpaque = false
        isHidden = true
    }

    /// Creates a stopped `.medium` indicator at `frame`.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
        isHidden = true
    }

    /// Creates a stopped `.medium` indicator (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        frame.size = style.size
        isOpaque = false
        isHidden = true
    }

    /// Starts turning (and shows the indicator).
    open func startAnimating() {
        guard !isAnimating else { return }
        isAnimating = true
        start = UIAnimator.shared.now
        isHidden = false
        setNeedsDisplay()
    }

    /// Stops turning (and hides the indicator when ``hidesWhenStopped``).
    open func stopAnimating() {
        guard isAnimating else { return }
        isAnimating = false
        if hidesWhenStopped { isHidden = true }
        setNeedsDisplay()
    }

    /// The style's size.
    open override var intrinsicContentSize: CGSize { style.size }
    /// The style's size.
    open override func sizeThatFits(_ size: CGSize) -> CGSize { style.size }

    package var needsFrames: Bool { isAnimating && !isHidden }
    package var isLoading: Bool { false }
    package func tickFrame() { if isAnimating { setNeedsDisplay() } }

    /// The spoke drawn darkest at the clock's time: 0 when stopped, one step every 1/8 s while turning. A
    /// microsecond's slack absorbs the clock's rounding: fifteen frames of 1/60 s add up to a hair under 0.25 s, which
    /// must still be two steps.
    var leadingSpoke: Int {
        guard isAnimating else { return 0 }
        return Int(((UIAnimator.shared.now - start) * 8 + 1e-6).rounded(.down)) % 8
    }

    /// Draws eight spokes, the leading one darkest.
    open override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        let r = min(bounds.width, bounds.height) / 2
        let c = CGPoint(x: bounds.midX, y: bounds.midY)
        let lead = leadingSpoke
        let width = max(2, r * 0.2)
        context.setLineWidth(width)
        for i in 0..<8 {
            let age = (lead - i + 8) % 8
            let angle = CGFloat(i) * .pi / 4 - .pi / 2
            let path = UIBezierPath()
            path.lineWidth = width
            path.move(to: CGPoint(x: c.x + cos(angle) * r * 0.45, y: c.y + sin(angle) * r * 0.45))
            path.addLine(to: CGPoint(x: c.x + cos(angle) * (r - width / 2), y: c.y + sin(angle) * (r - width / 2)))
            color.withAlphaComponent(color.rgba.alpha * (1 - CGFloat(age) * 0.1)).setStroke()
            path.stroke()
        }
    }
}
