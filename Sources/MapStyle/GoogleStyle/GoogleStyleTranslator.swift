// The one translator from Google's styling rules to a MapLibre style: paint and layout properties wrapped in nodes
// that apply the rules' stylers to the features they select, and layer filters that drop what the rules hide.

/// The parts of a feature Google's element types reach (the leaves of ``GoogleElementType``), as a layer draws them.
///
/// How Waymark assigns a layer's drawing to them: a `background` layer and a `fill` layer's fill are
/// `geometry.fill`, a fill's outline (`fill-outline-color`) `geometry.stroke`; a `line` layer is `geometry.stroke`
/// when it is a casing (its id contains `casing`) or a boundary (source layer `boundary`/`boundaries`), else
/// `geometry.fill`; a `circle` layer on a POI source layer (`poi`, `pois`) is the POI's icon (`labels.icon`), else
/// `geometry.fill`; a `symbol` layer's text is `labels.text.fill` (`text-color`) and `labels.text.stroke` (the halo),
/// its `icon-image` `labels.icon`.
enum GoogleStyleSlot: String, CaseIterable {
    case fill = "geometry.fill"
    case stroke = "geometry.stroke"
    case icon = "labels.icon"
    case textFill = "labels.text.fill"
    case textStroke = "labels.text.stroke"

    /// `visibility: simplified` hides outlines and halos.
    var simplifiedHides: Bool { self == .stroke || self == .textStroke }

    /// The slots of a layer (see the type).
    static func slots(of layer: StyleLayer) -> [GoogleStyleSlot] {
        switch layer.type {
        case .background: return [.fill]
        case .fill: return layer.paint["fill-outline-color"] != nil ? [.fill, .stroke] : [.fill]
        case .line:
            let boundary = layer.sourceLayer == "boundary" || layer.sourceLayer == "boundaries"
            return boundary || layer.id.contains("casing") ? [.stroke] : [.fill]
        case .circle: return layer.sourceLayer == "poi" || layer.sourceLayer == "pois" ? [.icon] : [.fill]
        case .symbol:
            var slots: [GoogleStyleSlot] = []
            if layer.layout["text-field"] != nil { slots += [.textFill, .textStroke] }
            if layer.layout["icon-image"] != nil { slots.append(.icon) }
            return slots
        case .fillExtrusion: return [.fill]
        case .raster, .heatmap, .hillshade: return []
        }
    }
}

/// What ``GoogleMapStyle/translate(_:)`` made: the styled style and what had no counterpart.
public struct GoogleStyleTranslation: Sendable {
    /// The style with the rules applied.
    public var style: Style
    /// The feature types of rules that select no layer of the style (no counterpart in its data), each once, in rule
    /// order (for example `administrative.land_parcel` in a style without house numbers). The rules are accepted.
    public var unmatchedFeatureTypes: [String]
}

extension GoogleMapStyle {
    /// Applies the rules to a MapLibre style (Waymark's engine entry point, shared by `GMSMapView.mapStyle`,
    /// `waymark snapshot --map-style` and servers): see ``translate(_:)``.
    /// - Parameter style: a style of the OpenMapTiles or the Protomaps schema (``GoogleStyleSchema``).
    /// - Returns: the styled style.
    public func apply(to style: Style) -> Style { translate(style).style }

    /// Applies the rules to a MapLibre style and reports the feature types without counterpart.
    ///
    /// Each rule selects the layers and features of ``GoogleFeatureTable`` rows under its feature type (`all`: every
    /// layer), and the parts of them under its element type (``GoogleElementType``; how layers map onto elements is
    /// documented on the slots in GoogleStyleTranslator.swift). Its stylers then apply in order, after those of
    /// earlier rules: colour stylers to the colours those parts are drawn with (constants, and the results of
    /// zoom- and data-driven expressions); `weight` sets the line width (`geometry`), the circle ring or the text halo
    /// width (`labels.text.stroke`) in pixels; `visibility` decides per feature, the last matching rule winning:
    /// a feature whose every part is off is filtered out of the layer (so it draws nothing and hit-tests nothing),
    /// a part that is off draws transparent (a hidden text's `text-field` becomes empty). Only the properties the
    /// rules reach change; the sources, and so the tiles, stay the same. Pure and thread-safe.
    /// - Parameter style: the style.
    /// - Returns: the styled style and the unmatched feature types.
    public func translate(_ style: Style) -> GoogleStyleTranslation {
        var translator = GoogleStyleTranslator(style: style)
        return translator.run(rules)
    }
}

