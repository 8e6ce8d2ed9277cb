#if canImport(Glibc)
    import Glibc  // pow: the platform C library, as in ExpressionNode.swift
#elseif canImport(Darwin)
    import Darwin
#endif

// Google's map styling rules (the JSON of `GMSMapStyle`, Google's "Style reference for Maps SDK for iOS", and the
// `style=` parameters of the Static Maps API): parsed into one rule list that ``GoogleMapStyle/apply(to:)`` translates
// onto a MapLibre style (GoogleStyleTranslator.swift, through the feature table in GoogleFeatureTable.swift).

/// A list of Google styling rules, in the order they apply (later rules over earlier ones).
///
/// Parsing is strict about shape and lenient about names, as Google's SDK: JSON that is not an array of rule objects,
/// a `stylers` that is not an array of objects, or a styler value of the wrong type throws
/// ``GoogleMapStyleError`` naming the rule, the key and the line; an unknown `featureType`, `elementType` or styler
/// name is a ``warnings`` entry and is ignored (the rule, or the styler, is dropped). Immutable and `Sendable`.
/// Source: Google, "Style reference for Maps SDK for iOS".
public struct GoogleMapStyle: Sendable, Equatable {
    /// The rules that parsed, in document order.
    public var rules: [GoogleStyleRule]
    /// What was ignored (unknown names), each naming its rule, in document order.
    public var warnings: [String]

    /// Makes a rule list directly.
    /// - Parameters:
    ///   - rules: the rules, in order.
    ///   - warnings: notes to carry. Defaults to none.
    public init(rules: [GoogleStyleRule], warnings: [String] = []) {
        self.rules = rules
        self.warnings = warnings
    }

    /// Parses Google styling JSON (an array of `{featureType, elementType, stylers}` objects).
    /// - Parameter json: the JSON text.
    /// - Throws: ``GoogleMapStyleError`` for invalid JSON (with line and column) or a rule of the wrong shape (with
    ///   its index, key and line).
    public init(jsonString json: String) throws(GoogleMapStyleError) {
        try self.init(jsonBytes: Array(json.utf8))
    }

    /// Parses Google styling JSON given as UTF-8 bytes (see ``init(jsonString:)``).
    /// - Parameter bytes: UTF-8 JSON.
    /// - Throws: ``GoogleMapStyleError``.
    public init(jsonBytes bytes: [UInt8]) throws(GoogleMapStyleError) {
        var parser = JSONParser(bytes)
        parser.lines = [:]
        let json: JSONValue
        do {
            json = try parser.parseDocument()
        } catch {
            throw GoogleMapStyleError(line: error.line, column: error.column, message: "invalid JSON: \(error.message)")
        }
        let lines = parser.lines ?? [:]
        func fail(_ path: String, _ message: String) -> GoogleMapStyleError {
            GoogleMapStyleError(line: lines[path], column: nil, message: path.isEmpty ? message : "\(path): \(message)")
        }
        guard case .array(let items) = json else {
            throw fail("", "a map style must be a JSON array of rules, found \(json.typeName)")
        }
        var rules: [GoogleStyleRule] = []
        var warnings: [String] = []
        for (i, item) in items.enumerated() {
            let path = "[\(i)]"
            guard case .object(let object) = item else {
                throw fail(path, "a rule must be an object, found \(item.typeName)")
            }
            var feature = "all"
            var element = "all"
            var known = true
            for key in object.keys.sorted() where !["featureType", "elementType", "stylers"].contains(key) {
                warnings.append("rule \(path): unknown key \"\(key)\" ignored")
            }
            if let f = object["featureType"] {
                guard let s = f.stringValue else {
                    throw fail(path + ".featureType", "expected a string, found \(f.typeName)")
                }
                if GoogleFeatureType.isKnown(s) {
                    feature = s
                } else {
                    warnings.append("rule \(path): unknown featureType \"\(s)\"; the rule is ignored")
                    known = false
                }
            }
            if let e = object["elementType"] {
                guard let s = e.stringValue else {
                    throw fail(path + ".elementType", "expected a string, found \(e.typeName)")
                }
                if GoogleElementType.all.contains(s) {
                    element = s
                } else {
                    warnings.append("rule \(path): unknown elementType \"\(s)\"; the rule is ignored")
                    known = false
                }
            }
            guard let stylersJSON = object["stylers"] else { throw fail(path, "a rule needs \"stylers\"") }
            guard case .array(let stylerItems) = stylersJSON else {
                throw fail(path + ".stylers", "expected an array, found \(stylersJSON.typeName)")
            }
            var stylers: [GoogleStyler] = []
            for (j, s) in stylerItems.enumerated() {
                let stylerPath = path + ".stylers[\(j)]"
                guard case .object(let fields) = s else {
                    throw fail(stylerPath, "a styler must be an object, found \(s.typeName)")
                }
                // Several keys in one object apply in the style reference's order of the stylers.
                for key in fields.keys.sorted(by: GoogleStyler.referenceOrder) {
                    guard let value = fields[key] else { continue }
                    let keyPath = stylerPath + "." + key
                    do {
                        if let styler = try GoogleStyler(name: key, json: value) {
                            stylers.append(styler)
                        } else {
                            warnings.append("rule \(path): unknown styler \"\(key)\" ignored")
                        }
                    } catch {
                        throw fail(keyPath, error.message)
                    }
                }
            }
            if known { rules.append(GoogleStyleRule(featureType: feature, elementType: element, stylers: stylers)) }
        }
        self.init(rules: rules, warnings: warnings)
    }

