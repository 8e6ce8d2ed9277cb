import MapDrawing
import MapGeometry

/// `icon-text-fit`: which sides of a symbol's icon follow its text's box.
public enum IconTextFit: String, Hashable, Sendable {
    /// The icon keeps its size and its `icon-anchor` (the default).
    case none
    /// The icon spans the text's width (plus the left and right padding) and keeps its height, centred on the text.
    case width
    /// The icon spans the text's height (plus the top and bottom padding) and keeps its width, centred on the text.
    case height
    /// The icon spans the text's box plus the padding.
    case both

    /// The fit a style names (`"none"`, `"width"`, `"height"`, `"both"`); other names are ``none``.
    public init(styleName: String) { self = IconTextFit(rawValue: styleName) ?? .none }
}

/// A sprite image's `textFitWidth` or `textFitHeight`: how its content box may change along one axis when the icon
/// is fitted to text (MapLibre's `TextFit`).
public enum IconTextFitMode: String, Hashable, Sendable {
    /// The content box takes the text's size on this axis (the default).
    case stretchOrShrink
    /// The content box grows with the text on this axis, but is not made narrower than the image's aspect ratio.
    case stretchOnly
    /// The content box keeps the image's aspect ratio, sized by the other axis.
    case proportional
}

/// A box by its edges, y down: relative to a symbol's anchor in points, or in image pixels.
public struct IconBox: Hashable, Sendable {
    /// Left edge.
    public var left: Double
    /// Top edge.
    public var top: Double
    /// Right edge.
    public var right: Double
    /// Bottom edge.
    public var bottom: Double

    /// Creates a box from its edges.
    public init(left: Double, top: Double, right: Double, bottom: Double) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    /// `right − left`.
    public var width: Double { right - left }
    /// `bottom − top`.
    public var height: Double { bottom - top }
}

/// A run of image columns (or rows) that stretch, `start ≤ end`, in image pixels.
public struct IconStretchZone: Hashable, Sendable {
    /// First pixel edge of the run.
    public var start: Double
    /// Last pixel edge of the run.
    public var end: Double

    /// Creates a run; the edges are put in order.
    public init(start: Double, end: Double) {
        self.start = min(start, end)
        self.end = max(start, end)
    }
}

/// How a sprite image stretches when its icon is fitted to text (MapLibre's stretchable images: the sprite index's
/// `stretchX`, `stretchY`, `content`, `textFitWidth` and `textFitHeight`), and the layout MapLibre's
/// `getIconQuads` gives it: the image is cut at the edges of its stretch zones into pieces; the stretching pieces
/// share the fitted size in proportion to their pixels, the fixed pieces keep their size (in points: pixels divided
/// by ``pixelRatio``). Every length here is in image pixels unless it says points.
public struct IconStretch: Hashable, Sendable {
    /// The image's width in pixels, `> 0`.
    public var pixelWidth: Double
    /// The image's height in pixels, `> 0`.
    public var pixelHeight: Double
    /// Image pixels per point, `> 0`.
    public var pixelRatio: Double
    /// Columns that stretch, ascending; empty: the whole width.
    public var stretchX: [IconStretchZone]
    /// Rows that stretch, ascending; empty: the whole height.
    public var stretchY: [IconStretchZone]
    /// The box the text is fitted into, or `nil`: the whole image.
    public var content: IconBox?
    /// `textFitWidth`, `nil` when not given.
    public var textFitWidth: IconTextFitMode?
    /// `textFitHeight`, `nil` when not given.
    public var textFitHeight: IconTextFitMode?

    /// Creates a description; non-positive or non-finite sizes and ratios become 1, and zones that stretch nothing
    /// in total are dropped (the whole axis stretches then).
    public init(
        pixelWidth: Double, pixelHeight: Double, pixelRatio: Double = 1, stretchX: [IconStretchZone] = [],
        stretchY: [IconStretchZone] = [], content: IconBox? = nil, textFitWidth: IconTextFitMode? = nil,
        textFitHeight: IconTextFitMode? = nil
    ) {
        func positive(_ v: Double) -> Double { v > 0 && v.isFinite ? v : 1 }
        self.pixelWidth = positive(pixelWidth)
        self.pixelHeight = positive(pixelHeight)
        self.pixelRatio = positive(pixelRatio)
        func valid(_ zones: [IconStretchZone], _ size: Double) -> [IconStretchZone] {
            let clamped = zones.map {
                IconStretchZone(start: min(max($0.start, 0), size), end: min(max($0.end, 0), size))
            }
            return clamped.reduce(0) { $0 + $1.end - $1.start } > 0 ? clamped : []
        }
        self.stretchX = valid(stretchX, self.pixelWidth)
        self.stretchY = valid(stretchY, self.pixelHeight)
        self.content = content
        self.textFitWidth = textFitWidth
        self.textFitHeight = textFitHeight
    }

