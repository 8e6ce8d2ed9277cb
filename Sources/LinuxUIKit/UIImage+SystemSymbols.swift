import CCairo
import Foundation

extension UIImage {
    /// The weight of a symbol image's strokes, as UIKit's `UIImage.SymbolWeight`.
    public enum SymbolWeight: Int, Sendable {
        /// No weight given (regular).
        case unspecified = 0
        /// Ultra-light.
        case ultraLight
        /// Thin.
        case thin
        /// Light.
        case light
        /// Regular.
        case regular
        /// Medium.
        case medium
        /// Semibold.
        case semibold
        /// Bold.
        case bold
        /// Heavy.
        case heavy
        /// Black.
        case black

        /// The stroke width relative to regular's.
        var strokeFactor: CGFloat {
            switch self {
            case .ultraLight: return 0.45
            case .thin: return 0.6
            case .light: return 0.8
            case .unspecified, .regular: return 1
            case .medium: return 1.15
            case .semibold: return 1.3
            case .bold: return 1.5
            case .heavy: return 1.75
            case .black: return 2
            }
        }
    }

    /// The size of a symbol image relative to its point size, as UIKit's `UIImage.SymbolScale`.
    public enum SymbolScale: Int, Sendable {
        /// The system's choice (medium).
        case `default` = -1
        /// No scale given (medium).
        case unspecified = 0
        /// Small: 0.8 of medium.
        case small
        /// Medium.
        case medium
        /// Large: 1.3 of medium.
        case large

        /// The image side relative to medium's.
        var factor: CGFloat {
            switch self {
            case .small: return 0.8
            case .large: return 1.3
            default: return 1
            }
        }
    }

    /// How an image is made for its context, as UIKit's `UIImage.Configuration`; Waymark uses only its subclass
    /// ``SymbolConfiguration``.
    public class Configuration: @unchecked Sendable {
        init() {}
    }

    /// The point size, weight and scale of a symbol image, as UIKit's `UIImage.SymbolConfiguration`. Immutable.
    public final class SymbolConfiguration: Configuration, @unchecked Sendable {
        /// The point size of the text the symbol matches (the image is about 1.2 times this), or nil for 17.
        let pointSize: CGFloat?
        /// The stroke weight.
        let weight: SymbolWeight
        /// The scale.
        let scale: SymbolScale

        init(pointSize: CGFloat?, weight: SymbolWeight, scale: SymbolScale) {
            self.pointSize = pointSize.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            self.weight = weight
            self.scale = scale
        }

        /// A configuration for text of `pointSize` points (non-positive or non-finite sizes become 17).
        public convenience init(pointSize: CGFloat) {
            self.init(pointSize: pointSize, weight: .regular, scale: .default)
        }

        /// A configuration for text of `pointSize` points with strokes of `weight`.
        public convenience init(pointSize: CGFloat, weight: SymbolWeight) {
            self.init(pointSize: pointSize, weight: weight, scale: .default)
        }

        /// A configuration for text of `pointSize` points with strokes of `weight`, at `scale`.
        public convenience init(pointSize: CGFloat, weight: SymbolWeight, scale: SymbolScale) {
            self.init(pointSize: Optional(pointSize), weight: weight, scale: scale)
        }

        /// A configuration with strokes of `weight` at 17 points.
        public convenience init(weight: SymbolWeight) { self.init(pointSize: nil, weight: weight, scale: .default) }

        /// A configuration at `scale` and 17 points.
        public convenience init(scale: SymbolScale) { self.init(pointSize: nil, weight: .unspecified, scale: scale) }

        /// A configuration matching the font of `textStyle` (its size, and semibold for `.headline`).
        public convenience init(textStyle: UIFont.TextStyle) {
            let (size, weight) = textStyle.metrics
            self.init(pointSize: size, weight: weight == .semibold ? .semibold : .regular, scale: .default)
        }

        /// The side of the image, points.
        var side: CGFloat { ((pointSize ?? 17) * 1.2 * scale.factor).rounded() }
    }

    /// A system symbol image, as UIKit's `init?(systemName:)`: a template image (rendering mode `.alwaysTemplate`,
    /// so image views and buttons fill it with their tint) about 20 points square, drawn as vectors for the screen
    /// scale.
    ///
    /// Waymark's limit: Linux has no SF Symbols, so only these common map-app symbols exist (the LinuxUIKit README lists them), drawn by Waymark in SF
    /// Symbols' spirit: ``availableSystemSymbolNames``. Any other name gives nil and logs one line naming it (once
    /// per name).
    public convenience init?(systemName name: String) {
        self.init(systemName: name, withConfiguration: nil)
    }

