import Foundation
import MapTestSupport
import Testing

@testable import MapStyle

private let stylesFolder = Fixtures.data.appendingPathComponent("styles")

private func bundled(_ name: String) throws -> Style {
    try Style.load(contentsOfFile: stylesFolder.appendingPathComponent(name).path)
}

private func rules(_ json: String) throws -> GoogleMapStyle { try GoogleMapStyle(jsonString: json) }

/// The colour a layer's property gives a feature.
private func colour(
    _ style: Style, _ layer: String, _ property: String, zoom: Double = 16,
    _ properties: [String: ExpressionValue] = [:]
) -> StyleColor? {
    style.layer(id: layer)?.property(property)?.evaluate(EvaluationContext(zoom: zoom, properties: properties)).color
}

private func number(
    _ style: Style, _ layer: String, _ property: String, zoom: Double = 16,
    _ properties: [String: ExpressionValue] = [:]
) -> Double? {
    style.layer(id: layer)?.property(property)?.evaluate(EvaluationContext(zoom: zoom, properties: properties)).number
}

/// Whether a layer draws a feature: visible and its filter passes.
private func draws(_ style: Style, _ layer: String, zoom: Double = 18, _ properties: [String: ExpressionValue]) -> Bool
{
    guard let l = style.layer(id: layer), l.isVisible else { return false }
    guard let filter = l.filter else { return true }
    return filter.matches(EvaluationContext(zoom: zoom, properties: properties))
}

private func close(_ a: StyleColor?, _ r: Double, _ g: Double, _ b: Double, tolerance: Double = 0.002) -> Bool {
    guard let a else { return false }
    return abs(a.red - r) < tolerance && abs(a.green - g) < tolerance && abs(a.blue - b) < tolerance
}

// MARK: Parsing

@Test func googleReferenceExampleParses() throws {
    // The example of Google's "Style reference for Maps SDK for iOS".
    let style = try rules(
        """
        [
          {"featureType": "all", "stylers": [{"color": "#C0C0C0"}]},
          {"featureType": "road.arterial", "elementType": "geometry", "stylers": [{"color": "#CCFFFF"}]},
          {"featureType": "landscape", "elementType": "labels", "stylers": [{"visibility": "off"}]}
        ]
        """)
    #expect(style.warnings.isEmpty)
    #expect(style.rules.count == 3)
    #expect(style.rules[1].featureType == "road.arterial")
    #expect(style.rules[1].elementType == "geometry")
    #expect(style.rules[2].stylers == [.visibility(.off)])
    let applied = style.translate(try bundled("default.json"))
    #expect(applied.unmatchedFeatureTypes.isEmpty)
}

@Test func invalidJSONNamesLineAndColumn() {
    #expect {
        try rules("[\n  {\"stylers\": [}\n]")
    } throws: { error in
        guard let e = error as? GoogleMapStyleError else { return false }
        return e.line == 2 && e.column != nil && e.message.hasPrefix("invalid JSON")
    }
}

@Test func wronglyShapedRulesNameTheirPosition() {
    func message(_ json: String) -> String? {
        do {
            _ = try rules(json)
            return nil
        } catch { return "\(error)" }
    }
    #expect(message("{}")?.contains("array of rules") == true)
    #expect(message("[{\"stylers\": []}, 3]")?.contains("[1]: a rule must be an object") == true)
    #expect(message("[{\"stylers\": {}}]")?.contains("[0].stylers: expected an array") == true)
    #expect(message("[{\"featureType\": 1, \"stylers\": []}]")?.contains("[0].featureType") == true)
    #expect(message("[{\"featureType\": \"road\"}]")?.contains("[0]: a rule needs \"stylers\"") == true)
    let bad = message("[\n {\"stylers\": [\n  {\"color\": \"red\"}]}]")
    #expect(bad?.contains("[0].stylers[0].color") == true)
    #expect(bad?.hasPrefix("line 3") == true)
    #expect(message("[{\"stylers\": [{\"lightness\": true}]}]")?.contains("lightness: expected a number") == true)
    #expect(message("[{\"stylers\": [{\"visibility\": \"hidden\"}]}]")?.contains("visibility") == true)
}

