import CCairo
import CairoGraphics
import Foundation

/// An effect a ``UIVisualEffectView`` applies to what is behind it, as UIKit's `UIVisualEffect`.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIVisualEffect {
    /// Creates an effect that does nothing.
    public init() {}
}

/// A blur of what is behind the view, with a tint, as UIKit's `UIBlurEffect`.
///
/// Waymark draws a Gaussian blur (three box passes) of the pixels already drawn behind the view, then fills the
/// style's tint over it. Apple does not publish its materials' values; the blur radii and tints below are Waymark's
/// approximations of iOS 17's look (standard deviation in points; tints as white level and opacity), light / dark:
///
/// | style | blur σ | light tint | dark tint |
/// | --- | --- | --- | --- |
/// | `.systemUltraThinMaterial` | 12 | white 0.96 at 32 % | 0.12 at 40 % |
/// | `.systemThinMaterial` | 12 | white 0.96 at 52 % | 0.12 at 58 % |
/// | `.systemMaterial`, `.regular` | 12 | white 0.97 at 72 % | 0.12 at 74 % |
/// | `.systemThickMaterial`, `.prominent` | 12 | white 0.97 at 88 % | 0.10 at 88 % |
/// | `.systemChromeMaterial` | 12 | white 0.97 at 80 % | 0.11 at 80 % |
/// | `.extraLight` | 10 | white 0.97 at 80 % | (same) |
/// | `.light` | 10 | white 0.97 at 30 % | (same) |
/// | `.dark` | 10 | 0.11 at 73 % | (same) |
///
/// The `…Light` and `…Dark` material styles use their material's light or dark column in any appearance; the
/// others follow the view's `traitCollection.userInterfaceStyle`.
@preconcurrency @MainActor open class UIBlurEffect: UIVisualEffect {
    /// The blur's look, as UIKit's `UIBlurEffect.Style` (the raw values are UIKit's).
    public enum Style: Int, Sendable, CaseIterable {
        /// A bright blur, light in any appearance.
        case extraLight = 0
        /// A light blur in any appearance.
        case light = 1
        /// A dark blur in any appearance.
        case dark = 2
        /// A blur that follows the appearance (as `.systemMaterial`).
        case regular = 4
        /// A more opaque blur that follows the appearance (as `.systemThickMaterial`).
        case prominent = 5
        /// The most translucent material; follows the appearance.
        case systemUltraThinMaterial = 6
        /// A translucent material; follows the appearance.
        case systemThinMaterial = 7
        /// The default material; follows the appearance.
        case systemMaterial = 8
        /// A more opaque material; follows the appearance.
        case systemThickMaterial = 9
        /// The material of bars and chrome; follows the appearance.
        case systemChromeMaterial = 10
        /// `.systemUltraThinMaterial`'s light look in any appearance.
        case systemUltraThinMaterialLight = 11
        /// `.systemThinMaterial`'s light look in any appearance.
        case systemThinMaterialLight = 12
        /// `.systemMaterial`'s light look in any appearance.
        case systemMaterialLight = 13
        /// `.systemThickMaterial`'s light look in any appearance.
        case systemThickMaterialLight = 14
        /// `.systemChromeMaterial`'s light look in any appearance.
        case systemChromeMaterialLight = 15
        /// `.systemUltraThinMaterial`'s dark look in any appearance.
        case systemUltraThinMaterialDark = 16
        /// `.systemThinMaterial`'s dark look in any appearance.
        case systemThinMaterialDark = 17
        /// `.systemMaterial`'s dark look in any appearance.
        case systemMaterialDark = 18
        /// `.systemThickMaterial`'s dark look in any appearance.
        case systemThickMaterialDark = 19
        /// `.systemChromeMaterial`'s dark look in any appearance.
        case systemChromeMaterialDark = 20
    }

    /// The blur's look.
    public let style: Style

    /// Creates a blur effect of `style`.
    public init(style: Style) {
        self.style = style
        super.init()
    }