    /// The image's size in points.
    public var displaySize: ScreenSize { ScreenSize(width: pixelWidth / pixelRatio, height: pixelHeight / pixelRatio) }

    /// The box of an icon fitted to a text box (MapLibre's `fitIconToText`): on each axis the fit names, the text's
    /// edges moved out by the padding; on the others, the image's size centred on the text. The icon's
    /// `icon-anchor` plays no part. All in points relative to the anchor, before `icon-size`.
    /// - Parameters:
    ///   - text: the text's box (its shaping: line widths by line heights), offset included.
    ///   - fit: the axes that follow the text; ``IconTextFit/none`` gives the text-centred image.
    ///   - padding: `icon-text-fit-padding`, `[top, right, bottom, left]` in points (missing values are 0).
    ///   - offset: `icon-offset` in points, before `icon-size`.
    /// - Returns: the fitted box, in points relative to the anchor, before `icon-size`.
    public func fitted(to text: IconBox, fit: IconTextFit, padding: [Double], offset: ScreenPoint) -> IconBox {
        func pad(_ i: Int) -> Double { i < padding.count && padding[i].isFinite ? padding[i] : 0 }
        let size = displaySize
        var box = IconBox(left: 0, top: 0, right: 0, bottom: 0)
        if fit == .width || fit == .both {
            box.left = offset.x + text.left - pad(3)
            box.right = offset.x + text.right + pad(1)
        } else {
            box.left = offset.x + (text.left + text.right - size.width) / 2
            box.right = box.left + size.width
        }
        if fit == .height || fit == .both {
            box.top = offset.y + text.top - pad(0)
            box.bottom = offset.y + text.bottom + pad(2)
        } else {
            box.top = offset.y + (text.top + text.bottom - size.height) / 2
            box.bottom = box.top + size.height
        }
        return box
    }

    /// `box` changed by ``textFitWidth`` and ``textFitHeight`` (MapLibre's `applyTextFit`): an axis that is
    /// proportional takes its size from the other axis and the content box's aspect ratio (rounded up to whole
    /// points, its near edge scaled about the anchor); `stretchOnly` against a proportional axis only grows.
    /// Unchanged without ``content`` or without either mode.
    public func applyingTextFitModes(_ box: IconBox) -> IconBox {
        guard let content, textFitWidth != nil || textFitHeight != nil else { return box }
        let width = box.width
        let height = box.height
        guard width > 0, height > 0, content.height > 0 else { return box }
        let aspect = content.width / content.height
        let fitWidth = textFitWidth ?? .stretchOrShrink
        let fitHeight = textFitHeight ?? .stretchOrShrink
        var result = box
        if fitHeight == .proportional {
            if (fitWidth == .stretchOnly && width / height < aspect) || fitWidth == .proportional {
                let newWidth = (height * aspect).rounded(.up)
                result.left *= newWidth / width
                result.right = result.left + newWidth
            }
        } else if fitWidth == .proportional {
            if fitHeight == .stretchOnly && aspect != 0 && width / height > aspect {
                let newHeight = (width / aspect).rounded(.up)
                result.top *= newHeight / height
                result.bottom = result.top + newHeight
            }
        }
        return result
    }

    /// One cut across the image: `fixed` pixels before it that do not stretch and `stretch` pixels that do.
    struct Cut: Hashable {
        var fixed: Double
        var stretch: Double
        var pixel: Double { fixed + stretch }
    }

    /// The cuts of one axis (MapLibre's `stretchZonesToCuts`), from the transparent pixel before the image to the
    /// one after it.
    static func cuts(_ zones: [IconStretchZone], fixedSize: Double, stretchSize: Double) -> [Cut] {
        var cuts = [Cut(fixed: -1, stretch: 0)]
        for zone in zones {
            let last = cuts[cuts.count - 1].stretch
            cuts.append(Cut(fixed: zone.start - last, stretch: last))
            cuts.append(Cut(fixed: zone.start - last, stretch: last + zone.end - zone.start))
        }
        cuts.append(Cut(fixed: fixedSize + 1, stretch: stretchSize))
        return cuts
    }

    private var zonesX: [IconStretchZone] {
        stretchX.isEmpty ? [IconStretchZone(start: 0, end: pixelWidth)] : stretchX
    }
    private var zonesY: [IconStretchZone] {
        stretchY.isEmpty ? [IconStretchZone(start: 0, end: pixelHeight)] : stretchY
    }