@Test func unknownNamesAreWarningsAndIgnored() throws {
    let style = try rules(
        """
        [{"featureType": "road.bridge", "stylers": [{"color": "#ff0000"}]},
         {"featureType": "water", "elementType": "labels.sparkle", "stylers": [{"color": "#ff0000"}]},
         {"featureType": "water", "stylers": [{"glow": 3}, {"color": "#00ff00"}]}]
        """)
    #expect(style.rules.count == 1)
    #expect(style.rules[0].stylers == [.color(StyleColor(red: 0, green: 1, blue: 0))])
    #expect(style.warnings.count == 3)
    #expect(style.warnings[0].contains("road.bridge"))
    #expect(style.warnings[1].contains("labels.sparkle"))
    #expect(style.warnings[2].contains("glow"))
}

@Test func staticMapsStyleParametersParse() throws {
    let style = try GoogleMapStyle(staticMapsStyles: [
        "feature:road.local|element:geometry|color:0x00ff00", "element:labels|invert_lightness:true",
        "feature:water|lightness:-20|visibility:simplified",
    ])
    #expect(style.rules.count == 3)
    #expect(style.rules[0].stylers == [.color(StyleColor(red: 0, green: 1, blue: 0))])
    #expect(style.rules[1].featureType == "all" && style.rules[1].elementType == "labels")
    #expect(style.rules[2].stylers == [.lightness(-20), .visibility(.simplified)])
    #expect(throws: GoogleMapStyleError.self) { try GoogleMapStyle(staticMapsStyles: ["feature:water|color"]) }
}

// MARK: Colour operations, by hand from Google's descriptions

/// Water, #aadaff: r 2/3, g 0.8549, b 1 → H 0.57255 (206.1°), S 1, L 0.83333.
private let water = StyleColor(red: 170 / 255, green: 218 / 255, blue: 1)

@Test func lightnessMovesTowardsBlackOrWhite() {
    // L 0.8333 − 50 % × 0.8333 = 0.41667; S 1: q = 0.8333, p = 0 → r 0, g q·(2/3 − H)·6 = 0.47059, b q.
    #expect(close(GoogleStyler.lightness(-50).apply(to: water), 0, 0.47059, 0.83333))
    // L 0.8333 + 100 % × 0.1667 = 1: white.
    #expect(close(GoogleStyler.lightness(100).apply(to: water), 1, 1, 1))
    #expect(close(GoogleStyler.lightness(-100).apply(to: water), 0, 0, 0))
}

@Test func saturationMovesTowardsGreyOrFull() {
    #expect(close(GoogleStyler.saturation(-100).apply(to: water), 0.83333, 0.83333, 0.83333))
    // #808040: H 1/6, S 0.33463, L 0.37647 → S + 50 % × (1 − S) = 0.66732; q = 0.62770, p = 0.12524.
    let olive = StyleColor(red: 128 / 255, green: 128 / 255, blue: 64 / 255)
    #expect(close(GoogleStyler.saturation(50).apply(to: olive), 0.62770, 0.62770, 0.12524))
}

@Test func hueKeepsSaturationAndLightness() {
    // H of #ff0000 is 0; S 1, L 0.8333: q 1, p 0.6667 → #ffaaaa.
    #expect(close(GoogleStyler.hue(StyleColor(red: 1, green: 0, blue: 0)).apply(to: water), 1, 2 / 3, 2 / 3))
}

@Test func gammaBendsLightnessOnly() {
    // Grey 128: L 0.50196^(1/2) = 0.70849.
    let grey = StyleColor(red: 128 / 255, green: 128 / 255, blue: 128 / 255)
    #expect(close(GoogleStyler.gamma(2).apply(to: grey), 0.70849, 0.70849, 0.70849))
    #expect(close(GoogleStyler.gamma(5).apply(to: .white), 1, 1, 1))
    #expect(close(GoogleStyler.gamma(0.2).apply(to: .black), 0, 0, 0))
}

@Test func invertLightnessFlipsLightness() {
    // L 1 − 0.8333 = 0.1667, S 1: q 0.3333, p 0 → (0, 0.18824, 0.33333).
    #expect(close(GoogleStyler.invertLightness(true).apply(to: water), 0, 0.18824, 0.33333))
    #expect(GoogleStyler.invertLightness(false).apply(to: water) == water)
}

@Test func colorReplacesAndKeepsOpacity() {
    let halfWhite = StyleColor(red: 1, green: 1, blue: 1, alpha: 0.5)
    let c = GoogleStyler.color(StyleColor(red: 0x12 / 255, green: 0x34 / 255, blue: 0x56 / 255)).apply(to: halfWhite)
    #expect(close(c, 0x12 / 255, 0x34 / 255, 0x56 / 255))
    #expect(c?.alpha == 0.5)
}