    /// A system symbol image drawn for `configuration` (a ``SymbolConfiguration``; nil or another configuration
    /// gives 17 points, regular), as UIKit's `init?(systemName:withConfiguration:)`. The image side is about 1.2
    /// times the point size (× 0.8 small, × 1.3 large); the weight sets the stroke width. Nil, with one logged line,
    /// for a name Waymark does not draw (see ``init(systemName:)``).
    public convenience init?(systemName name: String, withConfiguration configuration: Configuration?) {
        guard let draw = SystemSymbols.drawings[name] else {
            SystemSymbols.logMissing(name)
            return nil
        }
        let config =
            configuration as? SymbolConfiguration
            ?? SymbolConfiguration(pointSize: nil, weight: .regular, scale: .default)
        let side = config.side
        let image = UIImage.drawnOnAnyThread(size: CGSize(width: side, height: side), scale: UIScreen.mainScale) { cg in
            // Symbols are designed on a 24-unit grid with a 2-unit stroke (regular).
            cg.scaleBy(x: side / 24, y: side / 24)
            cairo_set_line_cap(cg.cairo, CAIRO_LINE_CAP_ROUND)
            cairo_set_line_join(cg.cairo, CAIRO_LINE_JOIN_ROUND)
            cg.setLineWidth(2 * config.weight.strokeFactor)
            cg.setFillColor(UIColor.black.cgColor)
            cg.setStrokeColor(UIColor.black.cgColor)
            draw(SymbolPen(cg: cg))
        }
        self.init(bitmaps: image.bitmaps, scale: image.scale, renderingMode: .alwaysTemplate)
    }

    /// The names ``init(systemName:)`` draws (Waymark's own API: Linux has no SF Symbols), sorted.
    public static var availableSystemSymbolNames: [String] { SystemSymbols.drawings.keys.sorted() }
}

/// Drawing helpers on the 24-unit symbol grid.
struct SymbolPen {
    let cg: CGContext

    func line(_ points: (CGFloat, CGFloat)...) {
        polyline(points, close: false)
        cg.strokePath()
    }

    /// Strokes the closed polygon; a filled one is filled and stroked, so it covers its outline's ink too.
    func polygon(_ points: [(CGFloat, CGFloat)], fill: Bool) {
        if fill {
            polyline(points, close: true)
            cg.fillPath()
        }
        polyline(points, close: true)
        cg.strokePath()
    }

    private func polyline(_ points: [(CGFloat, CGFloat)], close: Bool) {
        cg.beginPath()
        for (i, p) in points.enumerated() {
            if i == 0 { cg.move(to: CGPoint(x: p.0, y: p.1)) } else { cg.addLine(to: CGPoint(x: p.0, y: p.1)) }
        }
        if close { cg.closePath() }
    }

    func circle(_ x: CGFloat, _ y: CGFloat, _ r: CGFloat, fill: Bool) {
        cg.beginPath()
        cg.addEllipse(in: CGRect(x: x - r, y: y - r, width: 2 * r, height: 2 * r))
        if fill { cg.fillPath() } else { cg.strokePath() }
    }

    /// Clears a disc to transparent (cut-outs in filled shapes).
    func erase(_ x: CGFloat, _ y: CGFloat, _ r: CGFloat) {
        cairo_save(cg.cairo)
        cairo_set_operator(cg.cairo, CAIRO_OPERATOR_CLEAR)
        cairo_new_path(cg.cairo)
        cairo_arc(cg.cairo, Double(x), Double(y), Double(r), 0, 2 * .pi)
        cairo_fill(cg.cairo)
        cairo_restore(cg.cairo)
    }

    /// Strokes `points` as a line cut out of what is drawn (transparent ink).
    func cutLine(_ points: (CGFloat, CGFloat)...) {
        cairo_save(cg.cairo)
        cairo_set_operator(cg.cairo, CAIRO_OPERATOR_CLEAR)
        polyline(points, close: false)
        cg.strokePath()
        cairo_restore(cg.cairo)
    }

    /// Fills the polygon as a cut-out (transparent ink).
    func cutPolygon(_ points: [(CGFloat, CGFloat)]) {
        cairo_save(cg.cairo)
        cairo_set_operator(cg.cairo, CAIRO_OPERATOR_CLEAR)
        polyline(points, close: true)
        cg.fillPath()
        cairo_restore(cg.cairo)
    }

