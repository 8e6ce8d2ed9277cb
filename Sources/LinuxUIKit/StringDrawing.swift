import CCairo
import Foundation

extension NSAttributedString.Key {
    /// The ``NSParagraphStyle`` of a paragraph (alignment, line breaking); UIKit's `.paragraphStyle`.
    public static let paragraphStyle = NSAttributedString.Key("NSParagraphStyle")
}

/// Paragraph settings for attributed text, as UIKit's `NSParagraphStyle`: alignment and line breaking.
/// Immutable; use ``NSMutableParagraphStyle`` to build one.
open class NSParagraphStyle: @unchecked Sendable {
    /// Horizontal alignment. Defaults to `.natural`.
    public internal(set) var alignment: NSTextAlignment = .natural
    /// Wrapping and truncation. Defaults to `.byWordWrapping`.
    public internal(set) var lineBreakMode: NSLineBreakMode = .byWordWrapping

    /// A style with the defaults.
    public init() {}

    /// The style with the defaults.
    public static let `default` = NSParagraphStyle()
}

/// A paragraph style whose settings can be changed, as UIKit's `NSMutableParagraphStyle`.
open class NSMutableParagraphStyle: NSParagraphStyle, @unchecked Sendable {
    /// Horizontal alignment. Defaults to `.natural`.
    public override var alignment: NSTextAlignment {
        get { super.alignment }
        set { super.alignment = newValue }
    }
    /// Wrapping and truncation. Defaults to `.byWordWrapping`.
    public override var lineBreakMode: NSLineBreakMode {
        get { super.lineBreakMode }
        set { super.lineBreakMode = newValue }
    }
}

extension NSAttributedString {
    func drawingRequest(width: CGFloat?, height: CGFloat?) -> TextLayout.Request {
        let attributes = length > 0 ? attributes(at: 0, effectiveRange: nil) : [:]
        let style = attributes[.paragraphStyle] as? NSParagraphStyle ?? .default
        return TextLayout.Request(
            text: self, font: attributes[.font] as? UIFont ?? .systemFont(ofSize: 12),
            color: attributes[.foregroundColor] as? UIColor ?? .black, alignment: style.alignment, numberOfLines: 0,
            lineBreakMode: style.lineBreakMode, width: width, height: height)
    }

    /// The size the text takes on one line per paragraph (no wrapping), points, as UIKit's `size()`. Runs without a
    /// font use the 12 pt system font.
    public func size() -> CGSize {
        TextLayout.layout(drawingRequest(width: nil, height: nil), canvas: nil).size
    }

    /// Draws the text with its top-left at `point` in the calling thread's current graphics context (any thread), without wrapping; no-op
    /// without a context.
    public func draw(at point: CGPoint) {
        guard let context = UIGraphicsGetCurrentContext(), length > 0 else { return }
        let request = drawingRequest(width: nil, height: nil)
        let result = TextLayout.layout(request, canvas: context.canvas)
        TextLayout.draw(
            result, in: context.canvas, at: point, boxWidth: result.size.width, alignment: .left, color: request.color)
    }

    /// Draws the text wrapped to `rect`'s width from its top edge, clipped to `rect`, aligned by the paragraph
    /// style; no-op without a context. With a truncating line break mode (`.byTruncatingTail`, `…Head`, `…Middle`)
    /// the text is one line, shortened with an ellipsis to the width, as UIKit's string drawing does.
    public func draw(in rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext(), length > 0 else { return }
        var request = drawingRequest(width: rect.width, height: rect.height)
        switch request.lineBreakMode {
        case .byTruncatingTail, .byTruncatingHead, .byTruncatingMiddle: request.numberOfLines = 1
        default: break
        }
        let result = TextLayout.layout(request, canvas: context.canvas)
        cairo_save(context.cairo)
        cairo_rectangle(context.cairo, Double(rect.minX), Double(rect.minY), Double(rect.width), Double(rect.height))
        cairo_clip(context.cairo)
        TextLayout.draw(
            result, in: context.canvas, at: rect.origin, boxWidth: rect.width, alignment: request.alignment,
            color: request.color)
        cairo_restore(context.cairo)
    }
}

/// Attributed text laid out once on one line per paragraph (no wrapping), then measured and drawn as often as needed
/// with that one Pango layout, where ``NSAttributedString/size()`` followed by ``NSAttributedString/draw(at:)`` lays
/// the text out twice: for text a view draws every frame (the map's attribution line). ``size`` is what `size()`
/// gives; ``draw(at:)`` draws what `draw(at:)` draws (the layout follows the drawing context's matrix; Pango lays it
/// out again only when that matrix changes). Waymark's own (package).
///
/// Thread rules: main thread (it draws into the current graphics context).
package final class LaidOutText {
    /// The text as given.
    package let text: NSAttributedString
    private let request: TextLayout.Request
    private let result: TextLayout.Result

    /// Lays `text` out once (runs without a font use the 12 pt system font, as `size()` does).
    package init(_ text: NSAttributedString) {
        self.text = text
        request = text.drawingRequest(width: nil, height: nil)
        result = TextLayout.layout(request, canvas: nil)
    }

    /// The size the text takes, points (``NSAttributedString/size()``).
    package var size: CGSize { result.size }

    /// Draws the text with its top-left at `point` in the current graphics context; no-op without one or for empty
    /// text.
    @MainActor package func draw(at point: CGPoint) {
        guard let context = UIGraphicsGetCurrentContext(), text.length > 0 else { return }
        TextLayout.draw(
            result, in: context.canvas, at: point, boxWidth: result.size.width, alignment: .left, color: request.color)
    }
}

extension NSString {
    /// The size of the string drawn with `attrs` on one line per paragraph, points (UIKit's
    /// `size(withAttributes:)`).
    public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize {
        (self as String).size(withAttributes: attrs)
    }

    /// Draws the string at `point` in the calling thread's current graphics context (UIKit's
    /// `draw(at:withAttributes:)`).
    public func draw(at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        (self as String).draw(at: point, withAttributes: attrs)
    }

    /// Draws the string wrapped in `rect` in the calling thread's current graphics context (UIKit's
    /// `draw(in:withAttributes:)`).
    public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        (self as String).draw(in: rect, withAttributes: attrs)
    }
}

extension String {
    /// The size of the string drawn with `attrs` on one line per paragraph, points (UIKit's
    /// `size(withAttributes:)`).
    public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize {
        NSAttributedString(string: self, attributes: attrs).size()
    }

    /// Draws the string at `point` in the calling thread's current graphics context, any thread (UIKit's
    /// `draw(at:withAttributes:)`).
    public func draw(
        at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil
    ) {
        NSAttributedString(string: self, attributes: attrs).draw(at: point)
    }

    /// Draws the string wrapped in `rect` in the calling thread's current graphics context, any thread (UIKit's
    /// `draw(in:withAttributes:)`).
    public func draw(
        in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil
    ) {
        NSAttributedString(string: self, attributes: attrs).draw(in: rect)
    }
}