    /// Parses the Static Maps API's `style` parameters, one rule each: `feature:…|element:…|styler:value|…` (for
    /// example `feature:road.local|element:geometry|color:0x00ff00`; colours as `0xRRGGBB`). Waymark's own entry
    /// point for servers that take Google's `style=` parameters.
    /// - Parameter parameters: the decoded parameter values, in order.
    /// - Throws: ``GoogleMapStyleError`` naming the parameter (1-based) for a part without `:` or a bad value.
    public init(staticMapsStyles parameters: [String]) throws(GoogleMapStyleError) {
        var rules: [GoogleStyleRule] = []
        var warnings: [String] = []
        for (i, parameter) in parameters.enumerated() {
            let name = "style \(i + 1)"
            var feature = "all"
            var element = "all"
            var known = true
            var stylers: [GoogleStyler] = []
            for part in parameter.split(separator: "|", omittingEmptySubsequences: true) {
                guard let colon = part.firstIndex(of: ":") else {
                    throw GoogleMapStyleError(line: nil, column: nil, message: "\(name): \"\(part)\" is not key:value")
                }
                let key = String(part[..<colon])
                var value = String(part[part.index(after: colon)...])
                switch key {
                case "feature":
                    if GoogleFeatureType.isKnown(value) {
                        feature = value
                    } else {
                        warnings.append("\(name): unknown feature \"\(value)\"; ignored")
                        known = false
                    }
                case "element":
                    if GoogleElementType.all.contains(value) {
                        element = value
                    } else {
                        warnings.append("\(name): unknown element \"\(value)\"; ignored")
                        known = false
                    }
                default:
                    if value.hasPrefix("0x") { value = "#" + value.dropFirst(2) }
                    let json: JSONValue =
                        ["lightness", "saturation", "gamma", "weight"].contains(key)
                        ? (Double(value).map(JSONValue.number) ?? .string(value)) : .string(value)
                    do {
                        if let styler = try GoogleStyler(name: key, json: json) {
                            stylers.append(styler)
                        } else {
                            warnings.append("\(name): unknown styler \"\(key)\" ignored")
                        }
                    } catch {
                        throw GoogleMapStyleError(line: nil, column: nil, message: "\(name): \(key): \(error.message)")
                    }
                }
            }
            if known { rules.append(GoogleStyleRule(featureType: feature, elementType: element, stylers: stylers)) }
        }
        self.init(rules: rules, warnings: warnings)
    }
}

