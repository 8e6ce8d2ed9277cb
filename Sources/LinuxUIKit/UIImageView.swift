import CCairo
import Foundation

/// A view that shows a ``UIImage`` (still or animated), as UIKit's `UIImageView`.
///
/// The image is placed by ``UIView/contentMode`` (`.scaleToFill` by default). Template images
/// (`renderingMode == .alwaysTemplate`) are filled with the presented ``UIView/tintColor``, so animating the tint
/// recolours them. An animated image (or ``animationImages`` after ``startAnimating()``) shows the frame for the
/// time elapsed on ``UIAnimator/clock`` since it was set or started.
open class UIImageView: UIView {
    /// The image shown; nil shows nothing. Setting it restarts an animated image's clock. Defaults to nil.
    open var image: UIImage? {
        didSet {
            imageStart = UIAnimator.shared.now
            setNeedsDisplay()
        }
    }
    /// Frames to cycle through while ``isAnimating``, instead of ``image``. Defaults to nil.
    open var animationImages: [UIImage]?
    /// Seconds per cycle of ``animationImages``; 0 means 1/30 s per frame. Defaults to 0.
    open var animationDuration: TimeInterval = 0
    /// Number of cycles to play, 0 for forever. Defaults to 0.
    open var animationRepeatCount = 0
    /// True between ``startAnimating()`` and ``stopAnimating()`` (or the end of the repeats).
    open var isAnimating: Bool {
        guard let start = animationStart else { return false }
        guard animationRepeatCount > 0 else { return true }
        return UIAnimator.shared.now - start < cycleDuration * Double(animationRepeatCount)
    }

    private var imageStart: TimeInterval = 0
    private var animationStart: TimeInterval?

    /// A view showing `image`, sized to the image's point size (zero size for nil).
    public init(image: UIImage?) {
        super.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
        self.image = image
        imageStart = UIAnimator.shared.now
    }

    /// A view with the given frame and no image.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// Creates an empty image view (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// Starts cycling ``animationImages`` (no effect without them).
    open func startAnimating() {
        guard animationImages?.isEmpty == false else { return }
        animationStart = UIAnimator.shared.now
    }

    /// Stops cycling and shows ``image`` again.
    open func stopAnimating() { animationStart = nil }

    private var cycleDuration: TimeInterval {
        let count = Double(animationImages?.count ?? 0)
        return animationDuration > 0 ? animationDuration : count / 30
    }

    /// The still image drawn at the clock's current time.
    var currentFrame: UIImage? {
        let now = UIAnimator.shared.now
        if isAnimating, let frames = animationImages, !frames.isEmpty, let start = animationStart {
            let cycle = cycleDuration
            let phase = cycle > 0 ? (now - start).truncatingRemainder(dividingBy: cycle) / cycle : 0
            return frames[min(frames.count - 1, max(0, Int(phase * Double(frames.count))))].frame(at: 0)
        }
        return image?.frame(at: now - imageStart)
    }

    /// An animated image or ``animationImages`` showing: the frame drawn follows the clock.
    override var contentChangesOverTime: Bool { isAnimating || image?.images?.isEmpty == false }

    /// The image's point size (zero without an image), whatever `size` is given.
    open override func sizeThatFits(_ size: CGSize) -> CGSize { image?.size ?? .zero }

    /// The image's point size, or no intrinsic metric without an image.
    open override var intrinsicContentSize: CGSize {
        image?.size ?? CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric)
    }

    override func drawContent(in cr: OpaquePointer, bounds: CGRect) {
        if let frame = currentFrame {
            let rect = UIImageView.placement(of: frame.size, in: bounds, mode: contentMode)
            let template = frame.renderingMode == .alwaysTemplate || image?.renderingMode == .alwaysTemplate
            let shown = template ? frame.withRenderingMode(.alwaysTemplate) : frame
            shown.draw(in: cr, rect: rect, tint: template ? presentedTintColor : nil)
        }
        super.drawContent(in: cr, bounds: bounds)
    }

    /// Where an image of `size` points goes in `bounds` for `mode`.
    static func placement(of size: CGSize, in bounds: CGRect, mode: ContentMode) -> CGRect {
        guard size.width > 0, size.height > 0 else { return .zero }
        switch mode {
        case .scaleToFill, .redraw:
            return bounds
        case .scaleAspectFit, .scaleAspectFill:
            let sx = bounds.width / size.width
            let sy = bounds.height / size.height
            let s = mode == .scaleAspectFit ? min(sx, sy) : max(sx, sy)
            let w = size.width * s
            let h = size.height * s
            return CGRect(x: bounds.midX - w / 2, y: bounds.midY - h / 2, width: w, height: h)
        default:
            let x: CGFloat
            let y: CGFloat
            switch mode {
            case .left, .topLeft, .bottomLeft: x = bounds.minX
            case .right, .topRight, .bottomRight: x = bounds.maxX - size.width
            default: x = bounds.midX - size.width / 2
            }
            switch mode {
            case .top, .topLeft, .topRight: y = bounds.minY
            case .bottom, .bottomLeft, .bottomRight: y = bounds.maxY - size.height
            default: y = bounds.midY - size.height / 2
            }
            return CGRect(origin: CGPoint(x: x, y: y), size: size)
        }
    }
}
