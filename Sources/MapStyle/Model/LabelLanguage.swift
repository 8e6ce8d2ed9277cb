/// The language labels are drawn in, for ``Style/localizingLabels(to:)``: a BCP 47 language tag as Google's
/// `language` parameters take it (`sv`, `ja`, `zh-CN`, `zh-Hant`, `pt-BR`), and the name properties it reads, the
/// OpenMapTiles schema's (`name:sv`, the other schemas' `name_sv`). Waymark's own.
///
/// Parsing: subtags separated by `-` (or `_`); the first is the language, 2 or 3 letters (lower-cased; Google's
/// legacy codes `iw`, `in` and `ji` read as `he`, `id` and `yi`); then optionally a script of 4 letters (title case:
/// `Hant`), a region of 2 letters or 3 digits (upper case: `CN`, `419`), and variants of 5 to 8 letters or digits (or
/// 4 starting with a digit). At most 35 characters in all. Anything else (empty, `english`, `en-`, `1a`) is no tag.
public struct LabelLanguage: Sendable, Hashable, CustomStringConvertible {
    /// The normalised tag, for example `zh-CN`, `sr-Latn`, `sv`.
    public let tag: String
    /// The language subtag, lower case (`zh`).
    public let language: String
    /// The script subtag in title case (`Hant`), or `nil`.
    public let script: String?
    /// The region subtag in upper case (`CN`, `419`), or `nil`.
    public let region: String?

    /// Parses a tag (see the type); `nil` when `text` is not one.
    public init?(_ text: String) {
        guard !text.isEmpty, text.count <= 35,
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }.map(String.init)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(\.isLetter) else { return nil }
        var language = first.lowercased()
        language = ["iw": "he", "in": "id", "ji": "yi"][language] ?? language
        var script: String?
        var region: String?
        var rest: [String] = []
        for part in parts.dropFirst() {
            let letters = part.allSatisfy(\.isLetter)
            let digits = part.allSatisfy(\.isNumber)
            if rest.isEmpty, script == nil, region == nil, part.count == 4, letters {
                script = part.prefix(1).uppercased() + part.dropFirst().lowercased()
            } else if rest.isEmpty, region == nil, (part.count == 2 && letters) || (part.count == 3 && digits) {
                region = part.uppercased()
            } else if (5...8).contains(part.count) || (part.count == 4 && part.first?.isNumber == true) {
                rest.append(part.lowercased())
            } else {
                return nil
            }
        }
        self.language = language
        self.script = script
        self.region = region
        tag = ([language] + [script, region].compactMap { $0 } + rest).joined(separator: "-")
    }

    /// The tag.
    public var description: String { tag }

    /// The feature properties that hold a name in this language, the best first: `name:<tag>` (when the tag has
    /// more than a language), `name:<language>-<script>` (Chinese: `Hant` for the regions TW, HK and MO, `Hans`
    /// for CN and SG, when the tag names no script), `name:<language>`, then `name_<language>` (the
    /// OpenMapTiles v2 and Natural Earth spelling). For example `zh-TW` → `name:zh-TW`, `name:zh-Hant`, `name:zh`,
    /// `name_zh`; `sv` → `name:sv`, `name_sv`.
    public var nameKeys: [String] {
        var keys: [String] = []
        func add(_ key: String) { if !keys.contains(key) { keys.append(key) } }
        if tag != language { add("name:" + tag) }
        var script = self.script
        if script == nil, language == "zh", let region {
            script = ["TW": "Hant", "HK": "Hant", "MO": "Hant", "CN": "Hans", "SG": "Hans"][region]
        }
        if let script { add("name:\(language)-\(script)") }
        add("name:" + language)
        add("name_" + language)
        return keys
    }
}