/// One styler as it reaches one part of one layer, for the features `selector` accepts (`nil`: all).
struct GoogleSlotEdit {
    let selector: ExpressionNode?
    let styler: GoogleStyler
}

struct GoogleStyleTranslator {
    var style: Style
    let rows: [GoogleFeatureRow]
    var selectorCache: [String: ExpressionNode] = [:]

    init(style: Style) {
        self.style = style
        rows = GoogleFeatureTable.rows(for: GoogleStyleSchema.of(style))
    }

    /// The selector of the `rows` (by index) on a layer: `nil` when one of them takes every feature.
    mutating func selector(_ indices: [Int]) -> ExpressionNode?? {
        if indices.contains(where: { rows[$0].filter == nil }) { return .some(nil) }
        let key = indices.map(String.init).joined(separator: ",")
        if let known = selectorCache[key] { return .some(known) }
        let filters = indices.compactMap { rows[$0].filter }
        let json: JSONValue = filters.count == 1 ? filters[0] : .array([.string("any")] + filters)
        guard let compiled = try? StyleFilter.compile(json) else { return nil }
        selectorCache[key] = compiled.expression.root
        return .some(compiled.expression.root)
    }

    mutating func run(_ rules: [GoogleStyleRule]) -> GoogleStyleTranslation {
        var rowsBySourceLayer: [String: [Int]] = [:]
        for (i, row) in rows.enumerated() { rowsBySourceLayer[row.sourceLayer, default: []].append(i) }
        var unmatched: [String] = []
        var edits: [[GoogleStyleSlot: [GoogleSlotEdit]]] = Array(repeating: [:], count: style.layers.count)
        let slotsOf: [[GoogleStyleSlot]] = style.layers.map(GoogleStyleSlot.slots)
        for rule in rules {
            var matched = rule.featureType == "all"
            for (index, layer) in style.layers.enumerated() where !slotsOf[index].isEmpty {
                let key = layer.type == .background ? "" : (layer.sourceLayer ?? "\u{0}")
                let selector: ExpressionNode?
                if rule.featureType == "all" {
                    selector = nil
                } else {
                    let picked = (rowsBySourceLayer[key] ?? []).filter {
                        GoogleFeatureType.selects(rule.featureType, rows[$0].featureType)
                    }
                    guard !picked.isEmpty, let s = self.selector(picked) else { continue }
                    matched = true
                    selector = s
                }
                for slot in slotsOf[index] where GoogleElementType.selects(rule.elementType, slot.rawValue) {
                    for styler in rule.stylers {
                        edits[index][slot, default: []].append(GoogleSlotEdit(selector: selector, styler: styler))
                    }
                }
            }
            if !matched && !unmatched.contains(rule.featureType) { unmatched.append(rule.featureType) }
        }
        for index in style.layers.indices where !edits[index].isEmpty {
            style.layers[index] = Self.styled(style.layers[index], slots: slotsOf[index], edits: edits[index])
        }
        return GoogleStyleTranslation(style: style, unmatchedFeatureTypes: unmatched)
    }

    /// The visibility edits of a slot, those before the last one for every feature dropped (it overrides them).
    static func visibility(_ edits: [GoogleSlotEdit]) -> [GoogleVisibilityEdit] {
        var out: [GoogleVisibilityEdit] = []
        for e in edits {
            guard case .visibility(let v) = e.styler else { continue }
            if e.selector == nil { out.removeAll() }
            out.append(GoogleVisibilityEdit(selector: e.selector, visibility: v))
        }
        return out
    }