/// Why Google styling JSON was rejected: invalid JSON, or a rule of the wrong shape.
public struct GoogleMapStyleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line of the problem, when known.
    public var line: Int?
    /// The 1-based column (JSON syntax errors only).
    public var column: Int?
    /// What is wrong, starting with the rule's position (`[2].stylers[0].color: …`) for shape errors.
    public var message: String

    /// Makes an error.
    /// - Parameters:
    ///   - line: the line, or `nil`.
    ///   - column: the column, or `nil`.
    ///   - message: the message.
    public init(line: Int?, column: Int?, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line L, column C: message` (the position parts only when known).
    public var description: String {
        switch (line, column) {
        case (let l?, let c?): return "line \(l), column \(c): \(message)"
        case (let l?, nil): return "line \(l): \(message)"
        default: return message
        }
    }
}

/// One rule: which features, which of their elements, and the stylers applied to them in order.
public struct GoogleStyleRule: Sendable, Equatable {
    /// The feature type (``GoogleFeatureType/all``), `all` when the rule names none.
    public var featureType: String
    /// The element type (``GoogleElementType/all``), `all` when the rule names none.
    public var elementType: String
    /// The stylers, in the order they apply.
    public var stylers: [GoogleStyler]

    /// Makes a rule.
    /// - Parameters:
    ///   - featureType: a known feature type, for example `road.highway`.
    ///   - elementType: a known element type, for example `labels.text.fill`.
    ///   - stylers: the stylers.
    public init(featureType: String, elementType: String, stylers: [GoogleStyler]) {
        self.featureType = featureType
        self.elementType = elementType
        self.stylers = stylers
    }
}

/// Google's feature type hierarchy (Style reference, "featureType"): a rule on a type selects its sub-types too.
public enum GoogleFeatureType {
    /// Every feature type Google documents, parents before children.
    public static let all: [String] = [
        "all",
        "administrative", "administrative.country", "administrative.land_parcel", "administrative.locality",
        "administrative.neighborhood", "administrative.province",
        "landscape", "landscape.man_made", "landscape.natural", "landscape.natural.landcover",
        "landscape.natural.terrain",
        "poi", "poi.attraction", "poi.business", "poi.government", "poi.medical", "poi.park", "poi.place_of_worship",
        "poi.school", "poi.sports_complex",
        "road", "road.arterial", "road.highway", "road.highway.controlled_access", "road.local",
        "transit", "transit.line", "transit.station", "transit.station.airport", "transit.station.bus",
        "transit.station.rail",
        "water",
    ]
    private static let known = Set(all)

    /// Whether Google documents `name`.
    /// - Parameter name: a feature type.
    /// - Returns: `true` for a documented type.
    public static func isKnown(_ name: String) -> Bool { known.contains(name) }

    /// Whether a rule on `selector` selects `feature`: equal, `all`, or an ancestor (`road` selects
    /// `road.highway.controlled_access`).
    /// - Parameters:
    ///   - selector: the rule's feature type.
    ///   - feature: a feature type.
    /// - Returns: `true` when selected.
    public static func selects(_ selector: String, _ feature: String) -> Bool {
        selector == "all" || feature == selector || feature.hasPrefix(selector + ".")
    }
}

/// Google's element type hierarchy (Style reference, "elementType").
public enum GoogleElementType {
    /// Every element type Google documents, parents before children.
    public static let all: [String] = [
        "all", "geometry", "geometry.fill", "geometry.stroke", "labels", "labels.icon", "labels.text",
        "labels.text.fill", "labels.text.stroke",
    ]
    /// The leaves, each a part Waymark styles separately (``GoogleStyleSlot``).
    public static let leaves: [String] = [
        "geometry.fill", "geometry.stroke", "labels.icon", "labels.text.fill", "labels.text.stroke",
    ]

    /// Whether a rule on `selector` selects the element `leaf` (equal, `all`, or an ancestor).
    /// - Parameters:
    ///   - selector: the rule's element type.
    ///   - leaf: an element type.
    /// - Returns: `true` when selected.
    public static func selects(_ selector: String, _ leaf: String) -> Bool {
        selector == "all" || leaf == selector || leaf.hasPrefix(selector + ".")
    }
}

/// One styler (Style reference, "stylers").
public enum GoogleStyler: Sendable, Equatable {
    /// `hue` (`#RRGGBB`): the colour's hue only; saturation and lightness stay.
    case hue(StyleColor)
    /// `lightness`, −100…100 (clamped): a percentage of the way to white (positive) or black (negative).
    case lightness(Double)
    /// `saturation`, −100…100 (clamped): a percentage of the way to full saturation (positive) or grey (negative).
    case saturation(Double)
    /// `gamma`, 0.01…10 (clamped; 1 is no change): lightness `L` becomes `L^(1/gamma)`; black and white stay.
    case gamma(Double)
    /// `invert_lightness`: when `true`, lightness `L` becomes `1 − L`.
    case invertLightness(Bool)
    /// `visibility`: `on`, `off` or `simplified`.
    case visibility(GoogleVisibility)
    /// `color` (`#RRGGBB`, `#RGB`): replaces the colour (the element's own opacity stays).
    case color(StyleColor)
    /// `weight` in pixels, ≥ 0 (negative values count as 0): the line, outline or text-halo width.
    case weight(Double)

    /// The style reference's order of the stylers; several keys in one styler object apply in it.
    static let order = ["hue", "lightness", "saturation", "gamma", "invert_lightness", "visibility", "color", "weight"]

    static func referenceOrder(_ a: String, _ b: String) -> Bool {
        let ia = order.firstIndex(of: a) ?? order.count
        let ib = order.firstIndex(of: b) ?? order.count
        return ia != ib ? ia < ib : a < b
    }

    /// Parses one styler, or `nil` for an unknown name.
    /// - Throws: ``StylerValueError`` when the value has the wrong type or form.
    init?(name: String, json: JSONValue) throws(StylerValueError) {
        func number() throws(StylerValueError) -> Double {
            if let n = json.numberValue, n.isFinite { return n }
            if let s = json.stringValue, let n = Double(s.filter { $0 != " " }), n.isFinite {
                return n
            }
            throw StylerValueError(message: "expected a number, found \(json.typeName)")
        }
        func color() throws(StylerValueError) -> StyleColor {
            guard let s = json.stringValue else {
                throw StylerValueError(message: "expected a colour string \"#RRGGBB\", found \(json.typeName)")
            }
            guard s.hasPrefix("#"), [4, 7, 9].contains(s.count), let c = StyleColor(css: s) else {
                throw StylerValueError(message: "\"\(s)\" is not a colour \"#RRGGBB\"")
            }
            return c
        }
        switch name {
        case "hue": self = .hue(try color())
        case "color": self = .color(try color())
        case "lightness": self = .lightness(min(100, max(-100, try number())))
        case "saturation": self = .saturation(min(100, max(-100, try number())))
        case "gamma": self = .gamma(min(10, max(0.01, try number())))
        case "weight": self = .weight(max(0, try number()))
        case "invert_lightness":
            switch json {
            case .bool(let b): self = .invertLightness(b)
            case .string("true"): self = .invertLightness(true)
            case .string("false"): self = .invertLightness(false)
            default: throw StylerValueError(message: "expected true or false, found \(json.typeName)")
            }
        case "visibility":
            guard let s = json.stringValue, let v = GoogleVisibility(rawValue: s) else {
                throw StylerValueError(message: "expected \"on\", \"off\" or \"simplified\"")
            }
            self = .visibility(v)
        default: return nil
        }
    }

    /// The styler applied to a colour, or `nil` when it does not change colours (visibility, weight).
    /// - Parameter c: the colour.
    /// - Returns: the new colour.
    public func apply(to c: StyleColor) -> StyleColor? {
        switch self {
        case .hue(let h): return GoogleColorMath.setHue(c, from: h)
        case .lightness(let l): return GoogleColorMath.lightness(c, l)
        case .saturation(let s): return GoogleColorMath.saturation(c, s)
        case .gamma(let g): return GoogleColorMath.gamma(c, g)
        case .invertLightness(let on): return on ? GoogleColorMath.invertLightness(c) : c
        case .color(let new):
            return StyleColor(red: new.red, green: new.green, blue: new.blue, alpha: c.alpha * new.alpha)
        case .visibility, .weight: return nil
        }
    }
}