    /// A heart: two lobes meeting at a point at the bottom.
    func heart(fill: Bool) {
        func outline() {
            cg.beginPath()
            cg.move(to: CGPoint(x: 12, y: 20.5))
            cg.addCurve(
                to: CGPoint(x: 2.5, y: 8.5), control1: CGPoint(x: 6, y: 16), control2: CGPoint(x: 2.5, y: 12.5))
            cg.addCurve(to: CGPoint(x: 12, y: 6.5), control1: CGPoint(x: 2.5, y: 3), control2: CGPoint(x: 9.5, y: 2))
            cg.addCurve(
                to: CGPoint(x: 21.5, y: 8.5), control1: CGPoint(x: 14.5, y: 2), control2: CGPoint(x: 21.5, y: 3))
            cg.addCurve(
                to: CGPoint(x: 12, y: 20.5), control1: CGPoint(x: 21.5, y: 12.5), control2: CGPoint(x: 18, y: 16))
            cg.closePath()
        }
        if fill {
            outline()
            cg.fillPath()
        }
        outline()
        cg.strokePath()
    }

    func star(fill: Bool) {
        var points: [(CGFloat, CGFloat)] = []
        for i in 0..<10 {
            let r: CGFloat = i % 2 == 0 ? 10 : 4.2
            let a = -CGFloat.pi / 2 + CGFloat(i) * .pi / 5
            points.append((12 + r * cos(a), 12.8 + r * sin(a)))
        }
        polygon(points, fill: fill)
    }
}

