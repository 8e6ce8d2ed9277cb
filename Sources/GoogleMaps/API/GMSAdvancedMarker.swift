import Foundation
import LinuxUIKit

/// How an advanced marker's visibility depends on the markers it overlaps (Google's `GMSCollisionBehavior`).
///
/// Markers collide when their icons' rectangles on screen intersect. Priority: required markers over optional ones,
/// then the higher ``GMSOverlay/zIndex``, then (equal zIndex) the marker lower on the screen. Plain
/// ``GMSMarker``s and `.required` advanced markers take no part. On Waymark the basemap's own labels are not hidden
/// by markers (Google hides labels under `.requiredAndHidesOptional` and optional markers).
public enum GMSCollisionBehavior: Int, Sendable {
    /// Always drawn, whatever it overlaps, and hides nothing (the default).
    case required = 0
    /// Always drawn, and hides every `.optionalAndHidesLowerPriority` marker it overlaps.
    case requiredAndHidesOptional = 1
    /// Drawn only when it overlaps no `.requiredAndHidesOptional` marker and no optional marker of higher priority
    /// that is drawn; hidden markers are not tappable either.
    case optionalAndHidesLowerPriority = 2
}

/// A marker with a collision behaviour, Google's advanced marker (`GMSAdvancedMarker`).
///
/// Everything a ``GMSMarker`` does, plus ``collisionBehavior``. Its icon is usually a ``GMSPinImage`` made from
/// ``GMSPinImageOptions``, or an ``GMSMarker/iconView``; without one it draws the default pin. Google requires a map ID
/// with advanced markers enabled; Waymark draws them on every map.
///
/// Thread rules: as ``GMSMarker`` (made and changed on any thread; its map draws it on the main actor).
open class GMSAdvancedMarker: GMSMarker {
    /// How the marker's visibility depends on the markers it overlaps. Defaults to `.required`.
    open var collisionBehavior: GMSCollisionBehavior = .required {
        didSet { if collisionBehavior != oldValue { notifyMap(geometry: false) } }
    }

    /// A new advanced marker with this one's properties and collision behaviour, on no map (Google's `NSCopying`).
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = GMSAdvancedMarker()
        copyMarkerProperties(to: copy)
        copy.collisionBehavior = collisionBehavior
        return copy
    }
}

/// What replaces the circle in a ``GMSPinImage``'s head: text, an image, or the circle in another colour (Google's
/// `GMSPinImageGlyph`).
///
/// Thread rules: immutable; any thread.
open class GMSPinImageGlyph: NSObject, @unchecked Sendable {
    /// The glyph's text, or nil.
    public let text: String?
    /// The text's colour, or nil.
    public let textColor: UIColor?
    /// The glyph's image, or nil.
    public let image: UIImage?
    /// The circle's colour, or nil.
    public let glyphColor: UIColor?

    /// A glyph of `text` in `textColor`, centred in the pin's head (bold system font, 12 points, shrunk to fit the
    /// head).
    public init(text: String, textColor: UIColor) {
        self.text = text
        self.textColor = textColor
        image = nil
        glyphColor = nil
    }

    /// A glyph of `image`, scaled to fit the pin's head (14 × 14 points) with its aspect ratio.
    public init(image: UIImage) {
        text = nil
        textColor = nil
        self.image = image
        glyphColor = nil
    }

    /// The default circle in `glyphColor`.
    public init(glyphColor: UIColor) {
        text = nil
        textColor = nil
        image = nil
        self.glyphColor = glyphColor
    }
}

/// How a ``GMSPinImage`` looks (Google's `GMSPinImageOptions`). Unset colours take the default pin's: background
/// #EA4335, border #C5221F, glyph circle #B31412.
///
/// Thread rules: any thread, one at a time.
open class GMSPinImageOptions: NSObject, @unchecked Sendable {
    /// What replaces the head's circle, or nil for the circle in the default glyph colour.
    open var glyph: GMSPinImageGlyph?
    /// The pin's fill colour, or nil for #EA4335.
    open var backgroundColor: UIColor?
    /// The pin's border colour, or nil for #C5221F.
    open var borderColor: UIColor?

    /// Options with every value unset (the default pin).
    public override init() {
        super.init()
    }
}

/// The pin of an advanced marker drawn from ``GMSPinImageOptions``, Google's `GMSPinImage`: `GMSPinImage(options:)`.
///
/// On Waymark it is a `UIImage` (UIKit's image class is final here), made by the initialiser below, so code written
/// for Google's SDK (`advancedMarker.icon = GMSPinImage(options: options)`) compiles and draws the same pin.
public typealias GMSPinImage = UIImage

extension UIImage {
    /// The pin of an advanced marker drawn from `options` (nil: the default pin), 26 × 37 points at the screen's
    /// scale, its tip at the bottom centre: Google's `GMSPinImage(options:)` (`GMSPinImage` is `UIImage` here).
    /// Any thread.
    public convenience init(options: GMSPinImageOptions?) {
        self.init(sharing: DefaultPin.image(options: options, scale: UIScreen.mainScale))
    }
}