/// A styler value of the wrong type or form.
struct StylerValueError: Error {
    let message: String
}

/// Google's `visibility` styler values.
public enum GoogleVisibility: String, Sendable, Equatable {
    /// Drawn as styled (the default).
    case on
    /// Not drawn, and (for labels and icons) not tappable.
    case off
    /// Drawn plainer: line geometry at half width, no outlines (`geometry.stroke` and `labels.text.stroke` hidden);
    /// fills, text and icons stay.
    case simplified
}

/// The colour operations of Google's stylers, in HSL (components 0…1; alpha kept). Waymark's definitions of Google's
/// documented descriptions (Style reference, "stylers"):
/// - `lightness` l: `L + l/100 × (1 − L)` for l > 0, `L + l/100 × L` for l < 0 (−100 black, 100 white);
/// - `saturation` s: the same on `S` (−100 grey);
/// - `hue` h: the hue of h, `S` and `L` kept;
/// - `gamma` g: `L^(1/g)`;
/// - `invert_lightness`: `1 − L`.
public enum GoogleColorMath {
    /// `(h in 0..<1, s, l)` of a colour.
    public static func hsl(_ c: StyleColor) -> (h: Double, s: Double, l: Double) {
        let r = clamp(c.red)
        let g = clamp(c.green)
        let b = clamp(c.blue)
        let mx = max(r, g, b)
        let mn = min(r, g, b)
        let l = (mx + mn) / 2
        guard mx > mn else { return (0, 0, l) }
        let d = mx - mn
        let s = l > 0.5 ? d / (2 - mx - mn) : d / (mx + mn)
        var h: Double
        if mx == r {
            h = (g - b) / d + (g < b ? 6 : 0)
        } else if mx == g {
            h = (b - r) / d + 2
        } else {
            h = (r - g) / d + 4
        }
        h /= 6
        return (h, s, l)
    }

