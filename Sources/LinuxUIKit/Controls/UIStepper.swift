import Foundation

/// A control for incrementing or decrementing a value, as UIKit's `UIStepper`: a 94 × 32 point rounded pill with
/// "−" on the left half and "+" on the right.
///
/// A tap that lifts inside a half steps ``value`` by ``stepValue`` down or up, clamped to the range (or wrapped
/// round it when ``wraps``), and sends `.valueChanged` when the value changed. Holding a finger down does not
/// repeat on Linux (``autorepeat`` is stored only). Setting ``value`` in code sends nothing. Its content hugging
/// priority is 750 on both axes (iOS's), so in a `.fill` stack view beside a label (250) the label takes the slack
/// and the stepper keeps its 94 points.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIStepper: UIControl {
    static let size = CGSize(width: 94, height: 32)

    /// The current value, clamped to ``minimumValue``...``maximumValue``. Defaults to 0.
    open var value: Double = 0 {
        didSet {
            if value.isNaN { value = oldValue }
            value = min(max(value, minimumValue), maximumValue)
            setNeedsDisplay()
        }
    }
    /// The lower end of the range. Defaults to 0.
    open var minimumValue: Double = 0 {
        didSet {
            if maximumValue < minimumValue { maximumValue = minimumValue }
            value = min(max(value, minimumValue), maximumValue)
        }
    }
    /// The upper end of the range. Defaults to 100.
    open var maximumValue: Double = 100 {
        didSet {
            if minimumValue > maximumValue { minimumValue = maximumValue }
            value = min(max(value, minimumValue), maximumValue)
        }
    }
    /// The step of one tap; values ≤ 0 or NaN are ignored. Defaults to 1.
    open var stepValue: Double = 1 {
        didSet { if !(stepValue > 0) { stepValue = oldValue } }
    }
    /// Whether stepping past one end continues from the other. Defaults to false.
    open var wraps = false
    /// Whether holding a half repeats (stored only on Linux). Defaults to true.
    open var autorepeat = true
    /// Whether changes are sent while the user interacts (every tap sends one on Linux). Defaults to true.
    open var isContinuous = true

    /// Creates a stepper at `frame`'s origin; its size is always 94 × 32 points.
    public override init(frame: CGRect) {
        super.init(frame: CGRect(origin: frame.origin, size: Self.size))
        hugContent()
        isOpaque = false
    }

    /// Creates a stepper (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        frame.size = Self.size
        hugContent()
        isOpaque = false
    }

    /// Content hugging 750 on both axes, as iOS's stepper.
    private func hugContent() {
        setContentHuggingPriority(.defaultHigh, for: .horizontal)
        setContentHuggingPriority(.defaultHigh, for: .vertical)
    }

    /// 94 × 32 points.
    open override var intrinsicContentSize: CGSize { Self.size }
    /// 94 × 32 points, whatever `size` is given.
    open override func sizeThatFits(_ size: CGSize) -> CGSize { Self.size }

    override func touchUpInsideDidFire(_ touch: UITouch) {
        let up = touch.location(in: self).x >= bounds.midX
        var next = value + (up ? stepValue : -stepValue)
        if wraps {
            if next > maximumValue { next = minimumValue }
            if next < minimumValue { next = maximumValue }
        }
        next = min(max(next, minimumValue), maximumValue)
        guard next != value else { return }
        value = next
        sendActions(for: .valueChanged)
    }

    /// Draws the pill, the divider and the two signs (a sign greys out at its end of the range).
    open override func draw(_ rect: CGRect) {
        let b = CGRect(origin: .zero, size: Self.size)
        UIColor.tertiarySystemFill.setFill()
        UIBezierPath(roundedRect: b, cornerRadius: 8).fill()
        UIColor.control(light: .lightOpaqueSeparator, dark: UIColor(white: 0.28, alpha: 1)).setFill()
        UIRectFill(CGRect(x: b.midX - 0.5, y: 8, width: 1, height: b.height - 16))
        let canDown = isEnabled && (wraps || value > minimumValue)
        let canUp = isEnabled && (wraps || value < maximumValue)
        let dim = UIColor.control(light: .lightTertiaryLabel, dark: UIColor(white: 0.35, alpha: 1))
        (canDown ? UIColor.label : dim).setFill()
        UIRectFill(CGRect(x: b.width / 4 - 7, y: b.midY - 1, width: 14, height: 2))
        (canUp ? UIColor.label : dim).setFill()
        UIRectFill(CGRect(x: b.width * 3 / 4 - 7, y: b.midY - 1, width: 14, height: 2))
        UIRectFill(CGRect(x: b.width * 3 / 4 - 1, y: b.midY - 7, width: 2, height: 14))
    }
}
