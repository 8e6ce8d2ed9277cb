import Foundation
import LinuxUIKit

/// The drawing style of a stretch of a polyline: one colour, a gradient, and optionally a stamp image over it (Maps
/// SDK for iOS `GMSStrokeStyle`).
///
/// A gradient runs from `fromColor` at the start of the span it styles to `toColor` at its end (interpolated in
/// premultiplied sRGB). A stamp (``stampStyle``) is drawn over the colour: where the stamp is transparent the colour
/// shows through.
/// - Thread rules: create and change on the main thread; the map reads the style when the polyline's spans are set.
public final class GMSStrokeStyle: NSObject, @unchecked Sendable {
    /// What colours the stroke.
    enum Paint: Equatable {
        /// One colour.
        case solid(UIColor)
        /// From the first colour at the span's start to the second at its end.
        case gradient(UIColor, UIColor)
    }

    /// The paint under the stamp.
    let paint: Paint

    /// An image repeated along the stroke over its colour (`nil`, the default: none). See ``GMSStampStyle``.
    public var stampStyle: GMSStampStyle?

    /// A style with `paint`; ``solidColor(_:)`` and ``gradient(from:to:)`` are the public constructors.
    init(paint: Paint) {
        self.paint = paint
        super.init()
    }

    /// A solid colour stroke style.
    public class func solidColor(_ color: UIColor) -> Self { Self(paint: .solid(color)) }

    /// A gradient stroke style from `fromColor` (at the start of the span) to `toColor` (at its end).
    public class func gradient(from fromColor: UIColor, to toColor: UIColor) -> Self {
        Self(paint: .gradient(fromColor, toColor))
    }

    /// A transparent stroke carrying only `stampStyle`.
    public class func transparentStroke(withStamp stampStyle: GMSStampStyle) -> Self {
        let style = Self(paint: .solid(.clear))
        style.stampStyle = stampStyle
        return style
    }
}

/// The abstract base of the stamp styles: an image drawn repeatedly along a stroke (Maps SDK for iOS
/// `GMSStampStyle`). Use ``GMSTextureStyle`` or ``GMSSpriteStyle``.
///
/// Each stamp is drawn as a square as wide as the stroke (the image is squeezed to a square), its top towards the
/// start of the line and its bottom towards the end, one after another along the line (a `line-pattern` mesh paint).
open class GMSStampStyle: NSObject, @unchecked Sendable {
    /// The image repeated over the stroke.
    public let stampImage: UIImage

    /// A stamp of `image`.
    init(stampImage: UIImage) {
        self.stampImage = stampImage
        super.init()
    }
}

/// A stamp style whose image is used as a texture repeated along the stroke (Maps SDK for iOS `GMSTextureStyle`).
open class GMSTextureStyle: GMSStampStyle, @unchecked Sendable {
    /// A texture stamp of `image`.
    public init(image: UIImage) { super.init(stampImage: image) }

    /// A texture stamp of `image` (Google's `textureStyleWithImage:`).
    open class func textureStyle(with image: UIImage) -> GMSTextureStyle { GMSTextureStyle(image: image) }
}

/// A stamp style whose image is drawn as sprites along the stroke (Maps SDK for iOS `GMSSpriteStyle`). Google needs
/// its Metal renderer for sprites; Waymark always draws them, the same way as ``GMSTextureStyle`` (stamps one stroke
/// width long, end to end), over the span's colour (Google treats the colour as a fallback only).
open class GMSSpriteStyle: GMSStampStyle, @unchecked Sendable {
    /// A sprite stamp of `image`.
    public init(image: UIImage) { super.init(stampImage: image) }

    /// A sprite stamp of `image` (Google's `spriteStyleWithImage:`).
    open class func spriteStyle(with image: UIImage) -> GMSSpriteStyle { GMSSpriteStyle(image: image) }
}

/// The style of a run of a polyline, measured in path segments (Maps SDK for iOS `GMSStyleSpan`).
///
/// A polyline's spans are applied in order from its first coordinate: a span of `segments` 2.5 covers the first two
/// segments and half of the third. When the spans are shorter than the line, the last span's style covers the rest.
open class GMSStyleSpan: NSObject, @unchecked Sendable {
    /// The style of this span.
    public let style: GMSStrokeStyle
    /// The length of this span in path segments; always `> 0` (a non-positive or non-finite length given to an
    /// initializer is stored as 1, Waymark's documented clamping of Google's "must be greater than 0").
    public let segments: Double