extension Style {
    /// The style with its labels in `language` where the data has names in it: every symbol layer's `text-field`
    /// reads, wherever it asks for a name property (`name`, `name:*` or `name_*`, as in
    /// `["coalesce", ["get", "name:latin"], ["get", "name"]]` or `"{name}"`), the first of the language's
    /// ``LabelLanguage/nameKeys`` the feature has (a non-empty string), and the property it asked for when the
    /// feature has none of them. It is what MapLibre's language plugins do (each name lookup becomes
    /// `["coalesce", ["get", "name:sv"], ["get", "name_sv"], <the lookup>]`), done on the compiled expression, so
    /// token strings, `format` and `concat` labels are covered alike. Other properties (house numbers, `ref`s),
    /// constant text and the other layer types are unchanged. Waymark's own; used by the static maps server's
    /// `language` parameter.
    /// - Parameter language: the language.
    /// - Returns: the localised style (the same style when no `text-field` reads a name).
    public func localizingLabels(to language: LabelLanguage) -> Style {
        let keys = language.nameKeys
        var style = self
        for i in style.layers.indices where style.layers[i].type == .symbol {
            guard let field = style.layers[i].layout["text-field"], case .expression(let e) = field.value,
                PreferredNameNode.readsName(e.root)
            else { continue }
            let node = PreferredNameNode(base: e.root, keys: keys)
            style.layers[i].layout["text-field"] = StyleProperty(
                spec: field.spec, value: .expression(StyleExpression(root: node)))
        }
        return style
    }
}

/// Evaluates `base` with every name property (``isNameKey(_:)``) reading the first of `keys` the feature has, else
/// itself (``Style/localizingLabels(to:)``).
final class PreferredNameNode: ExpressionNode, @unchecked Sendable {
    let base: ExpressionNode
    let keys: [String]
    /// The name properties `base` reads by a literal `get`.
    let nameKeysRead: [String]

    init(base: ExpressionNode, keys: [String]) {
        self.base = base
        self.keys = keys
        var read: [String] = []
        func visit(_ node: ExpressionNode) {
            if let get = node as? GetPropertyNode, Self.isNameKey(get.key), !read.contains(get.key) {
                read.append(get.key)
            }
            node.children.forEach(visit)
        }
        visit(base)
        nameKeysRead = read
        super.init(type: base.type)
    }

    override var children: [ExpressionNode] { [base] }

    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        var local = ctx
        if let feature = ctx.feature {
            local.feature = PreferredNameFeature(base: feature, keys: keys)
        } else if let v = PreferredNameFeature.preferred(keys, in: { ctx.properties[$0] }) {
            for key in nameKeysRead { local.properties[key] = v }
            for key in ctx.properties.keys where Self.isNameKey(key) { local.properties[key] = v }
        }
        return try base.evaluate(local)
    }

    /// `name`, `name:…` and `name_…`.
    static func isNameKey(_ key: String) -> Bool {
        key == "name" || key.hasPrefix("name:") || key.hasPrefix("name_")
    }

    /// Whether `node` reads a name property (a `get` of a literal name key, or `properties`).
    static func readsName(_ node: ExpressionNode) -> Bool {
        if let get = node as? GetPropertyNode { return isNameKey(get.key) }
        if let c = node as? CompoundNode, c.name == "properties" { return true }
        return node.children.contains(where: readsName)
    }
}

/// A feature whose name properties read the preferred ones first.
private struct PreferredNameFeature: StyleFeature {
    let base: any StyleFeature
    let keys: [String]

    /// The first of `keys` that `read` gives a non-empty string for.
    static func preferred(_ keys: [String], in read: (String) -> ExpressionValue?) -> ExpressionValue? {
        for key in keys {
            if let v = read(key), let s = v.string, !s.isEmpty { return v }
        }
        return nil
    }

    func preferred() -> ExpressionValue? { Self.preferred(keys) { base.styleProperty($0) } }

    func styleProperty(_ key: String) -> ExpressionValue? {
        if PreferredNameNode.isNameKey(key), let v = preferred() { return v }
        return base.styleProperty(key)
    }

    var styleProperties: [String: ExpressionValue] {
        var all = base.styleProperties
        if let v = preferred() {
            for key in all.keys where PreferredNameNode.isNameKey(key) { all[key] = v }
        }
        return all
    }
    var styleID: ExpressionValue { base.styleID }
    var styleGeometryType: StyleGeometryType { base.styleGeometryType }
    var styleGeometryCoordinates: [[[Double]]]? { base.styleGeometryCoordinates }
}