    /// The material row of the table: (light white, light alpha, dark white, dark alpha), and whether the style
    /// forces light (`true`), dark (`false`) or follows the appearance (nil).
    private var material: (lw: CGFloat, la: CGFloat, dw: CGFloat, da: CGFloat, forced: Bool?) {
        switch style {
        case .extraLight: (0.97, 0.8, 0.97, 0.8, nil)
        case .light: (0.97, 0.3, 0.97, 0.3, nil)
        case .dark: (0.11, 0.73, 0.11, 0.73, nil)
        case .systemUltraThinMaterial: (0.96, 0.32, 0.12, 0.40, nil)
        case .systemUltraThinMaterialLight: (0.96, 0.32, 0.12, 0.40, true)
        case .systemUltraThinMaterialDark: (0.96, 0.32, 0.12, 0.40, false)
        case .systemThinMaterial: (0.96, 0.52, 0.12, 0.58, nil)
        case .systemThinMaterialLight: (0.96, 0.52, 0.12, 0.58, true)
        case .systemThinMaterialDark: (0.96, 0.52, 0.12, 0.58, false)
        case .systemMaterial, .regular: (0.97, 0.72, 0.12, 0.74, nil)
        case .systemMaterialLight: (0.97, 0.72, 0.12, 0.74, true)
        case .systemMaterialDark: (0.97, 0.72, 0.12, 0.74, false)
        case .systemThickMaterial, .prominent: (0.97, 0.88, 0.10, 0.88, nil)
        case .systemThickMaterialLight: (0.97, 0.88, 0.10, 0.88, true)
        case .systemThickMaterialDark: (0.97, 0.88, 0.10, 0.88, false)
        case .systemChromeMaterial: (0.97, 0.80, 0.11, 0.80, nil)
        case .systemChromeMaterialLight: (0.97, 0.80, 0.11, 0.80, true)
        case .systemChromeMaterialDark: (0.97, 0.80, 0.11, 0.80, false)
        }
    }

    /// The blur's standard deviation, points.
    var blurRadius: CGFloat { [.extraLight, .light, .dark].contains(style) ? 10 : 12 }

    /// The tint drawn over the blur for `style` (the view's appearance).
    func tint(for appearance: UIUserInterfaceStyle) -> UIColor {
        let m = material
        let dark = m.forced.map { !$0 } ?? (appearance == .dark)
        return dark ? UIColor(white: m.dw, alpha: m.da) : UIColor(white: m.lw, alpha: m.la)
    }
}

/// Content drawn so it stands out on a blur, as UIKit's `UIVibrancyEffect`. Waymark draws the content view as it
/// is (no vibrancy); the effect is stored so code that builds one compiles and shows its content.
@preconcurrency @MainActor open class UIVibrancyEffect: UIVisualEffect {
    /// The blur the vibrancy is for.
    public let blurEffect: UIBlurEffect
    /// The vibrancy's kind.
    public let style: UIVibrancyEffectStyle

    /// Creates a vibrancy effect for `blurEffect` (style `.label`).
    public init(blurEffect: UIBlurEffect) {
        self.blurEffect = blurEffect
        style = .label
        super.init()
    }

    /// Creates a vibrancy effect of `style` for `blurEffect`.
    public init(blurEffect: UIBlurEffect, style: UIVibrancyEffectStyle) {
        self.blurEffect = blurEffect
        self.style = style
        super.init()
    }
}

/// The kinds of vibrancy, as UIKit's `UIVibrancyEffectStyle`.
public enum UIVibrancyEffectStyle: Int, Sendable {
    /// For primary text.
    case label = 0
    /// For secondary text.
    case secondaryLabel = 1
    /// For tertiary text.
    case tertiaryLabel = 2
    /// For quaternary text.
    case quaternaryLabel = 3
    /// For fills.
    case fill = 4
    /// For secondary fills.
    case secondaryFill = 5
    /// For tertiary fills.
    case tertiaryFill = 6
    /// For separators.
    case separator = 7
}