    /// A layer with its slots' edits applied.
    static func styled(_ layer: StyleLayer, slots: [GoogleStyleSlot], edits: [GoogleStyleSlot: [GoogleSlotEdit]])
        -> StyleLayer
    {
        var layer = layer
        let vis = slots.map {
            GoogleSlotVisibility(edits: visibility(edits[$0] ?? []), simplifiedHides: $0.simplifiedHides)
        }
        // Layer visibility: a feature whose every part is hidden is filtered out.
        if vis.contains(where: { !$0.edits.isEmpty }) {
            if vis.allSatisfy(\.isStatic) {
                if vis.allSatisfy({ $0.staticState.hidden }) { layer.isVisible = false }
            } else {
                let node = GoogleVisibilityFilterNode(base: layer.filter?.expression.root, slots: vis)
                layer.filter = StyleFilter(expression: StyleExpression(root: node))
            }
        }
        func visibilityOf(_ slot: GoogleStyleSlot) -> GoogleSlotVisibility {
            slots.firstIndex(of: slot).map { vis[$0] } ?? GoogleSlotVisibility(edits: [], simplifiedHides: false)
        }
        func slotEdits(_ slot: GoogleStyleSlot) -> [GoogleSlotEdit] { edits[slot] ?? [] }
        // Per part: colours, weights, and what hiding or simplifying a part that shares its layer does.
        func colour(_ name: String, _ slot: GoogleStyleSlot, base: String? = nil, skipColor: Bool = false) {
            let list = slotEdits(slot).filter {
                if case .color = $0.styler { return !skipColor }
                return $0.styler.apply(to: .black) != nil
            }
            let v = visibilityOf(slot)
            let hides = slots.count > 1 && !v.edits.isEmpty
            guard !list.isEmpty || hides else { return }
            edit(
                &layer, name, base: base,
                node: { b in
                    GoogleStyledNode(
                        base: b, edits: list.map { ($0.selector, GoogleStyledNode.Edit.styler($0.styler)) },
                        visibility: hides ? [v] : [], hidden: .color(.transparent), simplifiedScale: nil)
                })
        }
        func weight(_ name: String, _ slot: GoogleStyleSlot, simplifiedScale: Double? = nil, hiddenZero: Bool = false) {
            let list = slotEdits(slot).filter {
                if case .weight = $0.styler { return true }
                return false
            }
            let v = visibilityOf(slot)
            let needsVisibility = !v.edits.isEmpty && (simplifiedScale != nil || hiddenZero)
            guard !list.isEmpty || needsVisibility else { return }
            edit(
                &layer, name, base: nil,
                node: { b in
                    GoogleStyledNode(
                        base: b, edits: list.map { ($0.selector, GoogleStyledNode.Edit.styler($0.styler)) },
                        visibility: needsVisibility ? [v] : [], hidden: hiddenZero ? .number(0) : nil,
                        simplifiedScale: simplifiedScale)
                })
        }
        switch layer.type {
        case .background:
            colour("background-color", .fill)
        case .fill:
            if slots.contains(.stroke) { colour("fill-outline-color", .stroke) }
            colour("fill-color", .fill)
        case .line:
            let slot = slots[0]
            colour("line-color", slot)
            weight("line-width", slot, simplifiedScale: slot == .fill ? 0.5 : nil)
        case .circle:
            let slot = slots[0]
            colour("circle-color", slot)
            colour("circle-stroke-color", slot, skipColor: true)
            weight(slot == .icon ? "circle-stroke-width" : "circle-radius", slot)
        case .symbol:
            if slots.contains(.textFill) {
                colour("text-color", .textFill)
                colour("text-halo-color", .textStroke)
                weight("text-halo-width", .textStroke, simplifiedScale: 0, hiddenZero: true)
                // The text goes when both its fill and its halo are hidden.
                let both = [visibilityOf(.textFill), visibilityOf(.textStroke)]
                if slots.count > 2, both.contains(where: { !$0.edits.isEmpty }) {
                    edit(
                        &layer, "text-field", base: nil,
                        node: { b in
                            GoogleStyledNode(base: b, edits: [], visibility: both, hidden: .null, simplifiedScale: nil)
                        })
                }
            }
            if slots.contains(.icon) {
                colour("icon-color", .icon)
                let v = visibilityOf(.icon)
                if slots.count > 1, !v.edits.isEmpty {
                    edit(
                        &layer, "icon-image", base: nil,
                        node: { b in
                            GoogleStyledNode(base: b, edits: [], visibility: [v], hidden: .null, simplifiedScale: nil)
                        })
                }
            }
        case .fillExtrusion: colour("fill-extrusion-color", .fill)
        case .raster, .heatmap, .hillshade: break
        }
        return layer
    }

    /// Replaces property `name` (its value, else the value of `base`, else its default) with `node(value)`, folded to
    /// a constant when nothing about it depends on zoom or feature.
    static func edit(
        _ layer: inout StyleLayer, _ name: String, base: String?, node: (ExpressionNode) -> ExpressionNode
    ) {
        guard
            let current = layer.paint[name] ?? layer.layout[name] ?? base.flatMap({ layer.paint[$0] })
                ?? layer.property(name),
            let spec = StylePropertySpec.named(name)
        else { return }
        let root: ExpressionNode
        switch current.value {
        case .constant(let v): root = LiteralNode(v, type: spec.valueType)
        case .expression(let e): root = e.root
        }
        let expression = StyleExpression(root: node(root))
        var property = StyleProperty(spec: spec, value: .expression(expression))
        if expression.isFeatureConstant && expression.isZoomConstant,
            let v = try? expression.evaluate(EvaluationContext())
        {
            property = StyleProperty(spec: spec, value: .constant(property.normalize(v)))
        }
        if spec.isLayout { layer.layout[name] = property } else { layer.paint[name] = property }
    }
}