    /// The pieces a fitted icon is drawn in, as rectangles of image pixels, columns first (left to right, each top
    /// to bottom): the whole image when nothing is set to stretch, else the grid the stretch zones' edges cut. Each
    /// reaches one pixel past the image where it touches the image's edge (the image is read with a transparent
    /// pixel around it, as MapLibre's atlas pads it).
    public var pieceSources: [IconBox] {
        guard !stretchX.isEmpty || !stretchY.isEmpty else {
            return [IconBox(left: -1, top: -1, right: pixelWidth + 1, bottom: pixelHeight + 1)]
        }
        let sx = Self.sum(zonesX, 0, pixelWidth)
        let sy = Self.sum(zonesY, 0, pixelHeight)
        let xs = Self.cuts(zonesX, fixedSize: pixelWidth - sx, stretchSize: sx)
        let ys = Self.cuts(zonesY, fixedSize: pixelHeight - sy, stretchSize: sy)
        var out: [IconBox] = []
        for i in 0..<(xs.count - 1) {
            for j in 0..<(ys.count - 1) {
                out.append(
                    IconBox(left: xs[i].pixel, top: ys[j].pixel, right: xs[i + 1].pixel, bottom: ys[j + 1].pixel))
            }
        }
        return out
    }

    /// ``pieceSources`` without the transparent pixel around the image (a piece may become empty): what is drawn
    /// when the icon is sampled nearest, where that pixel never shows.
    public var innerPieceSources: [IconBox] {
        pieceSources.map {
            IconBox(
                left: min(max($0.left, 0), pixelWidth), top: min(max($0.top, 0), pixelHeight),
                right: min(max($0.right, 0), pixelWidth), bottom: min(max($0.bottom, 0), pixelHeight))
        }
    }

    /// Where each of ``innerPieceSources`` is drawn for an icon fitted to `box`: ``pieceDestinations(for:iconSize:)``
    /// cut where the piece's pixels are cut (each piece maps its pixels linearly).
    public func innerPieceDestinations(for box: IconBox, iconSize: Double) -> [IconBox] {
        let outer = pieceSources
        let inner = innerPieceSources
        return pieceDestinations(for: box, iconSize: iconSize).enumerated().map { i, d in
            let s = outer[i]
            let t = inner[i]
            func x(_ v: Double) -> Double { s.width > 0 ? d.left + (v - s.left) / s.width * d.width : d.left }
            func y(_ v: Double) -> Double { s.height > 0 ? d.top + (v - s.top) / s.height * d.height : d.top }
            return IconBox(left: x(t.left), top: y(t.top), right: x(t.right), bottom: y(t.bottom))
        }
    }

    /// Pixels of `zones` within `min...max`.
    static func sum(_ zones: [IconStretchZone], _ low: Double, _ high: Double) -> Double {
        zones.reduce(0) { total, z in
            total + max(low, min(high, z.end)) - max(low, min(high, z.start))
        }
    }

    /// Where each of ``pieceSources`` is drawn for an icon fitted to `box` (MapLibre's `getIconQuads` with
    /// `icon-text-fit`), in points relative to the anchor: ``applyingTextFitModes(_:)`` first; the stretching
    /// pixels (within ``content`` when given) share the box in proportion, scaled by `iconSize` (but never below the
    /// size at which the fixed pixels fill the box); the fixed pixels add their own size in points.
    /// - Parameters:
    ///   - box: the fitted box (``fitted(to:fit:padding:offset:)``), points before `icon-size`.
    ///   - iconSize: `icon-size`, `> 0`.
    /// - Returns: one box per piece, in the order of ``pieceSources``.
    public func pieceDestinations(for box: IconBox, iconSize: Double) -> [IconBox] {
        let icon = applyingTextFitModes(box)
        let stretchWidth = Self.sum(zonesX, 0, pixelWidth)
        let stretchHeight = Self.sum(zonesY, 0, pixelHeight)
        let fixedWidth = pixelWidth - stretchWidth
        let fixedHeight = pixelHeight - stretchHeight
        var stretchOffsetX = 0.0
        var stretchOffsetY = 0.0
        var stretchContentWidth = stretchWidth
        var stretchContentHeight = stretchHeight
        var fixedOffsetX = 0.0
        var fixedOffsetY = 0.0
        var fixedContentWidth = fixedWidth
        var fixedContentHeight = fixedHeight
        if let content {
            stretchOffsetX = Self.sum(zonesX, 0, content.left)
            stretchOffsetY = Self.sum(zonesY, 0, content.top)
            stretchContentWidth = Self.sum(zonesX, content.left, content.right)
            stretchContentHeight = Self.sum(zonesY, content.top, content.bottom)
            fixedOffsetX = content.left - stretchOffsetX
            fixedOffsetY = content.top - stretchOffsetY
            fixedContentWidth = content.width - stretchContentWidth
            fixedContentHeight = content.height - stretchContentHeight
        }
        func ratio(_ a: Double, _ b: Double) -> Double { b != 0 && b.isFinite ? a / b : 0 }
        let size = iconSize > 0 && iconSize.isFinite ? iconSize : 1
        let scaleX = max(ratio(fixedContentWidth / pixelRatio, icon.width), size)
        let scaleY = max(ratio(fixedContentHeight / pixelRatio, icon.height), size)
        func x(_ cut: Cut) -> Double {
            let em = icon.left + icon.width * ratio(cut.stretch - stretchOffsetX, stretchContentWidth)
            let px = cut.fixed - fixedOffsetX - fixedContentWidth * ratio(cut.stretch, stretchWidth)
            return em * scaleX + px / pixelRatio
        }
        func y(_ cut: Cut) -> Double {
            let em = icon.top + icon.height * ratio(cut.stretch - stretchOffsetY, stretchContentHeight)
            let px = cut.fixed - fixedOffsetY - fixedContentHeight * ratio(cut.stretch, stretchHeight)
            return em * scaleY + px / pixelRatio
        }
        let xs: [Cut]
        let ys: [Cut]
        if stretchX.isEmpty && stretchY.isEmpty {
            xs = [Cut(fixed: 0, stretch: -1), Cut(fixed: 0, stretch: pixelWidth + 1)]
            ys = [Cut(fixed: 0, stretch: -1), Cut(fixed: 0, stretch: pixelHeight + 1)]
        } else {
            xs = Self.cuts(zonesX, fixedSize: fixedWidth, stretchSize: stretchWidth)
            ys = Self.cuts(zonesY, fixedSize: fixedHeight, stretchSize: stretchHeight)
        }
        var out: [IconBox] = []
        for i in 0..<(xs.count - 1) {
            for j in 0..<(ys.count - 1) {
                out.append(IconBox(left: x(xs[i]), top: y(ys[j]), right: x(xs[i + 1]), bottom: y(ys[j + 1])))
            }
        }
        return out
    }