    /// The colour of `(h, s, l)` with `alpha`.
    public static func color(h: Double, s: Double, l: Double, alpha: Double) -> StyleColor {
        let s = clamp(s)
        let l = clamp(l)
        guard s > 0 else { return StyleColor(red: l, green: l, blue: l, alpha: alpha) }
        let q = l < 0.5 ? l * (1 + s) : l + s - l * s
        let p = 2 * l - q
        func channel(_ t0: Double) -> Double {
            var t = t0
            if t < 0 { t += 1 }
            if t > 1 { t -= 1 }
            if t < 1.0 / 6 { return p + (q - p) * 6 * t }
            if t < 0.5 { return q }
            if t < 2.0 / 3 { return p + (q - p) * (2.0 / 3 - t) * 6 }
            return p
        }
        let hh = h.isFinite ? h - h.rounded(.down) : 0
        return StyleColor(
            red: clamp(channel(hh + 1.0 / 3)), green: clamp(channel(hh)), blue: clamp(channel(hh - 1.0 / 3)),
            alpha: alpha)
    }

    static func clamp(_ x: Double) -> Double { x.isNaN ? 0 : min(1, max(0, x)) }

    static func towards(_ x: Double, _ percent: Double) -> Double {
        let k = min(100, max(-100, percent)) / 100
        return clamp(k > 0 ? x + k * (1 - x) : x + k * x)
    }

    /// `lightness` (see the type).
    public static func lightness(_ c: StyleColor, _ percent: Double) -> StyleColor {
        let v = hsl(c)
        return color(h: v.h, s: v.s, l: towards(v.l, percent), alpha: c.alpha)
    }

    /// `saturation` (see the type).
    public static func saturation(_ c: StyleColor, _ percent: Double) -> StyleColor {
        let v = hsl(c)
        return color(h: v.h, s: towards(v.s, percent), l: v.l, alpha: c.alpha)
    }

    /// `hue` (see the type).
    public static func setHue(_ c: StyleColor, from hue: StyleColor) -> StyleColor {
        let v = hsl(c)
        return color(h: hsl(hue).h, s: v.s, l: v.l, alpha: c.alpha)
    }

    /// `gamma` (see the type).
    public static func gamma(_ c: StyleColor, _ g: Double) -> StyleColor {
        let v = hsl(c)
        let gg = min(10, max(0.01, g.isFinite ? g : 1))
        return color(h: v.h, s: v.s, l: pow(v.l, 1 / gg), alpha: c.alpha)
    }

    /// `invert_lightness` (see the type).
    public static func invertLightness(_ c: StyleColor) -> StyleColor {
        let v = hsl(c)
        return color(h: v.h, s: v.s, l: 1 - v.l, alpha: c.alpha)
    }
}