/// The symbols Waymark draws and the names it has reported missing.
enum SystemSymbols {
    static let drawings: [String: @Sendable (SymbolPen) -> Void] = [
        "plus": {
            $0.line((12, 4), (12, 20))
            $0.line((4, 12), (20, 12))
        },
        "minus": { $0.line((4, 12), (20, 12)) },
        "xmark": {
            $0.line((5, 5), (19, 19))
            $0.line((19, 5), (5, 19))
        },
        "checkmark": { $0.line((4, 13), (9.5, 18.5), (20, 5.5)) },
        "sidebar.left": {
            $0.polygon([(2.5, 4.5), (21.5, 4.5), (21.5, 19.5), (2.5, 19.5)], fill: false)
            $0.line((9, 4.5), (9, 19.5))
            $0.line((4.5, 8), (7, 8))
            $0.line((4.5, 11), (7, 11))
        },
        "chevron.right": { $0.line((9, 4), (17, 12), (9, 20)) },
        "chevron.left": { $0.line((15, 4), (7, 12), (15, 20)) },
        "location": { $0.polygon([(20.5, 3.5), (3.5, 10.5), (11.5, 12.5), (13.5, 20.5)], fill: false) },
        "location.fill": { $0.polygon([(20.5, 3.5), (3.5, 10.5), (11.5, 12.5), (13.5, 20.5)], fill: true) },
        "map": {
            $0.polygon([(3, 6), (9, 3.5), (15, 6), (21, 3.5), (21, 18), (15, 20.5), (9, 18), (3, 20.5)], fill: false)
            $0.line((9, 3.5), (9, 18))
            $0.line((15, 6), (15, 20.5))
        },
        "mappin": {
            $0.circle(12, 7.5, 4.5, fill: false)
            $0.line((12, 12), (12, 21))
        },
        "moon": { moon($0, fill: false) },
        "moon.fill": { moon($0, fill: true) },
        "sun.max": {
            $0.circle(12, 12, 4, fill: false)
            for i in 0..<8 {
                let a = CGFloat(i) * .pi / 4
                $0.line((12 + 7 * cos(a), 12 + 7 * sin(a)), (12 + 10 * cos(a), 12 + 10 * sin(a)))
            }
        },
        "gear": {
            for i in 0..<8 {
                let a = CGFloat(i) * .pi / 4
                let (c, s) = (cos(a), sin(a))
                let (px, py) = (-s * 1.8, c * 1.8)
                $0.polygon(
                    [
                        (12 + 6 * c + px, 12 + 6 * s + py), (12 + 10.5 * c + px, 12 + 10.5 * s + py),
                        (12 + 10.5 * c - px, 12 + 10.5 * s - py), (12 + 6 * c - px, 12 + 6 * s - py),
                    ], fill: true)
            }
            $0.circle(12, 12, 7.5, fill: true)
            $0.erase(12, 12, 3)
        },
        "magnifyingglass": {
            $0.circle(10, 10, 6.5, fill: false)
            $0.line((14.8, 14.8), (20.5, 20.5))
        },
        "list.bullet": {
            for y: CGFloat in [6, 12, 18] {
                $0.circle(4.5, y, 1.5, fill: true)
                $0.line((9, y), (21, y))
            }
        },
        "star": { $0.star(fill: false) },
        "star.fill": { $0.star(fill: true) },
        "trash": {
            $0.line((3.5, 6), (20.5, 6))
            $0.line((9, 6), (9.5, 3.5), (14.5, 3.5), (15, 6))
            $0.line((5.5, 6), (6.5, 21), (17.5, 21), (18.5, 6))
            $0.line((10, 10), (10, 17))
            $0.line((14, 10), (14, 17))
        },
        "info.circle": {
            $0.circle(12, 12, 9.5, fill: false)
            $0.circle(12, 7.5, 1.3, fill: true)
            $0.line((12, 11), (12, 17))
        },
        "circle": { $0.circle(12, 12, 9.5, fill: false) },
        "circle.fill": { $0.circle(12, 12, 10.5, fill: true) },
        "circle.lefthalf.filled": {
            $0.circle(12, 12, 9.5, fill: false)
            $0.cg.beginPath()
            $0.cg.addArc(
                center: CGPoint(x: 12, y: 12), radius: 9.5, startAngle: .pi / 2, endAngle: 3 * .pi / 2,
                clockwise: false)
            $0.cg.closePath()
            $0.cg.fillPath()
        },
        "scope": {
            $0.circle(12, 12, 7.5, fill: false)
            $0.circle(12, 12, 2, fill: true)
            $0.line((12, 1.5), (12, 6.5))
            $0.line((12, 17.5), (12, 22.5))
            $0.line((1.5, 12), (6.5, 12))
            $0.line((17.5, 12), (22.5, 12))
        },
        "iphone": {
            $0.cg.beginPath()
            $0.cg.addRect(CGRect(x: 6.5, y: 2, width: 11, height: 20))
            $0.cg.strokePath()
            $0.line((10.5, 4.5), (13.5, 4.5))
        },
        "xmark.circle.fill": {
            $0.circle(12, 12, 10.5, fill: true)
            $0.cutLine((8.5, 8.5), (15.5, 15.5))
            $0.cutLine((15.5, 8.5), (8.5, 15.5))
        },
        "map.fill": {
            $0.polygon([(3, 6), (9, 3.5), (15, 6), (21, 3.5), (21, 18), (15, 20.5), (9, 18), (3, 20.5)], fill: true)
            $0.cutLine((9, 4.5), (9, 17.5))
            $0.cutLine((15, 6.5), (15, 19.5))
        },
        "mappin.and.ellipse": {
            $0.circle(12, 6.5, 4, fill: false)
            $0.line((12, 10.5), (12, 17))
            $0.cg.beginPath()
            $0.cg.addEllipse(in: CGRect(x: 3, y: 15.5, width: 18, height: 6))
            $0.cg.strokePath()
        },
        "gearshape": {
            for i in 0..<8 {
                let a = CGFloat(i) * .pi / 8 * 2 + .pi / 8
                let (c, s) = (cos(a), sin(a))
                let (px, py) = (-s * 1.6, c * 1.6)
                $0.polygon(
                    [
                        (12 + 7 * c + px, 12 + 7 * s + py), (12 + 10.5 * c + px * 0.8, 12 + 10.5 * s + py * 0.8),
                        (12 + 10.5 * c - px * 0.8, 12 + 10.5 * s - py * 0.8), (12 + 7 * c - px, 12 + 7 * s - py),
                    ], fill: true)
            }
            $0.circle(12, 12, 7, fill: false)
            $0.circle(12, 12, 2.8, fill: false)
        },
        "car.fill": {
            $0.polygon([(3, 12), (5.5, 5.5), (18.5, 5.5), (21, 12), (21, 18), (3, 18)], fill: true)
            $0.cutPolygon([(6.5, 11), (7.8, 7.5), (16.2, 7.5), (17.5, 11)])
            $0.erase(7, 14.5, 1.6)
            $0.erase(17, 14.5, 1.6)
            $0.cg.beginPath()
            $0.cg.addRect(CGRect(x: 4, y: 17, width: 4, height: 3.5))
            $0.cg.addRect(CGRect(x: 16, y: 17, width: 4, height: 3.5))
            $0.cg.fillPath()
        },
        "figure.walk": {
            $0.circle(13, 3.5, 2.2, fill: true)
            $0.line((12, 8), (10.5, 14.5))
            $0.line((10.5, 14.5), (13, 17.5), (13.5, 22))
            $0.line((10.5, 14.5), (8.5, 18), (6, 21.5))
            $0.line((12, 8), (8.5, 10), (7, 13.5))
            $0.line((12, 8), (14.5, 11.5), (17.5, 12.5))
        },
        "bicycle": {
            $0.circle(5.5, 16, 4, fill: false)
            $0.circle(18.5, 16, 4, fill: false)
            $0.line((5.5, 16), (9.5, 8.5), (16, 8.5), (18.5, 16))
            $0.line((9.5, 8.5), (12, 16), (16, 8.5))
            $0.line((12, 16), (5.5, 16))
            $0.line((8, 6), (11, 6))
            $0.line((16, 8.5), (15, 5), (17.5, 5))
        },
        "tram.fill": {
            $0.line((8, 2.5), (16, 2.5))
            $0.line((12, 2.5), (12, 5))
            $0.polygon([(5, 5), (19, 5), (19, 19), (5, 19)], fill: true)
            $0.cutPolygon([(7.5, 7.5), (16.5, 7.5), (16.5, 12), (7.5, 12)])
            $0.erase(8.5, 15.5, 1.3)
            $0.erase(15.5, 15.5, 1.3)
            $0.line((7.5, 19), (5, 22))
            $0.line((16.5, 19), (19, 22))
        },
        "heart": { $0.heart(fill: false) },
        "heart.fill": { $0.heart(fill: true) },
        "arrow.triangle.turn.up.right.diamond.fill": {
            $0.polygon([(12, 1.5), (22.5, 12), (12, 22.5), (1.5, 12)], fill: true)
            $0.cutLine((8.5, 16.5), (8.5, 11.5), (15, 11.5))
            $0.cutPolygon([(13.5, 8), (17.5, 11.5), (13.5, 15)])
        },
        "moon.circle": {
            $0.circle(12, 12, 9.5, fill: false)
            $0.circle(11, 13, 5.5, fill: true)
            $0.erase(14.5, 9.5, 4.5)
        },
        "moon.stars": {
            let cg = $0.cg.cairo
            cairo_save(cg)
            cairo_translate(cg, 0, 4.8)
            cairo_scale(cg, 0.8, 0.8)
            moon($0, fill: false)
            cairo_restore(cg)
            sparkle($0, 18, 5, 3)
            sparkle($0, 21.5, 11.5, 2)
        },
        "location.circle": {
            $0.circle(12, 12, 9.5, fill: false)
            let arrow: [(CGFloat, CGFloat)] = [(20.5, 3.5), (3.5, 10.5), (11.5, 12.5), (13.5, 20.5)]
            $0.cg.setLineWidth(1.5)
            $0.polygon(arrow.map { (12 + ($0.0 - 12) * 0.5, 12.5 + ($0.1 - 12) * 0.5) }, fill: false)
        },
        "building.2": {
            $0.polygon([(3, 21), (3, 4), (12, 4), (12, 21)], fill: false)
            $0.polygon([(12, 21), (12, 10), (21, 10), (21, 21)], fill: false)
            for (x, y) in [(6, 8), (9, 8), (6, 12), (9, 12), (6, 16), (9, 16), (15, 14), (18, 14)]
                as [(CGFloat, CGFloat)]
            {
                $0.circle(x, y, 1, fill: true)
            }
        },
        "mappin.circle.fill": {
            $0.circle(12, 12, 10.5, fill: true)
            $0.erase(12, 9, 3.5)
            $0.cutLine((12, 12), (12, 17.5))
        },
        "slider.horizontal.3": {
            for (y, knob) in [(5, 15), (12, 8), (19, 17)] as [(CGFloat, CGFloat)] {
                $0.line((3, y), (knob - 2.5, y))
                $0.line((knob + 2.5, y), (21, y))
                $0.circle(knob, y, 2.5, fill: false)
            }
        },
        "plus.magnifyingglass": {
            $0.circle(10, 10, 6.5, fill: false)
            $0.line((14.8, 14.8), (20.5, 20.5))
            $0.line((10, 7), (10, 13))
            $0.line((7, 10), (13, 10))
        },
        "minus.magnifyingglass": {
            $0.circle(10, 10, 6.5, fill: false)
            $0.line((14.8, 14.8), (20.5, 20.5))
            $0.line((7, 10), (13, 10))
        },
        "point.topleft.down.curvedto.point.bottomright.up": {
            $0.circle(4.5, 4.5, 2.5, fill: false)
            $0.circle(19.5, 19.5, 2.5, fill: false)
            $0.cg.beginPath()
            $0.cg.move(to: CGPoint(x: 4.5, y: 7.5))
            $0.cg.addCurve(
                to: CGPoint(x: 19.5, y: 16.5), control1: CGPoint(x: 4.5, y: 22), control2: CGPoint(x: 19.5, y: 2))
            $0.cg.strokePath()
        },
        "globe": {
            $0.circle(12, 12, 9.5, fill: false)
            $0.cg.beginPath()
            $0.cg.addEllipse(in: CGRect(x: 7.5, y: 2.5, width: 9, height: 19))
            $0.cg.strokePath()
            $0.line((2.5, 12), (21.5, 12))
            $0.line((4, 7), (20, 7))
            $0.line((4, 17), (20, 17))
        },
        "arrow.clockwise": {
            let cg = $0.cg.cairo
            cairo_new_path(cg)
            cairo_arc(cg, 12, 13, 8, -.pi / 4, 1.5 * .pi)
            cairo_stroke(cg)
            $0.line((9.5, 1.5), (13, 5), (9.5, 8.5))
        },
        "square.and.arrow.up": {
            $0.line((8.5, 9), (5, 9), (5, 21), (19, 21), (19, 9), (15.5, 9))
            $0.line((12, 2.5), (12, 15))
            $0.line((8, 6.5), (12, 2.5), (16, 6.5))
        },
        "ellipsis.circle": {
            $0.circle(12, 12, 9.5, fill: false)
            for x: CGFloat in [7.5, 12, 16.5] { $0.circle(x, 12, 1.4, fill: true) }
        },
        "line.3.horizontal": {
            for y: CGFloat in [6, 12, 18] { $0.line((3, y), (21, y)) }
        },
        "square.stack.3d.up": {
            $0.polygon([(12, 3), (21, 7.5), (12, 12), (3, 7.5)], fill: false)
            $0.line((3, 12), (12, 16.5), (21, 12))
            $0.line((3, 16.5), (12, 21), (21, 16.5))
        },
    ]