@Test func stylerKeysInOneObjectApplyInReferenceOrder() throws {
    // color then lightness as written would be #808080 → lighter; the reference order puts lightness first.
    let style = try rules(##"[{"stylers": [{"color": "#808080", "lightness": 50}]}]"##)
    #expect(style.rules[0].stylers == [.lightness(50), .color(StyleColor(css: "#808080")!)])
}

// MARK: Translation onto the bundled styles

@Test func stylersReachTheBundledLayers() throws {
    let base = try bundled("default.json")
    let styled = try rules(
        """
        [{"featureType": "water", "elementType": "geometry", "stylers": [{"lightness": -50}]},
         {"featureType": "road.arterial", "elementType": "geometry.fill", "stylers": [{"weight": 7}]},
         {"featureType": "road.local", "elementType": "labels.text.stroke", "stylers": [{"weight": 3}]},
         {"featureType": "landscape.natural", "stylers": [{"invert_lightness": true}]}]
        """
    ).apply(to: base)
    #expect(close(colour(styled, "water", "fill-color"), 0, 0.47059, 0.83333))
    #expect(close(colour(styled, "world-water", "fill-color"), 0, 0.47059, 0.83333))
    #expect(number(styled, "road-secondary-tertiary", "line-width", ["class": .string("secondary")]) == 7)
    #expect(number(styled, "road-label", "text-halo-width", ["class": .string("minor")]) == 3)
    #expect(number(styled, "road-label", "text-halo-width", ["class": .string("primary")]) == 1.5)
    // The background #f5f3ef: L 0.94902 → 0.05098, S 0.23077, H 0.11538.
    let bg = try #require(colour(styled, "background", "background-color"))
    #expect(abs(GoogleColorMath.hsl(bg).l - 0.05098) < 0.002)
    // Unstyled layers keep their paint.
    #expect(colour(styled, "park", "fill-color") == colour(base, "park", "fill-color"))
}

@Test func laterRulesWinAndParentsReachChildren() throws {
    let styled = try rules(
        """
        [{"featureType": "road", "elementType": "geometry.fill", "stylers": [{"color": "#ff0000"}]},
         {"featureType": "road.highway", "elementType": "geometry.fill", "stylers": [{"color": "#0000ff"}]}]
        """
    ).apply(to: try bundled("default.json"))
    #expect(colour(styled, "road-minor", "line-color", ["class": .string("minor")]) == StyleColor(css: "#ff0000"))
    #expect(colour(styled, "road-primary", "line-color", ["class": .string("primary")]) == StyleColor(css: "#0000ff"))
    // road.highway.controlled_access is under road.highway.
    #expect(
        colour(styled, "road-motorway", "line-color", ["class": .string("motorway")]) == StyleColor(css: "#0000ff"))
    // Casings are geometry.stroke: untouched by geometry.fill rules.
    #expect(colour(styled, "road-minor-casing", "line-color") == StyleColor(css: "#dcd8d1"))
}

@Test func dataDrivenColoursAreStyledPerFeature() throws {
    // poi-label's text-color is a `match` on class; only business POIs change.
    let base = try bundled("default.json")
    let styled = try rules(
        ##"[{"featureType": "poi.business", "elementType": "labels.text.fill", "stylers": [{"color": "#010203"}]}]"##
    ).apply(to: base)
    #expect(colour(styled, "poi-label", "text-color", ["class": .string("cafe")]) == StyleColor(css: "#010203"))
    #expect(
        colour(styled, "poi-label", "text-color", ["class": .string("museum")])
            == colour(base, "poi-label", "text-color", ["class": .string("museum")]))
}