    /// The collision box of an icon fitted to `box` (MapLibre's icon `CollisionFeature`), in points relative to the
    /// anchor, before `icon-padding`: ``applyingTextFitModes(_:)`` scaled by `iconSize`, grown by the image's
    /// margins outside ``content`` (at `iconSize`).
    public func collisionBox(for box: IconBox, iconSize: Double) -> IconBox {
        let icon = applyingTextFitModes(box)
        let size = iconSize > 0 && iconSize.isFinite ? iconSize : 1
        var result = IconBox(
            left: icon.left * size, top: icon.top * size, right: icon.right * size, bottom: icon.bottom * size)
        if let content {
            let display = displaySize
            result.left -= content.left / pixelRatio * size
            result.top -= content.top / pixelRatio * size
            result.right += (display.width - content.right / pixelRatio) * size
            result.bottom += (display.height - content.bottom / pixelRatio) * size
        }
        return result
    }
}

/// An icon laid out around its text (``SymbolIcon/fitted(toText:)``), in points relative to the anchor.
struct FittedIcon {
    /// The union of ``pieces``.
    var bounds: IconBox
    /// The collision box before `icon-padding`.
    var collision: IconBox
    /// Where each of ``IconStretch/pieceSources`` is drawn.
    var pieces: [IconBox]
    /// Where each of ``IconStretch/innerPieceSources`` is drawn.
    var innerPieces: [IconBox]
}

extension SymbolIcon {
    /// The icon fitted to `text` (the point text's box relative to the anchor, in points at perspective ratio 1)
    /// when ``textFit`` is not ``IconTextFit/none`` and ``stretch`` is given, else `nil`. `icon-size` is
    /// ``size`` over the image's size in points, and ``offset`` is taken back to points before it.
    func fitted(toText text: IconBox) -> FittedIcon? {
        guard textFit != .none, let stretch else { return nil }
        let display = stretch.displaySize
        let k = display.width > 0 && size.width > 0 ? size.width / display.width : 1
        guard k > 0, k.isFinite else { return nil }
        let box = stretch.fitted(
            to: text, fit: textFit, padding: textFitPadding, offset: ScreenPoint(x: offset.x / k, y: offset.y / k))
        let pieces = stretch.pieceDestinations(for: box, iconSize: k)
        guard let first = pieces.first else { return nil }
        var bounds = first
        for p in pieces.dropFirst() {
            bounds = IconBox(
                left: min(bounds.left, p.left), top: min(bounds.top, p.top), right: max(bounds.right, p.right),
                bottom: max(bounds.bottom, p.bottom))
        }
        return FittedIcon(
            bounds: bounds, collision: stretch.collisionBox(for: box, iconSize: k), pieces: pieces,
            innerPieces: stretch.innerPieceDestinations(for: box, iconSize: k))
    }
}