/// A visibility styler reaching a slot for the features `selector` accepts (`nil`: all).
struct GoogleVisibilityEdit {
    let selector: ExpressionNode?
    let visibility: GoogleVisibility
}

/// A slot's visibility edits in order (the last one whose selector matches decides; none: `on`).
struct GoogleSlotVisibility {
    let edits: [GoogleVisibilityEdit]
    let simplifiedHides: Bool

    /// No edit depends on the feature (its state is ``staticState``).
    var isStatic: Bool { edits.allSatisfy { $0.selector == nil } }

    /// The state when ``isStatic``.
    var staticState: (hidden: Bool, simplified: Bool) { state(of: edits.last?.visibility ?? .on) }

    func state(of v: GoogleVisibility) -> (hidden: Bool, simplified: Bool) {
        switch v {
        case .on: return (false, false)
        case .off: return (true, false)
        case .simplified: return (simplifiedHides, !simplifiedHides)
        }
    }

    /// The state for a feature.
    func state(_ ctx: EvaluationContext) -> (hidden: Bool, simplified: Bool) {
        for e in edits.reversed() {
            if let s = e.selector {
                guard (try? s.evaluate(ctx)) == .boolean(true) else { continue }
            }
            return state(of: e.visibility)
        }
        return (false, false)
    }

    var selectors: [ExpressionNode] { edits.compactMap(\.selector) }
}

/// A filter: the layer's own (`base`, `nil`: all), minus the features whose every slot is hidden.
final class GoogleVisibilityFilterNode: ExpressionNode, @unchecked Sendable {
    let base: ExpressionNode?
    let slots: [GoogleSlotVisibility]

    init(base: ExpressionNode?, slots: [GoogleSlotVisibility]) {
        self.base = base
        self.slots = slots
        super.init(type: .boolean)
    }

    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        if let base, try base.evaluate(ctx) != .boolean(true) { return .boolean(false) }
        return .boolean(!slots.allSatisfy { $0.state(ctx).hidden })
    }

    override var children: [ExpressionNode] { (base.map { [$0] } ?? []) + slots.flatMap(\.selectors) }
}

/// A property value with Google's stylers applied: `base`, then each edit whose selector matches, in order; then,
/// when every slot in `visibility` is hidden for the feature, `hidden` (when set), or when one is simplified, the
/// value scaled by `simplifiedScale` (when set).
final class GoogleStyledNode: ExpressionNode, @unchecked Sendable {
    enum Edit {
        case styler(GoogleStyler)
    }
    let base: ExpressionNode
    let edits: [(selector: ExpressionNode?, edit: Edit)]
    let visibility: [GoogleSlotVisibility]
    let hidden: ExpressionValue?
    let simplifiedScale: Double?

    init(
        base: ExpressionNode, edits: [(ExpressionNode?, Edit)], visibility: [GoogleSlotVisibility],
        hidden: ExpressionValue?, simplifiedScale: Double?
    ) {
        self.base = base
        self.edits = edits.map { (selector: $0.0, edit: $0.1) }
        self.visibility = visibility
        self.hidden = hidden
        self.simplifiedScale = simplifiedScale
        super.init(type: base.type)
    }

    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        var value = try base.evaluate(ctx)
        for e in edits {
            if let s = e.selector {
                guard (try? s.evaluate(ctx)) == .boolean(true) else { continue }
            }
            switch e.edit {
            case .styler(let styler):
                switch (styler, value) {
                case (.weight(let w), _): value = .number(w)
                case (_, .color(let c)): value = .color(styler.apply(to: c) ?? c)
                default: break
                }
            }
        }
        if !visibility.isEmpty {
            let states = visibility.map { $0.state(ctx) }
            if let hidden, states.allSatisfy(\.hidden) { return hidden }
            if let k = simplifiedScale, states.contains(where: { $0.simplified }), case .number(let n) = value {
                return .number(n * k)
            }
        }
        return value
    }

    override var children: [ExpressionNode] {
        [base] + edits.compactMap(\.selector) + visibility.flatMap(\.selectors)
    }
}