/// A view that blurs what is behind it, as UIKit's `UIVisualEffectView`. Put your views in ``contentView``.
///
/// With a ``UIBlurEffect`` it draws, inside its bounds, a Gaussian blur of the pixels already drawn behind it (its
/// superview's content and the siblings below it, in the frame being drawn), then the style's tint for the view's
/// appearance (see ``UIBlurEffect``); round it with `layer.cornerRadius` and `clipsToBounds`. The blur reads the
/// surface being drawn into, so it is drawn afresh with every frame the window draws (never kept in a bitmap);
/// inside a group the renderer draws apart (an ancestor with `alpha` below 1 or `shouldRasterize`) only what that
/// group has drawn is blurred. With a
/// ``UIVibrancyEffect`` or no effect it draws nothing of its own.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIVisualEffectView: UIView {
    /// The effect; changing it redraws. Defaults to the initialiser's.
    open var effect: UIVisualEffect? { didSet { setNeedsDisplay() } }
    /// The view to add subviews to; it fills the effect view.
    public let contentView = UIView()

    /// Creates an effect view with `effect` (nil draws nothing of its own).
    public init(effect: UIVisualEffect?) {
        self.effect = effect
        super.init(frame: .zero)
        setUp()
    }

    /// Creates an effect view without an effect.
    public override init(frame: CGRect) {
        effect = nil
        super.init(frame: frame)
        setUp()
    }

    /// Creates an effect view without an effect (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        effect = nil
        super.init(coder: coder)
        setUp()
    }

    private func setUp() {
        isOpaque = false
        contentView.frame = bounds
        contentView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        addSubview(contentView)
    }

    /// Keeps ``contentView`` filling the view.
    open override func layoutSubviews() {
        super.layoutSubviews()
        contentView.frame = bounds
    }

    /// Draws the blur of what is behind and the tint.
    open override func draw(_ rect: CGRect) {
        guard let blur = effect as? UIBlurEffect, let context = UIGraphicsGetCurrentContext() else { return }
        let cr = context.cairo
        drawBackdropBlur(cr, in: bounds, sigma: Double(blur.blurRadius))
        blur.tint(for: traitCollection.userInterfaceStyle).setFill()
        UIRectFill(bounds)
    }
}

/// The effect view is frame-driven only in name: it never asks for frames, but being a ``UIFrameTicking`` view keeps
/// the renderer from keeping its drawing in a bitmap (its pixels depend on what is behind it, not only on itself), so
/// every frame the window draws blurs what is behind it then.
extension UIVisualEffectView: UIFrameTicking {
    /// False: the effect view changes only when what is behind it does, and that asks for its own frames.
    package var needsFrames: Bool { false }
    /// False: nothing is made elsewhere.
    package var isLoading: Bool { false }
    /// Does nothing.
    package func tickFrame() {}
}

/// Replaces `rect` (user space of `cr`) with a Gaussian blur (standard deviation `sigma` points) of what the
/// surface `cr` draws into holds there. The backdrop is copied at a quarter (or less) of the device resolution for
/// large radii, blurred with three box passes per axis, and drawn back with bilinear filtering.
@MainActor func drawBackdropBlur(_ cr: OpaquePointer, in rect: CGRect, sigma: Double) {
    guard rect.width > 0, rect.height > 0, sigma > 0, let target = cairo_get_group_target(cr) else { return }
    var m = cairo_matrix_t()
    cairo_get_matrix(cr, &m)
    let scale = max(0.25, min(8, sqrt(abs(m.xx * m.yy - m.xy * m.yx))))
    var xs: [Double] = []
    var ys: [Double] = []
    for corner in [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)] {
        var x = Double(corner.0)
        var y = Double(corner.1)
        cairo_user_to_device(cr, &x, &y)
        xs.append(x)
        ys.append(y)
    }
    let sigmaDevice = sigma * scale
    let pad = ceil(3 * sigmaDevice)
    let x0 = floor(xs.min()! - pad)
    let y0 = floor(ys.min()! - pad)
    let x1 = ceil(xs.max()! + pad)
    let y1 = ceil(ys.max()! + pad)
    let down = max(1, floor(sigmaDevice / 3))
    let width = Int(ceil((x1 - x0) / down))
    let height = Int(ceil((y1 - y0) / down))
    guard width > 0, height > 0, width <= 4096, height <= 4096 else { return }
    let small = CairoBitmap.blank(width: width, height: height)
    guard let copy = cairo_create(small.surface) else { return }
    cairo_scale(copy, 1 / down, 1 / down)
    cairo_set_source_surface(copy, target, -x0, -y0)
    cairo_pattern_set_extend(cairo_get_source(copy), CAIRO_EXTEND_PAD)
    cairo_pattern_set_filter(cairo_get_source(copy), CAIRO_FILTER_GOOD)
    cairo_set_operator(copy, CAIRO_OPERATOR_SOURCE)
    cairo_paint(copy)
    cairo_destroy(copy)
    cairo_surface_flush(small.surface)
    blurPremultiplied(small.surface, width: width, height: height, sigma: sigmaDevice / down)
    cairo_save(cr)
    cairo_rectangle(cr, Double(rect.minX), Double(rect.minY), Double(rect.width), Double(rect.height))
    cairo_clip(cr)
    cairo_identity_matrix(cr)
    cairo_translate(cr, x0, y0)
    cairo_scale(cr, down, down)
    cairo_set_source_surface(cr, small.surface, 0, 0)
    cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
    cairo_paint(cr)
    cairo_restore(cr)
}