    /// A four-pointed sparkle (a small star) centred on `x`, `y`, `r` units from the centre to a point.
    private static func sparkle(_ pen: SymbolPen, _ x: CGFloat, _ y: CGFloat, _ r: CGFloat) {
        let k = r * 0.3
        cairo_save(pen.cg.cairo)
        pen.cg.setLineWidth(0.8)
        defer { cairo_restore(pen.cg.cairo) }
        pen.polygon(
            [
                (x, y - r), (x + k, y - k), (x + r, y), (x + k, y + k), (x, y + r), (x - k, y + k), (x - r, y),
                (x - k, y - k),
            ],
            fill: true)
    }

    /// A crescent: filled, or as an outline (the filled crescent with a thinner one cut from it).
    private static func moon(_ pen: SymbolPen, fill: Bool) {
        pen.circle(12, 12, 9.5, fill: true)
        pen.erase(17.5, 7.5, 8)
        guard !fill else { return }
        // Cut the inside out: the disc shrunk by a stroke, minus the cut-out grown by a stroke.
        let w = CGFloat(cairo_get_line_width(pen.cg.cairo))
        let cg = pen.cg.cairo
        cairo_save(cg)
        cairo_new_path(cg)
        cairo_arc(cg, 12, 12, Double(9.5 - w), 0, 2 * .pi)
        cairo_clip(cg)
        cairo_new_path(cg)
        cairo_rectangle(cg, 0, 0, 24, 24)
        cairo_arc_negative(cg, 17.5, 7.5, Double(8 + w), 2 * .pi, 0)
        cairo_set_fill_rule(cg, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_set_operator(cg, CAIRO_OPERATOR_CLEAR)
        cairo_fill(cg)
        cairo_restore(cg)
    }

    private static let reported = LockedBox<Set<String>>([])

    /// Logs once per name that Waymark has no drawing for `name`.
    static func logMissing(_ name: String) {
        let isNew = reported.withLock { $0.insert(name).inserted }
        if isNew {
            UIKitLog.warning(
                "UIImage(systemName: \"\(name)\"): no such symbol on Linux (Waymark draws only "
                    + "UIImage.availableSystemSymbolNames); returning nil")
        }
    }
}
