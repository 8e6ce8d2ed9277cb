import Foundation

/// A control for picking a value from a continuous range, as UIKit's `UISlider`: a 4-point track across the bounds,
/// filled with ``minimumTrackTintColor`` up to a 28-point white thumb, shortened at either end by a
/// ``minimumValueImage`` or ``maximumValueImage``.
///
/// Dragging the thumb moves the value with the finger (a touch that does not begin on the thumb, within 10 points of
/// it, is not tracked, as on iOS). While dragging, a ``isContinuous`` slider sends `.valueChanged` for every change;
/// otherwise once when the finger lifts. Setting ``value`` in code sends nothing. Values are clamped to
/// ``minimumValue``...``maximumValue``.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UISlider: UIControl {
    private static let thumbDiameter: CGFloat = 28

    /// The current value, clamped to ``minimumValue``...``maximumValue``. Defaults to 0.
    open var value: Float {
        get { storedValue }
        set { setValue(newValue, animated: false) }
    }
    private var storedValue: Float = 0

    /// The lower end of the range. Defaults to 0. Raising it above ``maximumValue`` raises that too.
    open var minimumValue: Float = 0 {
        didSet {
            if maximumValue < minimumValue { maximumValue = minimumValue }
            setValue(storedValue, animated: false)
        }
    }
    /// The upper end of the range. Defaults to 1. Lowering it below ``minimumValue`` lowers that too.
    open var maximumValue: Float = 1 {
        didSet {
            if minimumValue > maximumValue { minimumValue = maximumValue }
            setValue(storedValue, animated: false)
        }
    }
    /// Whether dragging sends `.valueChanged` continuously (true) or only when the finger lifts. Defaults to true.
    open var isContinuous = true
    /// The track colour left of the thumb; nil uses the tint. Defaults to nil.
    open var minimumTrackTintColor: UIColor? {
        didSet { setNeedsDisplay() }
    }
    /// The track colour right of the thumb; nil uses iOS's light `systemFill` (`#787880` at 20 %; dark: white 0.3).
    /// Defaults to nil.
    open var maximumTrackTintColor: UIColor? {
        didSet { setNeedsDisplay() }
    }
    /// The thumb colour; nil uses white. Defaults to nil.
    open var thumbTintColor: UIColor? {
        didSet { setNeedsDisplay() }
    }

    /// An image drawn at the leading end, left of the track, which is shortened to make room (image width and 8
    /// points), as UIKit's property; template images (SF Symbols) are drawn in `.secondaryLabel`. Defaults to nil.
    open var minimumValueImage: UIImage? {
        didSet { updateValueImage(&minimumImageView, minimumValueImage) }
    }
    /// An image drawn at the trailing end, right of the track, which is shortened to make room (image width and 8
    /// points), as UIKit's property; template images are drawn in `.secondaryLabel`. Defaults to nil.
    open var maximumValueImage: UIImage? {
        didSet { updateValueImage(&maximumImageView, maximumValueImage) }
    }
    private var minimumImageView: UIImageView?
    private var maximumImageView: UIImageView?
    private static let imageGap: CGFloat = 8

    private func updateValueImage(_ view: inout UIImageView?, _ image: UIImage?) {
        if let image {
            let shown = view ?? UIImageView()
            shown.image = image
            shown.contentMode = .center
            shown.tintColor = .secondaryLabel
            shown.isUserInteractionEnabled = false
            if shown.superview !== self { addSubview(shown) }
            view = shown
        } else {
            view?.removeFromSuperview()
            view = nil
        }
        setNeedsLayout()
        setNeedsDisplay()
    }

    /// Where ``minimumValueImage`` is drawn in `bounds`, as UIKit's method: the image's size at the leading edge,
    /// centred vertically; an empty rectangle without an image.
    open func minimumValueImageRect(forBounds bounds: CGRect) -> CGRect {
        guard let size = minimumValueImage?.size else {
            return CGRect(x: bounds.minX, y: bounds.midY, width: 0, height: 0)
        }
        return CGRect(x: bounds.minX, y: bounds.midY - size.height / 2, width: size.width, height: size.height)
    }

    /// Where ``maximumValueImage`` is drawn in `bounds`, as UIKit's method: the image's size at the trailing edge,
    /// centred vertically; an empty rectangle without an image.
    open func maximumValueImageRect(forBounds bounds: CGRect) -> CGRect {
        guard let size = maximumValueImage?.size else {
            return CGRect(x: bounds.maxX, y: bounds.midY, width: 0, height: 0)
        }
        return CGRect(
            x: bounds.maxX - size.width, y: bounds.midY - size.height / 2, width: size.width, height: size.height)
    }

    /// The track's rectangle in `bounds`, as UIKit's method: 4 points high, centred vertically, between the value
    /// images (8 points from each) or across the whole width without them.
    open func trackRect(forBounds bounds: CGRect) -> CGRect {
        var minX = bounds.minX
        var maxX = bounds.maxX
        if minimumValueImage != nil { minX = minimumValueImageRect(forBounds: bounds).maxX + Self.imageGap }
        if maximumValueImage != nil { maxX = maximumValueImageRect(forBounds: bounds).minX - Self.imageGap }
        return CGRect(x: minX, y: bounds.midY - 2, width: max(0, maxX - minX), height: 4)
    }

    /// Places the value images.
    open override func layoutSubviews() {
        super.layoutSubviews()
        minimumImageView?.frame = minimumValueImageRect(forBounds: bounds)
        maximumImageView?.frame = maximumValueImageRect(forBounds: bounds)
    }

    private var grabOffset: CGFloat = 0
    private var changedWhileTracking = false

    /// Creates a slider with the given frame (31 points high is the natural height).
    public override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
    }

    /// Creates a slider (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        isOpaque = false
    }

    /// Sets the value, clamped to the range (NaN is ignored); `animated` is accepted. Sends no event.
    open func setValue(_ value: Float, animated: Bool) {
        guard !value.isNaN else { return }
        storedValue = min(max(value, minimumValue), maximumValue)
        setNeedsDisplay()
    }

    /// No natural width; 31 points high.
    open override var intrinsicContentSize: CGSize { CGSize(width: UIView.noIntrinsicMetric, height: 31) }

    private var fraction: CGFloat {
        let span = maximumValue - minimumValue
        return span > 0 ? CGFloat((storedValue - minimumValue) / span) : 0
    }

    private var track: CGRect { trackRect(forBounds: bounds) }

    private var travel: CGFloat { max(0, track.width - Self.thumbDiameter) }

    /// The thumb's frame in bounds coordinates.
    var thumbRect: CGRect {
        let d = Self.thumbDiameter
        return CGRect(x: track.minX + fraction * travel, y: bounds.midY - d / 2, width: d, height: d)
    }

    /// Tracks only touches that begin on the thumb (grown by 10 points).
    open override func beginTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        let p = touch.location(in: self)
        guard thumbRect.insetBy(dx: -10, dy: -10).contains(p) else { return false }
        grabOffset = p.x - thumbRect.midX
        changedWhileTracking = false
        return true
    }

    /// Moves the value with the finger.
    open override func continueTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        let x = touch.location(in: self).x - grabOffset - Self.thumbDiameter / 2 - track.minX
        let f = travel > 0 ? min(max(x / travel, 0), 1) : 0
        let old = storedValue
        setValue(minimumValue + Float(f) * (maximumValue - minimumValue), animated: false)
        if storedValue != old {
            changedWhileTracking = true
            if isContinuous { sendActions(for: .valueChanged) }
        }
        return true
    }

    /// A non-continuous slider sends `.valueChanged` now if the value changed.
    open override func endTracking(_ touch: UITouch?, with event: UIEvent?) {
        if !isContinuous && changedWhileTracking { sendActions(for: .valueChanged) }
        changedWhileTracking = false
    }

    /// Draws the two track parts and the thumb.
    open override func draw(_ rect: CGRect) {
        let d = Self.thumbDiameter
        let thumb = thumbRect
        let y = bounds.midY - 2
        let t = track
        let left = CGRect(x: t.minX + d / 2, y: y, width: max(0, thumb.midX - t.minX - d / 2), height: 4)
        let right = CGRect(x: thumb.midX, y: y, width: max(0, t.maxX - d / 2 - thumb.midX), height: 4)
        var minColor = minimumTrackTintColor ?? tintColor!
        if !isEnabled { minColor = minColor.withAlphaComponent(0.4) }
        (maximumTrackTintColor ?? .control(light: .lightFill, dark: UIColor(white: 0.3, alpha: 1))).setFill()
        UIBezierPath(roundedRect: right, cornerRadius: 2).fill()
        minColor.setFill()
        UIBezierPath(roundedRect: left, cornerRadius: 2).fill()
        UIColor(white: 0, alpha: 0.15).setFill()
        UIBezierPath(ovalIn: thumb.offsetBy(dx: 0, dy: 1.5)).fill()
        (thumbTintColor ?? .white).setFill()
        UIBezierPath(ovalIn: thumb).fill()
    }
}
