import Foundation
import MapGeometry
import MapPipeline
import MapStyle
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// `GMSMapStyle`, `mapStyle`, the dark appearance and map IDs (issue 32), over the vector basemap of `Data/`.
@MainActor @Suite(.serialized) struct GMSMapStyleTests {
    static let helsinkiHarbour = GMSCameraPosition(latitude: 60.163, longitude: 24.955, zoom: 15)

    /// A map over the vector basemap with one frame drawn.
    static func vectorMap(_ camera: GMSCameraPosition) -> (GMSMapView, () -> Void) {
        _ = installMapClock()
        let restore = useVectorBasemap()
        let map = makeMap(camera)
        _ = map.renderFrame(scale: 1)
        return (map, restore)
    }

    /// Pixels that show exactly `colour` with their 5 × 5 neighbourhood (interiors of one feature).
    static func interiorPixels(_ image: UIImage, _ colour: (Int, Int, Int)) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        let w = Int(image.size.width)
        let h = Int(image.size.height)
        for y in stride(from: 2, to: h - 2, by: 7) {
            for x in stride(from: 2, to: w - 2, by: 7) {
                var all = true
                for dy in -2...2 where all {
                    for dx in -2...2
                    where !isColor(pixelAt(image, x + dx, y + dy), colour.0, colour.1, colour.2, tolerance: 1) {
                        all = false
                        break
                    }
                }
                if all { out.append((x, y)) }
            }
        }
        return out
    }

    // MARK: GMSMapStyle

    @Test func jsonStringAndFileURLParseAndReject() throws {
        _ = installMapClock()
        let style = try GMSMapStyle(jsonString: ##"[{"featureType": "water", "stylers": [{"color": "#000000"}]}]"##)
        #expect(style.googleStyle.rules.count == 1)
        #expect(throws: GoogleMapStyleError.self) { try GMSMapStyle(jsonString: "[{]") }
        #expect(throws: GMSMapStyleFileError.self) {
            try GMSMapStyle(contentsOfFileURL: URL(string: "https://example.com/style.json")!)
        }
        #expect(throws: GMSMapStyleFileError.self) {
            try GMSMapStyle(contentsOfFileURL: URL(fileURLWithPath: "/nonexistent/style.json"))
        }
        let night = try GMSMapStyle(
            contentsOfFileURL: Fixtures.local.appendingPathComponent("map-styles/night.json"))
        #expect(night.googleStyle.rules.count == 19)
        // Unknown names: accepted, logged.
        let unknown = try GMSMapStyle(
            jsonString: ##"[{"featureType": "road.bridge", "stylers": [{"color": "#000000"}]}]"##)
        #expect(unknown.googleStyle.rules.isEmpty)
        #expect(unknown.googleStyle.warnings.contains { $0.contains("road.bridge") })
    }

    /// An app shows `error.localizedDescription`: the parser's message with its line and column, not Foundation's
    /// generic text naming a type.
    @Test func styleErrorsDescribeThemselves() {
        var shown = ""
        do { _ = try GMSMapStyle(jsonString: "{not json") } catch { shown = error.localizedDescription }
        #expect(shown.hasPrefix("line 1, column 2:"), "\(shown)")
        #expect(!shown.contains("GoogleMapStyleError"), "\(shown)")
        do { _ = try GMSMapStyle(contentsOfFileURL: URL(fileURLWithPath: "/nonexistent/style.json")) } catch {
            shown = error.localizedDescription
        }
        #expect(shown == "cannot read /nonexistent/style.json")
    }

    // MARK: Pixels: each styler on the water, by hand from Google's operations

    /// The default water #aadaff becomes each styler's hand-computed colour at the same pixels; `visibility: off`
    /// shows the land beneath.
    @Test func eachStylerRecoloursTheWaterAsComputedByHand() throws {
        let (map, restore) = Self.vectorMap(Self.helsinkiHarbour)
        defer { restore() }
        let plain = map.renderFrame(scale: 1)
        let water = Self.interiorPixels(plain, (0xaa, 0xda, 0xff))
        #expect(water.count > 20, "the harbour shows water")
        // (styler JSON, expected RGB): see Tests/MapStyleTests/GoogleMapStyleTests.swift for the arithmetic.
        let cases: [(String, (Int, Int, Int))] = [
            (#"{"lightness": -50}"#, (0, 120, 212)),
            (#"{"saturation": -100}"#, (212, 212, 212)),
            (##"{"hue": "#ff0000"}"##, (255, 170, 170)),
            (#"{"gamma": 2}"#, (211, 236, 255)),
            (#"{"invert_lightness": true}"#, (0, 48, 85)),
            (##"{"color": "#123456"}"##, (0x12, 0x34, 0x56)),
            (#"{"visibility": "off"}"#, (0xf5, 0xf3, 0xef)),
        ]
        for (styler, rgb) in cases {
            map.mapStyle = try GMSMapStyle(
                jsonString: #"[{"featureType": "water", "elementType": "geometry", "stylers": [\#(styler)]}]"#)
            let image = map.renderFrame(scale: 1)
            let hits = water.filter { isColor(pixelAt(image, $0.0, $0.1), rgb.0, rgb.1, rgb.2, tolerance: 2) }
            #expect(
                hits.count >= water.count * 9 / 10,
                "\(styler): \(hits.count) of \(water.count); e.g. \(pixelAt(image, water[0].0, water[0].1))")
        }
        map.mapStyle = nil
        let back = map.renderFrame(scale: 1)
        #expect(water.allSatisfy { isColor(pixelAt(back, $0.0, $0.1), 0xaa, 0xda, 0xff, tolerance: 1) })
    }

    // MARK: POIs

    /// `visibility: off` on POIs (and transit stations) leaves no POI label in the frame, and a tap where one was
    /// reports the map, not a POI.
    @Test func hiddenPOIsAreNotDrawnOrTappable() throws {
        let (map, restore) = Self.vectorMap(GMSCameraPosition(latitude: 60.1699, longitude: 24.9384, zoom: 17))
        defer { restore() }
        let before = try #require(map.basemap as? VectorBasemapRenderer).snapshotter.renderer.lastPlacedSymbols
            .filter { $0.sourceLayer == "poi" }
        #expect(before.count >= 3)
        map.mapStyle = try GMSMapStyle(
            jsonString:
                #"[{"featureType": "poi", "stylers": [{"visibility": "off"}]}, {"featureType": "transit", "stylers": [{"visibility": "off"}]}]"#
        )
        _ = map.renderFrame(scale: 1)
        let after = try #require(map.basemap as? VectorBasemapRenderer).snapshotter.renderer.lastPlacedSymbols
        #expect(after.filter { $0.sourceLayer == "poi" }.isEmpty)
        let delegate = POIDelegate()
        map.delegate = delegate
        for poi in before { _ = map.handleTap(at: CGPoint(x: poi.screenAnchor.x, y: poi.screenAnchor.y)) }
        #expect(delegate.pois.isEmpty)
        #expect(delegate.log.allSatisfy { $0 == "didTapAt" })
    }

    // MARK: Switching

    /// A new `mapStyle` rebuilds the basemap once and reuses the decoded tiles: the switch frame reads no tile.
    @Test func switchingStylesRedrawsWithoutReadingTiles() throws {
        let (map, restore) = Self.vectorMap(Self.helsinkiHarbour)
        defer { restore() }
        let first = map.basemap as AnyObject
        map.mapStyle = try GMSMapStyle(jsonString: #"[{"stylers": [{"saturation": -100}]}]"#)
        #expect(map.basemap as AnyObject !== first)
        let second = map.basemap as AnyObject
        map.mapStyle = map.mapStyle
        #expect(map.basemap as AnyObject === second, "the same style does not rebuild")
        _ = map.renderFrame(scale: 1)
        // This map's own count: the process-wide engine's also counts what tests running alongside decode.
        let renderer = try #require(map.basemap as? VectorBasemapRenderer).snapshotter.renderer
        #expect(renderer.lastFrameStatistics.tilesDecoded == 0)
    }

    // MARK: Dark mode

    @Test func darkAppearanceDrawsTheDarkStyleUnlessTheAppStyles() throws {
        let (map, restore) = Self.vectorMap(Self.helsinkiHarbour)
        defer { restore() }
        let light = map.renderFrame(scale: 1)
        #expect(Self.interiorPixels(light, (0xaa, 0xda, 0xff)).count > 20)
        map.darkAppearanceOverride = true
        #expect(map.styleState.built?.effectiveStyle == BasemapStyle.darkStyle)
        #expect(map.controls.isDark)
        let dark = map.renderFrame(scale: 1)
        // stylekit.DARK: water #17263c.
        #expect(Self.interiorPixels(dark, (0x17, 0x26, 0x3c)).count > 20)
        // The app's style wins over the dark default: light style with the rules.
        map.mapStyle = try GMSMapStyle(jsonString: #"[{"featureType": "road", "stylers": [{"visibility": "off"}]}]"#)
        #expect(map.styleState.built?.effectiveStyle == .bundled)
        let styled = map.renderFrame(scale: 1)
        #expect(Self.interiorPixels(styled, (0xaa, 0xda, 0xff)).count > 20)
        map.mapStyle = nil
        map.darkAppearanceOverride = false
        #expect(map.styleState.built?.effectiveStyle == .bundled)
        #expect(!map.controls.isDark)
    }

    /// The dark basemap follows the view's traits: `overrideUserInterfaceStyle` on the map or on an ancestor.
    @Test func theTraitChoosesTheDarkBasemap() throws {
        let (map, restore) = Self.vectorMap(Self.helsinkiHarbour)
        defer { restore() }
        let container = UIView(frame: map.frame)
        container.addSubview(map)
        _ = map.renderFrame(scale: 1)
        #expect(map.styleState.built?.effectiveStyle == .bundled)
        container.overrideUserInterfaceStyle = .dark
        #expect(map.styleState.built?.effectiveStyle == BasemapStyle.darkStyle)
        #expect(map.controls.isDark)
        #expect(Self.interiorPixels(map.renderFrame(scale: 1), (0x17, 0x26, 0x3c)).count > 20)
        map.overrideUserInterfaceStyle = .light
        #expect(map.styleState.built?.effectiveStyle == .bundled)
        #expect(!map.controls.isDark)
        map.overrideUserInterfaceStyle = .unspecified
        #expect(map.styleState.built?.effectiveStyle == BasemapStyle.darkStyle)
        container.overrideUserInterfaceStyle = .unspecified
        #expect(map.styleState.built?.effectiveStyle == .bundled)
    }

    /// A map made in a dark app (`--appearance dark`, `WAYMARK_APPEARANCE`: the screen's style) is dark from its first
    /// frame, its controls too, though no trait ever changes.
    @Test func aMapMadeInADarkAppHasDarkControlsFromTheStart() {
        _ = installMapClock()
        let before = UIScreen.main.userInterfaceStyle
        UIScreen.main.userInterfaceStyle = .dark
        defer { UIScreen.main.userInterfaceStyle = before }
        let map = GMSMapView(
            frame: CGRect(x: 0, y: 0, width: 200, height: 150),
            camera: GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 14))
        _ = map.renderFrame(scale: 1)
        #expect(map.styleState.built?.dark == true)
        #expect(map.controls.isDark)
    }

    // MARK: Map IDs

    @Test func mapIDsResolveToRegisteredStyles() throws {
        _ = installMapClock()
        MapIDRegistry.styles.removeAll()
        MapIDRegistry.reportedUnknown.removeAll()
        let rules = try GMSMapStyle(jsonString: #"[{"stylers": [{"saturation": -100}]}]"#)
        GMSServices.registerMapStyle(rules, forMapID: GMSMapID(identifier: "grey"))
        GMSServices.registerMapStyle(try .bundled(named: "protomaps"), forMapID: GMSMapID(identifier: "pm"))
        let options = GMSMapViewOptions()
        options.mapID = GMSMapID(identifier: "grey")
        let grey = GMSMapView(options: options)
        #expect(grey.styleState.mapIDStyle === rules)
        #expect(grey.basemapStyle.rules === rules)
        options.mapID = GMSMapID(identifier: "pm")
        let pm = GMSMapView(options: options)
        #expect(pm.mapLibreStyle == (try MapLibreStyle.bundled(named: "protomaps")))
        // Unknown: the default map, logged once.
        options.mapID = GMSMapID(identifier: "nope")
        let a = GMSMapView(options: options)
        _ = GMSMapView(options: options)
        #expect(a.mapLibreStyle == .bundled && a.styleState.mapIDStyle == nil)
        #expect(GMSLog.messages.filter { $0.contains("\"nope\"") }.count == 1)
        MapIDRegistry.styles.removeAll()
    }

    @Test func mapIDFolderHoldsGoogleOrMapLibreStyles() throws {
        _ = installMapClock()
        MapIDRegistry.styles.removeAll()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-map-ids-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(##"[{"featureType": "water", "stylers": [{"color": "#000000"}]}]"##.utf8).write(
            to: folder.appendingPathComponent("night.json"))
        try Data(#"{"version": 8, "sources": {}, "layers": []}"#.utf8).write(
            to: folder.appendingPathComponent("blank.json"))
        let env = ["WAYMARK_MAP_IDS": folder.path]
        guard case .google(let g)? = MapIDRegistry.resolve(GMSMapID(identifier: "night"), environment: env) else {
            Issue.record("night.json is Google styling JSON")
            return
        }
        #expect(g.googleStyle.rules.count == 1)
        guard case .mapLibre(.file(let path))? = MapIDRegistry.resolve(GMSMapID(identifier: "blank"), environment: env)
        else {
            Issue.record("blank.json is a MapLibre style")
            return
        }
        #expect(path.hasSuffix("blank.json"))
        #expect(MapIDRegistry.resolve(GMSMapID(identifier: "../night"), environment: env) == nil)
        #expect(MapIDRegistry.resolve(GMSMapID(identifier: "missing"), environment: env) == nil)
        MapIDRegistry.styles.removeAll()
    }

    // MARK: Traffic

    @Test func trafficLayersShowOnlyWithTrafficEnabled() throws {
        let json =
            #"{"version": 8, "sources": {"t": {"type": "vector", "tiles": []}}, "layers": ["#
            + #"{"id": "background", "type": "background"}, "#
            + #"{"id": "traffic-flow", "type": "line", "source": "t", "source-layer": "traffic"}]}"#
        let style = try Style.parse(bytes: Array(json.utf8))
        var basemap = BasemapStyle()
        #expect(basemap.restyle(style).layer(id: "traffic-flow")?.isVisible == false)
        basemap.traffic = true
        #expect(basemap.restyle(style).layer(id: "traffic-flow")?.isVisible == true)
        #expect(basemap.restyle(style).layer(id: "background")?.isVisible == true)
        _ = installMapClock()
        let map = makeMap()
        _ = map.basemap
        map.isTrafficEnabled = true
        #expect(map.styleState.built?.traffic == true)
    }
}