    /// A span of `style`, `segments` segments long (`> 0`; see ``segments`` for bad values).
    public init(style: GMSStrokeStyle, segments: Double) {
        self.style = style
        self.segments = segments.isFinite && segments > 0 ? segments : 1
        super.init()
    }

    /// A span of `style`, one segment long.
    public convenience init(style: GMSStrokeStyle) { self.init(style: style, segments: 1) }

    /// A solid `color` span, one segment long.
    public convenience init(color: UIColor) { self.init(style: .solidColor(color), segments: 1) }

    /// A solid `color` span, `segments` segments long.
    public convenience init(color: UIColor, segments: Double) {
        self.init(style: .solidColor(color), segments: segments)
    }
}

/// Spans built by applying `styles` and `lengths` repeatedly along `path` (Maps SDK for iOS `GMSStyleSpans`): style
/// `i mod styles.count` covers the next `lengths[i mod lengths.count]` of the path, measured as `lengthKind` says
/// (metres along great circles or rhumb lines, or projected Mercator units), until the path ends. Each span's
/// ``GMSStyleSpan/segments`` is the fractional number of path segments it covers.
///
/// Empty `styles` or `lengths`, a path of fewer than 2 coordinates, or lengths that are all non-positive or not
/// finite give an empty array (Google requires non-empty arrays; Waymark returns no spans rather than trapping).
public func GMSStyleSpans(
    _ path: GMSPath, _ styles: [GMSStrokeStyle], _ lengths: [NSNumber], _ lengthKind: GMSLengthKind
) -> [GMSStyleSpan] {
    GMSStyleSpansOffset(path, styles, lengths, lengthKind, 0)
}

/// As ``GMSStyleSpans(_:_:_:_:)``, first skipping `lengthOffset` (same unit as `lengths`) of the repeating pattern
/// (Maps SDK for iOS `GMSStyleSpansOffset`). A negative or non-finite offset counts as 0.
public func GMSStyleSpansOffset(
    _ path: GMSPath, _ styles: [GMSStrokeStyle], _ lengths: [NSNumber], _ lengthKind: GMSLengthKind,
    _ lengthOffset: Double
) -> [GMSStyleSpan] {
    let values = lengths.map(\.doubleValue)
    let segmentLengths = ShapeGeometry.segmentLengths(path.coordinates, kind: lengthKind)
    let total = values.reduce(0) { $0 + ($1.isFinite && $1 > 0 ? $1 : 0) }
    guard !styles.isEmpty, !values.isEmpty, !segmentLengths.isEmpty, total > 0 else { return [] }
    var spans: [GMSStyleSpan] = []
    var patternIndex = 0
    // Skip the offset through the pattern.
    var remainingInPattern = values[0].isFinite ? max(values[0], 0) : 0
    var skip = lengthOffset.isFinite ? max(lengthOffset, 0).truncatingRemainder(dividingBy: total) : 0
    while skip > 0 || remainingInPattern <= 0 {
        if remainingInPattern > skip {
            remainingInPattern -= skip
            skip = 0
        } else {
            skip -= remainingInPattern
            patternIndex += 1
            let v = values[patternIndex % values.count]
            remainingInPattern = v.isFinite ? max(v, 0) : 0
        }
    }
    // Walk the path segments, cutting spans where the pattern entries end.
    var segment = 0
    var usedInSegment = 0.0
    var spanSegments = 0.0
    while segment < segmentLengths.count {
        let length = segmentLengths[segment]
        let left = length - usedInSegment
        if left <= remainingInPattern || length <= 0 {
            spanSegments += length > 0 ? left / length : 1
            remainingInPattern -= max(left, 0)
            segment += 1
            usedInSegment = 0
        } else {
            spanSegments += remainingInPattern / length
            usedInSegment += remainingInPattern
            remainingInPattern = 0
        }
        if remainingInPattern <= 0 || segment == segmentLengths.count {
            if spanSegments > 0 {
                spans.append(GMSStyleSpan(style: styles[patternIndex % styles.count], segments: spanSegments))
            }
            spanSegments = 0
            repeat {
                patternIndex += 1
                let v = values[patternIndex % values.count]
                remainingInPattern = v.isFinite ? max(v, 0) : 0
            } while remainingInPattern <= 0
        }
    }
    return spans
}
