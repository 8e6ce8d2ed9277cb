import MapDrawing
import MapGeometry

/// One entry of `text-variable-anchor-offset`: an anchor to try and the text's offset from the point when it is
/// used, in ems (× the text size for points), x right, y down.
public struct TextAnchorOffset: Hashable, Sendable {
    /// The anchor to try.
    public var anchor: TextAnchor
    /// The offset in ems, as the style gives it (before MapLibre's baseline shift).
    public var offset: ScreenPoint

    /// Creates an entry.
    /// - Parameters:
    ///   - anchor: the anchor to try.
    ///   - offset: the offset in ems. Defaults to zero.
    public init(anchor: TextAnchor, offset: ScreenPoint = .zero) {
        self.anchor = anchor
        self.offset = offset
    }
}

/// MapLibre's text offsets for point labels (`symbol_layout.cpp`: `evaluateRadialOffset`,
/// `evaluateVariableOffset`, `getTextVariableAnchorOffset`; `placement.cpp`: `calculateVariableLayoutOffset`).
///
/// Every offset here is in ems; the vertical offsets of anchors on the top or bottom edge include MapLibre's baseline
/// shift of ``baselineShift`` em toward the point (a radial offset measures to the glyphs' baseline, not the box
/// edge). Waymark's own.
public enum TextAnchorOffsets {
    /// MapLibre's baseline shift for top and bottom anchors: 7 of the glyphs' 24-pixel em (`ONE_EM − 17`).
    public static let baselineShift = 7.0 / 24.0

    /// `text-radial-offset` for `anchor`: `radial` ems away from the point in the direction the anchor implies
    /// (`radial / √2` on each axis for corners), plus the baseline shift on the vertical axis. Negative radial
    /// offsets count as 0; centre gives zero.
    /// - Parameters:
    ///   - anchor: the text anchor.
    ///   - radial: the radial offset in ems.
    /// - Returns: the offset in ems, x right, y down.
    public static func radial(_ anchor: TextAnchor, _ radial: Double) -> ScreenPoint {
        let r = radial.isFinite ? max(radial, 0) : 0
        let h = r / 2.0.squareRoot()
        let b = baselineShift
        switch anchor {
        case .center: return .zero
        case .left: return ScreenPoint(x: r, y: 0)
        case .right: return ScreenPoint(x: -r, y: 0)
        case .top: return ScreenPoint(x: 0, y: r - b)
        case .bottom: return ScreenPoint(x: 0, y: -r + b)
        case .topLeft: return ScreenPoint(x: h, y: h - b)
        case .topRight: return ScreenPoint(x: -h, y: h - b)
        case .bottomLeft: return ScreenPoint(x: h, y: -h + b)
        case .bottomRight: return ScreenPoint(x: -h, y: -h + b)
        }
    }

    /// `text-offset` used with `text-variable-anchor` (no radial offset): the absolute values of `offset` applied
    /// away from the point on the axes the anchor names, plus the baseline shift on the vertical axis.
    /// - Parameters:
    ///   - anchor: the text anchor.
    ///   - offset: `text-offset` in ems.
    /// - Returns: the offset in ems, x right, y down.
    public static func variable(_ anchor: TextAnchor, textOffset offset: ScreenPoint) -> ScreenPoint {
        let x = offset.x.isFinite ? abs(offset.x) : 0
        let y = offset.y.isFinite ? abs(offset.y) : 0
        let u = anchor.unitOffset
        let dx = u.x == 0 ? x : (u.x == 1 ? -x : 0)
        let dy = u.y == 0 ? y - baselineShift : (u.y == 1 ? -y + baselineShift : 0)
        return ScreenPoint(x: dx, y: dy)
    }

    /// An entry of `text-variable-anchor-offset`: its offset as given, plus the baseline shift on the vertical axis.
    /// - Parameter entry: the anchor and offset in ems.
    /// - Returns: the offset in ems, x right, y down.
    public static func anchorOffset(_ entry: TextAnchorOffset) -> ScreenPoint {
        let x = entry.offset.x.isFinite ? entry.offset.x : 0
        var y = entry.offset.y.isFinite ? entry.offset.y : 0
        switch entry.anchor.unitOffset.y {
        case 0: y -= baselineShift
        case 1: y += baselineShift
        default: break
        }
        return ScreenPoint(x: x, y: y)
    }

    /// The anchors and offsets (ems, baseline shift included) a point label tries in order: the
    /// `text-variable-anchor-offset` entries when given, else the `text-variable-anchor` anchors with the radial
    /// offset (when set) or `text-offset`. Empty when the symbol has no variable anchors.
    /// - Parameter symbol: the symbol.
    /// - Returns: the candidates in the style's order.
    public static func candidates(_ symbol: SymbolFeature) -> [TextAnchorOffset] {
        if !symbol.textVariableAnchorOffsets.isEmpty {
            return symbol.textVariableAnchorOffsets.map {
                TextAnchorOffset(anchor: $0.anchor, offset: anchorOffset($0))
            }
        }
        return symbol.textVariableAnchors.map { anchor in
            if let r = symbol.textRadialOffset {
                return TextAnchorOffset(anchor: anchor, offset: radial(anchor, r))
            }
            return TextAnchorOffset(anchor: anchor, offset: variable(anchor, textOffset: symbol.textOffset))
        }
    }

    /// The offset in ems of a point label without variable anchors: the radial offset at `text-anchor` when it is
    /// positive, else `text-offset` (MapLibre uses the radial offset when both are set).
    /// - Parameter symbol: the symbol.
    /// - Returns: the offset in ems, x right, y down.
    public static func fixed(_ symbol: SymbolFeature) -> ScreenPoint {
        if let r = symbol.textRadialOffset, r > 0 { return radial(symbol.textAnchor, r) }
        return symbol.textOffset
    }

    /// Where the centre of a variable-anchored label's collision box goes relative to the point, in points
    /// (MapLibre's `calculateVariableLayoutOffset`): the box — text plus padding on every side, `width` × `height`
    /// — is moved so its `anchor` point sits on the point, then by `offset` ems of `em` points.
    /// - Parameters:
    ///   - anchor: the anchor tried.
    ///   - width: the collision box's width in points (text width + 2 × padding).
    ///   - height: the collision box's height in points (text height + 2 × padding).
    ///   - offset: the anchor's offset in ems (baseline shift included).
    ///   - em: the text size in points.
    /// - Returns: the shift of the box's centre from the point, in points.
    public static func shift(
        _ anchor: TextAnchor, width: Double, height: Double, offset: ScreenPoint, em: Double
    ) -> ScreenPoint {
        let u = anchor.unitOffset
        return ScreenPoint(
            x: -(u.x - 0.5) * width + offset.x * em, y: -(u.y - 0.5) * height + offset.y * em)
    }

    /// The justification `text-justify: auto` takes for `anchor` (MapLibre's `getAnchorJustification`): left for
    /// anchors on the left edge, right for those on the right edge, centred otherwise.
    /// - Parameter anchor: the anchor.
    /// - Returns: the justification.
    public static func justification(_ anchor: TextAnchor) -> TextStyle.Justify {
        switch anchor.unitOffset.x {
        case 0: return .left
        case 1: return .right
        default: return .center
        }
    }
}
