import CCairo
import Foundation

/// A view that shows read-only text, as UIKit's `UILabel`, laid out with Pango.
///
/// Text is centred vertically in the bounds and aligned horizontally by ``textAlignment``. At most
/// ``numberOfLines`` lines show (0 = as many as fit the bounds); with the default ``lineBreakMode``
/// (`.byTruncatingTail`) text that does not fit ends with an ellipsis (`…`) on the last visible line.
open class UILabel: UIView {
    /// The plain text; nil shows nothing. Setting it replaces ``attributedText``. Defaults to nil.
    open var text: String? {
        get { storedText?.string }
        set { storedText = newValue.map { NSAttributedString(string: $0) } }
    }

    /// The text with per-run attributes (`.font`, `.foregroundColor`); runs without them use ``font`` and
    /// ``textColor``. Defaults to nil.
    open var attributedText: NSAttributedString? {
        get { storedText }
        set { storedText = newValue }
    }

    private var storedText: NSAttributedString? {
        didSet {
            setNeedsDisplay()
            invalidateIntrinsicContentSize()
        }
    }

    /// The font for runs without one. Defaults to the 17 pt system font; setting nil restores it.
    open var font: UIFont! = .systemFont(ofSize: UIFont.labelFontSize) {
        didSet {
            if font == nil { font = .systemFont(ofSize: UIFont.labelFontSize) }
            setNeedsDisplay()
            invalidateIntrinsicContentSize()
        }
    }
    /// The colour for runs without one. Defaults to `.label` (black in light appearance, white in dark), resolved
    /// when drawn; setting nil restores it.
    open var textColor: UIColor! = .label {
        didSet {
            if textColor == nil { textColor = .label }
            setNeedsDisplay()
        }
    }
    /// Horizontal alignment. Defaults to `.natural` (left for left-to-right text).
    open var textAlignment: NSTextAlignment = .natural {
        didSet { setNeedsDisplay() }
    }
    /// The most lines shown; 0 means no limit but the bounds. Defaults to 1; negative values act as 0.
    open var numberOfLines = 1 {
        didSet {
            setNeedsDisplay()
            invalidateIntrinsicContentSize()
        }
    }
    /// How lines wrap and where text that does not fit is cut. Defaults to `.byTruncatingTail`.
    open var lineBreakMode: NSLineBreakMode = .byTruncatingTail {
        didSet { setNeedsDisplay() }
    }

    /// A label with the given frame.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
    }

    /// Creates an empty label (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        isOpaque = false
    }

    private func request(width: CGFloat?, height: CGFloat?) -> TextLayout.Request {
        TextLayout.Request(
            text: storedText ?? NSAttributedString(string: ""), font: font, color: textColor,
            alignment: textAlignment, numberOfLines: max(0, numberOfLines), lineBreakMode: lineBreakMode,
            width: width, height: height)
    }

    /// The size of the text laid out within `size` (a width ≤ 0 or infinite means unconstrained), rounded up to
    /// whole points; zero for empty text.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        guard let text = storedText, text.length > 0 else { return .zero }
        let width = size.width > 0 && size.width.isFinite ? size.width : nil
        let height = size.height > 0 && size.height.isFinite && numberOfLines == 0 ? size.height : nil
        let result = TextLayout.layout(request(width: numberOfLines == 1 ? nil : width, height: height), canvas: nil)
        var fitted = result.size
        if let width, numberOfLines == 1 { fitted.width = min(fitted.width, width) }
        return CGSize(width: fitted.width.rounded(.up), height: fitted.height.rounded(.up))
    }

    /// The text's natural size on one line (or wrapped at no width for multi-line labels).
    open override var intrinsicContentSize: CGSize { sizeThatFits(CGSize(width: 0, height: 0)) }

    /// Draws the text in `rect` (the bounds); override ``drawText(in:)`` to change the text area.
    open override func draw(_ rect: CGRect) {
        drawText(in: rect)
    }

    /// Draws the text in `rect`, vertically centred. Override to inset the text area and call super.
    open func drawText(in rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext(), let text = storedText, text.length > 0 else { return }
        let result = TextLayout.layout(request(width: rect.width, height: rect.height), canvas: context.canvas)
        let y = rect.minY + (rect.height - result.size.height) / 2
        TextLayout.draw(
            result, in: context.canvas, at: CGPoint(x: rect.minX, y: y), boxWidth: rect.width,
            alignment: textAlignment, color: textColor)
    }
}
