import MapStyle
import Testing

/// `LabelLanguage` (Google's `language` tags) and `Style.localizingLabels(to:)`, the text-field rewrite.
@Suite struct LabelLanguageTests {
    @Test func tagsAreParsedAndNormalised() {
        #expect(LabelLanguage("sv")?.tag == "sv")
        #expect(LabelLanguage("SV")?.tag == "sv")
        #expect(LabelLanguage("zh-cn")?.tag == "zh-CN")
        #expect(LabelLanguage("zh_TW")?.region == "TW")
        #expect(LabelLanguage("zh-hant")?.tag == "zh-Hant")
        #expect(LabelLanguage("sr-latn-rs")?.tag == "sr-Latn-RS")
        #expect(LabelLanguage("es-419")?.region == "419")
        #expect(LabelLanguage("fil")?.language == "fil")
        #expect(LabelLanguage("iw")?.tag == "he")
        #expect(LabelLanguage("de-DE-1996")?.tag == "de-DE-1996")
        for bad in [
            "", "e", "english", "en-", "-en", "1a", "en-US-x", "sv;drop", "ja-Ｊａ", "en--US",
            String(repeating: "a", count: 40),
        ] {
            #expect(LabelLanguage(bad) == nil, "\(bad)")
        }
    }

    @Test func nameKeysPreferTheTagThenTheLanguage() {
        #expect(LabelLanguage("sv")?.nameKeys == ["name:sv", "name_sv"])
        #expect(LabelLanguage("pt-BR")?.nameKeys == ["name:pt-BR", "name:pt", "name_pt"])
        #expect(LabelLanguage("zh-TW")?.nameKeys == ["name:zh-TW", "name:zh-Hant", "name:zh", "name_zh"])
        #expect(LabelLanguage("zh-CN")?.nameKeys == ["name:zh-CN", "name:zh-Hans", "name:zh", "name_zh"])
        #expect(LabelLanguage("zh-Hant")?.nameKeys == ["name:zh-Hant", "name:zh", "name_zh"])
    }

    static let style = """
        {"version": 8, "sources": {"s": {"type": "vector", "tiles": ["http://x/{z}/{x}/{y}.pbf"]}},
         "layers": [
          {"id": "place", "type": "symbol", "source": "s", "source-layer": "place",
           "layout": {"text-field": ["coalesce", ["get", "name:latin"], ["get", "name"]]}},
          {"id": "country", "type": "symbol", "source": "s", "source-layer": "place",
           "layout": {"text-field": ["coalesce", ["get", "name_en"], ["get", "name:latin"], ["get", "name"]]}},
          {"id": "token", "type": "symbol", "source": "s", "source-layer": "poi", "layout": {"text-field": "{name} ({ref})"}},
          {"id": "housenumber", "type": "symbol", "source": "s", "source-layer": "housenumber",
           "layout": {"text-field": ["to-string", ["get", "housenumber"]]}},
          {"id": "constant", "type": "symbol", "source": "s", "source-layer": "poi", "layout": {"text-field": "Here"}},
          {"id": "road", "type": "line", "source": "s", "source-layer": "transportation"}
         ]}
        """

    func text(_ style: Style, _ layer: String, _ properties: [String: ExpressionValue]) throws -> String {
        let field = try #require(style.layer(id: layer)?.layout["text-field"])
        return field.string(EvaluationContext(zoom: 10, properties: properties))
    }

    @Test func textFieldsPreferTheLanguagesNames() throws {
        let base = try Style.parse(bytes: Array(Self.style.utf8))
        #expect(base.errors.isEmpty, "\(base.errors)")
        let sv = base.localizingLabels(to: try #require(LabelLanguage("sv")))
        let helsinki: [String: ExpressionValue] = ["name": .string("Helsinki"), "name:sv": .string("Helsingfors")]
        #expect(try text(base, "place", helsinki) == "Helsinki")
        #expect(try text(sv, "place", helsinki) == "Helsingfors")
        // No Swedish name (or an empty one): the name the style asked for.
        #expect(try text(sv, "place", ["name": .string("Espoo"), "name:latin": .string("Espoo2")]) == "Espoo2")
        #expect(try text(sv, "place", ["name": .string("Vantaa"), "name:sv": .string("")]) == "Vantaa")
        // name_xx (Natural Earth, OpenMapTiles v2) is the fallback after name:xx.
        let finland: [String: ExpressionValue] = [
            "name": .string("Suomi"), "name_en": .string("Finland"), "name_de": .string("Finnland"),
        ]
        let de = base.localizingLabels(to: try #require(LabelLanguage("de")))
        #expect(try text(de, "country", finland) == "Finnland")
        #expect(try text(sv, "country", finland) == "Finland")
        // Token strings too; other properties and constants stay.
        let poi: [String: ExpressionValue] = [
            "name": .string("Tuomiokirkko"), "name:sv": .string("Domkyrkan"), "ref": .string("7"),
        ]
        #expect(try text(sv, "token", poi) == "Domkyrkan (7)")
        #expect(try text(sv, "housenumber", ["housenumber": .string("12"), "name:sv": .string("x")]) == "12")
        #expect(try text(sv, "constant", ["name:sv": .string("x")]) == "Here")
        #expect(sv.layers.map(\.id) == base.layers.map(\.id))
    }

    /// Renderers read features through `StyleFeature`, not a dictionary: the same rule holds there.
    @Test func featuresReadThroughTheProtocolAreLocalisedToo() throws {
        struct Feature: StyleFeature {
            var properties: [String: ExpressionValue]
            func styleProperty(_ key: String) -> ExpressionValue? { properties[key] }
            var styleProperties: [String: ExpressionValue] { properties }
            var styleID: ExpressionValue { .null }
            var styleGeometryType: StyleGeometryType { .point }
        }
        let ja = try Style.parse(bytes: Array(Self.style.utf8)).localizingLabels(to: try #require(LabelLanguage("ja")))
        let field = try #require(ja.layer(id: "place")?.layout["text-field"])
        let tokyo = Feature(properties: ["name": .string("Tokyo"), "name:ja": .string("東京")])
        #expect(field.string(EvaluationContext(zoom: 5, feature: tokyo)) == "東京")
        let osaka = Feature(properties: ["name": .string("Osaka")])
        #expect(field.string(EvaluationContext(zoom: 5, feature: osaka)) == "Osaka")
    }
}