/// Blurs the four premultiplied channels of an ARGB32 image surface in place: three box passes per axis
/// approximating a Gaussian of standard deviation `sigma` pixels (edges clamped).
func blurPremultiplied(_ surface: OpaquePointer, width w: Int, height h: Int, sigma: Double) {
    guard let data = cairo_image_surface_get_data(surface) else { return }
    let stride = Int(cairo_image_surface_get_stride(surface))
    let boxWidth = (4 * sigma * sigma + 1).squareRoot()
    let r = Int((boxWidth - 1) / 2 + 0.5)
    guard r > 0 else { return }
    var channels = [[Float]](repeating: [Float](repeating: 0, count: w * h), count: 4)
    for y in 0..<h {
        let row = UnsafeRawPointer(data.advanced(by: y * stride)).assumingMemoryBound(to: UInt32.self)
        for x in 0..<w {
            let p = row[x]
            for c in 0..<4 { channels[c][y * w + x] = Float((p >> (UInt32(c) * 8)) & 0xFF) }
        }
    }
    var scratch = [Float](repeating: 0, count: max(w, h))
    for c in 0..<4 {
        for _ in 0..<3 {
            clampedBoxBlur(&channels[c], count: w, lines: h, step: 1, lineStep: w, radius: r, scratch: &scratch)
            clampedBoxBlur(&channels[c], count: h, lines: w, step: w, lineStep: 1, radius: r, scratch: &scratch)
        }
    }
    for y in 0..<h {
        let row = UnsafeMutableRawPointer(data.advanced(by: y * stride)).assumingMemoryBound(to: UInt32.self)
        for x in 0..<w {
            var p: UInt32 = 0
            for c in 0..<4 {
                p |= UInt32(min(255, max(0, channels[c][y * w + x].rounded()))) << (UInt32(c) * 8)
            }
            row[x] = p
        }
    }
    cairo_surface_mark_dirty(surface)
}

/// One box-blur pass along `lines` lines of `count` samples (`step` apart; lines `lineStep` apart), the edge samples
/// repeated outside.
private func clampedBoxBlur(
    _ data: inout [Float], count: Int, lines: Int, step: Int, lineStep: Int, radius: Int, scratch: inout [Float]
) {
    let norm = 1 / Float(2 * radius + 1)
    for line in 0..<lines {
        let base = line * lineStep
        func at(_ i: Int) -> Float { data[base + min(max(i, 0), count - 1) * step] }
        var sum: Float = 0
        for i in -radius...radius { sum += at(i) }
        for i in 0..<count {
            scratch[i] = sum * norm
            sum += at(i + radius + 1) - at(i - radius)
        }
        for i in 0..<count { data[base + i * step] = scratch[i] }
    }
}
