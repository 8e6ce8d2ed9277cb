import Foundation
import LinuxUIKit
import Synchronization

/// The default marker pin (spec §4.1), drawn as vector art: a 26 × 37 pt teardrop whose tip is at the bottom centre,
/// a 1 pt darker border (#C5221F for the default colour), the body (#EA4335) and a 10 pt dark dot (#B31412) centred in
/// the round head. Rasterised once per colour and scale (cached), so it is crisp at scales 1, 2 and 3 and every
/// marker of a colour shares one image. Any thread: the cache is behind a lock (`GMSMarker.markerImage(with:)` is
/// called from tile layers' threads); a pin is drawn outside the lock, and the first image stored for a key wins.
enum DefaultPin {
    /// The pin's size, points.
    static let size = CGSize(width: 26, height: 37)
    /// The default body colour, #EA4335.
    static let defaultColor = UIColor(red: 234 / 255, green: 67 / 255, blue: 53 / 255, alpha: 1)
    private static let defaultBorder = UIColor(red: 197 / 255, green: 34 / 255, blue: 31 / 255, alpha: 1)
    private static let defaultGlyph = UIColor(red: 179 / 255, green: 20 / 255, blue: 18 / 255, alpha: 1)

    struct Key: Hashable {
        var r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat, scale: CGFloat
    }
    private struct Cache {
        var images: [Key: UIImage] = [:]
        /// The colour of every pin image handed out, so a pin used as an icon is redrawn crisply at another scale.
        var colors: [ObjectIdentifier: UIColor] = [:]
    }
    private static let cache = Mutex(Cache())

    /// The pin `image` at `scale` when `image` is one of ours (same colour, redrawn), else nil.
    static func rescaled(_ image: UIImage, scale: CGFloat) -> UIImage? {
        guard let color = cache.withLock({ $0.colors[ObjectIdentifier(image)] }) else { return nil }
        return self.image(color: color, scale: scale)
    }

    /// The pin in `color` at `scale` pixels per point (cached).
    static func image(color: UIColor, scale: CGFloat) -> UIImage {
        let s = scale > 0 && scale.isFinite ? scale : 1
        let c = color.rgba
        let key = Key(r: c.red, g: c.green, b: c.blue, a: c.alpha, scale: s)
        if let hit = cache.withLock({ $0.images[key] }) { return hit }
        let isDefault = color == defaultColor
        let border = isDefault ? defaultBorder : darker(color, by: 0.78)
        let glyph = isDefault ? defaultGlyph : darker(color, by: 0.62)
        let drawn = UIImage.drawnOnAnyThread(size: size, scale: s) { cg in
            drawBody(cg, color, border: border)
            cg.setFillColor(glyph.cgColor)
            cg.fillEllipse(in: CGRect(x: 8, y: 8, width: 10, height: 10))
        }
        return cache.withLock { cache in
            if let winner = cache.images[key] { return winner }
            cache.images[key] = drawn
            cache.colors[ObjectIdentifier(drawn)] = color
            return drawn
        }
    }

    /// The advanced marker's pin drawn from `options` (``GMSPinImage``) at `scale` pixels per point: the default pin's
    /// shape, its background and border from the options (else the defaults), and in its head the glyph: text
    /// centred (bold, shrunk to fit), an image fitted into 14 × 14 points, or the circle in the glyph colour.
    static func image(options: GMSPinImageOptions?, scale: CGFloat) -> UIImage {
        let s = scale > 0 && scale.isFinite ? scale : 1
        let body = options?.backgroundColor ?? defaultColor
        let border = options?.borderColor ?? defaultBorder
        let glyph = options?.glyph
        let head = CGPoint(x: size.width / 2, y: size.width / 2)
        // The renderer's context is current while the glyph's text or image draws into it.
        return UIImage.drawnOnAnyThread(size: size, scale: s) { cg in
            drawBody(cg, body, border: border)
            if let text = glyph?.text {
                var fontSize: CGFloat = 12
                var attributes: [NSAttributedString.Key: Any] = [:]
                var measured = CGSize.zero
                repeat {
                    attributes = [
                        .font: UIFont.boldSystemFont(ofSize: fontSize), .foregroundColor: glyph?.textColor ?? .black,
                    ]
                    measured = text.size(withAttributes: attributes)
                    fontSize -= 1
                } while measured.width > 18 && fontSize >= 6
                text.draw(
                    at: CGPoint(x: head.x - measured.width / 2, y: head.y - measured.height / 2),
                    withAttributes: attributes)
            } else if let image = glyph?.image, image.size.width > 0, image.size.height > 0 {
                let fit = min(14 / image.size.width, 14 / image.size.height)
                let w = image.size.width * fit
                let h = image.size.height * fit
                image.draw(in: CGRect(x: head.x - w / 2, y: head.y - h / 2, width: w, height: h))
            } else {
                cg.setFillColor((glyph?.glyphColor ?? defaultGlyph).cgColor)
                cg.fillEllipse(in: CGRect(x: 8, y: 8, width: 10, height: 10))
            }
        }
    }

    /// The pin's teardrop in `border`, and inside it, a point in, in `body`.
    private static func drawBody(_ cg: CGContext, _ body: UIColor, border: UIColor) {
        addPinPath(cg, in: CGRect(origin: .zero, size: size))
        cg.setFillColor(border.cgColor)
        cg.fillPath()
        addPinPath(cg, in: CGRect(x: 1, y: 1, width: 24, height: 34))
        cg.setFillColor(body.cgColor)
        cg.fillPath()
    }

    /// `color` with red, green and blue multiplied by `factor` (alpha kept).
    static func darker(_ color: UIColor, by factor: CGFloat) -> UIColor {
        let c = color.rgba
        return UIColor(red: c.red * factor, green: c.green * factor, blue: c.blue * factor, alpha: c.alpha)
    }

    /// A teardrop in `rect`: a circle of diameter `rect.width` at the top, tangent lines down to the tip at the
    /// bottom centre.
    static func addPinPath(_ cg: CGContext, in rect: CGRect) {
        let r = rect.width / 2
        let center = CGPoint(x: rect.midX, y: rect.minY + r)
        let tip = CGPoint(x: rect.midX, y: rect.maxY)
        let d = tip.y - center.y
        let beta = acos(min(1, r / d))
        cg.beginPath()
        // Screen angles grow clockwise (y down): from the lower-left tangent point over the top to the lower-right.
        cg.addArc(
            center: center, radius: r, startAngle: .pi / 2 + beta, endAngle: .pi / 2 - beta + 2 * .pi,
            clockwise: false)
        cg.addLine(to: tip)
        cg.closePath()
    }
}