@Test func poiVisibilityOffHidesLabelsAndIcons() throws {
    let base = try bundled("default.json")
    let poi: [String: ExpressionValue] = ["class": .string("cafe"), "name": .string("Fazer"), "rank": .number(1)]
    let bus: [String: ExpressionValue] = [
        "class": .string("bus"), "name": .string("Rautatientori"), "rank": .number(1),
    ]
    #expect(draws(base, "poi-label", poi) && draws(base, "poi-dot", poi))
    let styled = try rules(#"[{"featureType": "poi", "stylers": [{"visibility": "off"}]}]"#).apply(to: base)
    #expect(!draws(styled, "poi-label", poi))
    #expect(!draws(styled, "poi-dot", poi))
    // Bus stops are transit.station.bus, not poi.
    #expect(draws(styled, "poi-label", bus))
    // Classes no row names (OpenStreetMap's `amenity`, `leisure`, …) and POIs without a class are POIs too.
    for other: [String: ExpressionValue] in [
        ["class": .string("amenity"), "name": .string("Hamsteri"), "rank": .number(1)],
        ["name": .string("Soopeli"), "rank": .number(1)],
    ] {
        #expect(draws(base, "poi-label", other))
        #expect(!draws(styled, "poi-label", other) && !draws(styled, "poi-dot", other))
    }
    // A later rule turns parks back on.
    let park: [String: ExpressionValue] = ["class": .string("park"), "name": .string("Esplanadi"), "rank": .number(1)]
    let back = try rules(
        #"[{"featureType": "poi", "stylers": [{"visibility": "off"}]}, {"featureType": "poi.park", "stylers": [{"visibility": "on"}]}]"#
    ).apply(to: base)
    #expect(draws(back, "poi-label", park) && !draws(back, "poi-label", poi))
    // Labels off, icons kept: the label layer goes, the dot stays.
    let iconsOnly = try rules(
        #"[{"featureType": "poi", "elementType": "labels.text", "stylers": [{"visibility": "off"}]}]"#
    ).apply(to: base)
    #expect(!draws(iconsOnly, "poi-label", poi) && draws(iconsOnly, "poi-dot", poi))
}

@Test func allLabelsOffHidesEverySymbolLayerStatically() throws {
    let styled = try rules(#"[{"elementType": "labels", "stylers": [{"visibility": "off"}]}]"#).apply(
        to: try bundled("default.json"))
    for layer in styled.layers where layer.type == .symbol { #expect(!layer.isVisible, "\(layer.id)") }
    #expect(styled.layer(id: "road-minor")?.isVisible == true)
}

@Test func textFillOffKeepsTheHaloAndStrokeOffDropsIt() throws {
    let base = try bundled("default.json")
    let fillOff = try rules(#"[{"elementType": "labels.text.fill", "stylers": [{"visibility": "off"}]}]"#).apply(
        to: base)
    #expect(colour(fillOff, "road-label", "text-color")?.alpha == 0)
    #expect(number(fillOff, "road-label", "text-halo-width") == 1.5)
    let strokeOff = try rules(#"[{"elementType": "labels.text.stroke", "stylers": [{"visibility": "off"}]}]"#).apply(
        to: base)
    #expect(number(strokeOff, "road-label", "text-halo-width") == 0)
    #expect(draws(strokeOff, "road-label", ["class": .string("minor")]))
}

@Test func simplifiedThinsLinesAndDropsOutlinesAndHalos() throws {
    let base = try bundled("default.json")
    let styled = try rules(#"[{"featureType": "road", "stylers": [{"visibility": "simplified"}]}]"#).apply(to: base)
    let minor: [String: ExpressionValue] = ["class": .string("minor")]
    let full = try #require(number(base, "road-minor", "line-width", zoom: 16, minor))
    #expect(number(styled, "road-minor", "line-width", zoom: 16, minor) == full * 0.5)
    #expect(!draws(styled, "road-minor-casing", minor))
    #expect(draws(styled, "road-minor", minor))
    #expect(number(styled, "road-label", "text-halo-width", minor) == 0)
    #expect(colour(styled, "road-label", "text-color", minor) == colour(base, "road-label", "text-color", minor))
    // Other features are not simplified.
    #expect(number(styled, "rail", "line-width", ["class": .string("rail")]) == number(base, "rail", "line-width"))
}

@Test func featuresWithoutCounterpartAreAcceptedAndReported() throws {
    let style = try rules(
        """
        [{"featureType": "landscape.natural.terrain", "stylers": [{"visibility": "off"}]},
         {"featureType": "landscape.natural.terrain", "stylers": [{"color": "#000000"}]},
         {"featureType": "water", "stylers": [{"color": "#000000"}]}]
        """)
    let omt = style.translate(try bundled("default.json"))
    #expect(omt.unmatchedFeatureTypes == ["landscape.natural.terrain"])
    let pm = try rules(#"[{"featureType": "administrative.land_parcel", "stylers": [{"visibility": "off"}]}]"#)
        .translate(try bundled("protomaps.json"))
    #expect(pm.unmatchedFeatureTypes == ["administrative.land_parcel"])
}

@Test func translationKeepsSourcesAndLoadsCleanly() throws {
    let base = try bundled("default.json")
    for name in ["night", "retro", "greyscale"] {
        let json = try String(
            contentsOf: Fixtures.local.appendingPathComponent("map-styles/\(name).json"), encoding: .utf8)
        let google = try GoogleMapStyle(jsonString: json)
        #expect(google.warnings.isEmpty, "\(name): \(google.warnings)")
        let styled = google.apply(to: base)
        #expect(styled.layers.count == base.layers.count)
        #expect(styled.sources.keys.sorted() == base.sources.keys.sorted())
        // Every colour a feature can get is a valid colour (finite components in 0…1).
        for layer in styled.layers {
            for (name, p) in layer.paint where name.hasSuffix("color") {
                for cls in ["motorway", "primary", "minor", "park", "cafe", "city", "country", "bus"] {
                    let c = p.evaluate(EvaluationContext(zoom: 15, properties: ["class": .string(cls)])).color
                    if let c {
                        #expect([c.red, c.green, c.blue, c.alpha].allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 })
                    }
                }
            }
        }
    }
}

// MARK: The feature table, every row

/// A feature the row selects: the first class/kind of its match, or an admin level in its range.
private func sample(_ row: GoogleFeatureRow) -> [String: ExpressionValue] {
    var props: [String: ExpressionValue] = ["name": .string("Sample"), "rank": .number(1), "min_zoom": .number(0)]
    let key = row.schema == .openMapTiles ? "class" : "kind"
    if case .array(let items)? = row.filter, items.first == .string("match"), items[3] == .bool(false) {
        // A catch-all row (none of these labels): OpenStreetMap's open-ended `amenity` is one it takes.
        props[key] = .string("amenity")
    } else if case .array(let items)? = row.filter, items.first == .string("match"),
        case .array(let labels) = items[2], let first = labels.first?.stringValue
    {
        props[key] = .string(first)
    } else if row.sourceLayer == "boundary" {
        let level: Double =
            switch row.featureType {
            case "administrative.country": 2
            case "administrative.province": 4
            default: 8
            }
        props["admin_level"] = .number(level)
    }
    return props
}

@Test func everyFeatureTableRowSelectsItsSampleAndNoOtherRowDoes() throws {
    for schema in GoogleStyleSchema.allCases {
        let rows = GoogleFeatureTable.rows(for: schema)
        for row in rows {
            let ctx = EvaluationContext(zoom: 18, properties: sample(row))
            if let filter = row.filter {
                let compiled = try StyleFilter.compile(filter)
                #expect(compiled.matches(ctx), "\(row.featureType) on \(row.sourceLayer)")
            }
            #expect(GoogleFeatureType.isKnown(row.featureType))
            // Rows of one source layer are disjoint: no other row takes the sample.
            for other in rows where other.sourceLayer == row.sourceLayer && other.featureType != row.featureType {
                let takes = try other.filter.map { try StyleFilter.compile($0).matches(ctx) } ?? true
                #expect(!takes, "\(other.featureType) also takes the sample of \(row.featureType)")
            }
        }
    }
}

@Test func everyFeatureTableRowStylesTheBundledLayersThatDrawIt() throws {
    var styledRows = 0
    for (schema, file) in [(GoogleStyleSchema.openMapTiles, "default.json"), (.protomaps, "protomaps.json")] {
        let base = try bundled(file)
        #expect(GoogleStyleSchema.of(base) == schema)
        let target = StyleColor(red: 0x12 / 255, green: 0x34 / 255, blue: 0x56 / 255)
        for row in GoogleFeatureTable.rows(for: schema) {
            let styled = GoogleMapStyle(rules: [
                GoogleStyleRule(featureType: row.featureType, elementType: "all", stylers: [.color(target)])
            ]).apply(to: base)
            let props = sample(row)
            let layers = base.layers.filter {
                (row.sourceLayer.isEmpty ? $0.type == .background : $0.sourceLayer == row.sourceLayer)
                    && draws(base, $0.id, props)
            }
            for layer in layers {
                let name =
                    switch layer.type {
                    case .background: "background-color"
                    case .fill: "fill-color"
                    case .line: "line-color"
                    case .circle: "circle-color"
                    case .fillExtrusion: "fill-extrusion-color"
                    default: "text-color"
                    }
                #expect(
                    colour(styled, layer.id, name, zoom: 18, props) == target,
                    "\(row.featureType): \(layer.id).\(name)")
                styledRows += 1
            }
        }
    }
    #expect(styledRows > 60)
}
