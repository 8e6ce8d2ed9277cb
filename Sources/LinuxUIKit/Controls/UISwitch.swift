import Foundation

/// An on/off toggle, as UIKit's `UISwitch`: a 51 × 31 point rounded track with a white thumb, filled with
/// ``onTintColor`` when on.
///
/// A tap (touch up inside) flips ``isOn`` and sends `.valueChanged`; setting ``isOn`` or calling
/// ``setOn(_:animated:)`` in code sends nothing, as on iOS. The switch draws at its fixed size at the top-left of its
/// bounds whatever frame it is given. Its content hugging priority is 750 on both axes (iOS's), so Auto Layout and
/// stack views keep it at its size.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UISwitch: UIControl {
    /// The switch's fixed size: 51 × 31 points.
    static let size = CGSize(width: 51, height: 31)

    /// Whether the switch is on. Defaults to false. Setting it sends no event.
    open var isOn = false {
        didSet { setNeedsDisplay() }
    }
    /// The track colour when on; nil uses `.systemGreen`. Defaults to nil.
    open var onTintColor: UIColor? {
        didSet { setNeedsDisplay() }
    }
    /// The thumb colour; nil uses white. Defaults to nil.
    open var thumbTintColor: UIColor? {
        didSet { setNeedsDisplay() }
    }

    /// Creates a switch at `frame`'s origin; its size is always 51 × 31 points.
    public override init(frame: CGRect) {
        super.init(frame: CGRect(origin: frame.origin, size: Self.size))
        isOpaque = false
        hugContent()
    }

    /// Creates an off switch (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        frame.size = Self.size
        isOpaque = false
        hugContent()
    }

    /// Content hugging 750 on both axes, as iOS's switch: in a `.fill` stack view the switch keeps its size and a
    /// label (250) beside it takes the slack.
    private func hugContent() {
        setContentHuggingPriority(.defaultHigh, for: .horizontal)
        setContentHuggingPriority(.defaultHigh, for: .vertical)
    }

    /// Sets ``isOn``; `animated` is accepted (the change shows at the next frame). Sends no event.
    open func setOn(_ on: Bool, animated: Bool) { isOn = on }

    /// 51 × 31 points.
    open override var intrinsicContentSize: CGSize { Self.size }
    /// 51 × 31 points, whatever `size` is given.
    open override func sizeThatFits(_ size: CGSize) -> CGSize { Self.size }

    override func touchUpInsideDidFire(_ touch: UITouch) {
        isOn.toggle()
        sendActions(for: .valueChanged)
    }

    /// Draws the track and the thumb (dimmed when disabled, darkened while highlighted).
    open override func draw(_ rect: CGRect) {
        let size = Self.size
        let track = CGRect(origin: .zero, size: size)
        let on = onTintColor ?? .systemGreen
        var trackColor = isOn ? on : UIColor.control(light: .lightSecondaryFill, dark: UIColor(white: 0.9, alpha: 1))
        if isHighlighted { trackColor = trackColor.scaled(by: 0.9) }
        if !isEnabled { trackColor = trackColor.withAlphaComponent(0.5) }
        trackColor.setFill()
        UIBezierPath(roundedRect: track, cornerRadius: size.height / 2).fill()
        let d = size.height - 4
        let thumb = CGRect(x: isOn ? size.width - d - 2 : 2, y: 2, width: d, height: d)
        UIColor(white: 0, alpha: 0.12).setFill()
        UIBezierPath(ovalIn: thumb.offsetBy(dx: 0, dy: 1)).fill()
        (thumbTintColor ?? .white).setFill()
        UIBezierPath(ovalIn: thumb).fill()
    }
}

extension UIColor {
    /// The colour with its red, green and blue scaled by `factor` (below 1 darkens), alpha kept.
    func scaled(by factor: CGFloat) -> UIColor {
        let c = rgba
        return UIColor(
            red: min(1, c.red * factor), green: min(1, c.green * factor), blue: min(1, c.blue * factor),
            alpha: c.alpha)
    }
}
