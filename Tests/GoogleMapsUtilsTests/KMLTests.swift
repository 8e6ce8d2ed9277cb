import Foundation
import MapTestSupport
import Testing

@testable import GoogleMaps
@testable import GoogleMapsUtils

func parsedKML(_ xml: String) -> GMUKMLParser {
    let parser = GMUKMLParser(data: Data(xml.utf8))
    parser.parse()
    return parser
}

func rgba(_ c: UIColor?) -> [Int] {
    var r: CGFloat = 0
    var g: CGFloat = 0
    var b: CGFloat = 0
    var a: CGFloat = 0
    _ = c?.getRed(&r, green: &g, blue: &b, alpha: &a)
    return [r, g, b, a].map { Int(($0 * 255).rounded()) }
}

@Suite(.enabled(if: UtilsFixtures.available, "needs ../shared/fixtures/google-maps-ios-utils"))
struct KMLFixtureTests {
    func parser(_ name: String) -> GMUKMLParser {
        let p = GMUKMLParser(url: UtilsFixtures.kml(name))
        p.parse()
        #expect(p.error == nil, "\(p.error.map { "\($0)" } ?? "")")
        return p
    }

    @Test func placemarkAndPoint() {
        let p = parser("Placemark")
        #expect(p.placemarks.count == 1)
        let pm = p.placemarks[0]
        #expect(pm.title == "Test Placemark" && pm.snippet == "A Placemark for testing purposes.")
        #expect(pm.styleUrl == "#exampleStyle")
        let point = pm.geometry as! GMUPoint
        #expect(point.coordinate.latitude == 1 && point.coordinate.longitude == 10)
        #expect(parser("Point").placemarks.first?.geometry is GMUPoint)
    }

    @Test func lineStringPolygonWithHoleAndMultiGeometry() {
        #expect(parser("LineString").placemarks.first?.geometry is GMULineString)
        let polygon = parser("Polygon").placemarks[0].geometry as! GMUPolygon
        #expect(polygon.paths.count == 2 && polygon.paths[0].count() == 5)
        #expect(
            polygon.paths[1].coordinate(at: 1).latitude == 17.5 && polygon.paths[1].coordinate(at: 1).longitude == 12.5)
        let multi = parser("MultiGeometry").placemarks[0].geometry as! GMUGeometryCollection
        #expect(multi.geometries.map { ($0 as! GMUPoint).coordinate.longitude } == [10, 20])
    }

    @Test func groundOverlay() {
        let pm = parser("GroundOverlay").placemarks
        #expect(pm.count == 1)
        let o = pm[0].geometry as! GMUGroundOverlay
        #expect(o.northEast.latitude == 10 && o.northEast.longitude == 10)
        #expect(o.southWest.latitude == -10 && o.southWest.longitude == -10)
        #expect(o.rotation == 45 && o.zIndex == 1 && o.href == "https://www.google.com/intl/en/images/logo.gif")
    }

    @Test func styleWithIconLineAndPoly() {
        let s = parser("Style").styles
        #expect(s.count == 1)
        let style = s[0]
        #expect(style.styleID == "Test Style" && style.title == "A Point title")
        #expect(style.scale == 2.5 && style.heading == 45 && style.width == 5)
        #expect(style.anchor == CGPoint(x: 0.25, y: 0.25), "hotSpot y counts from the bottom")
        #expect(style.iconUrl == "https://maps.google.com/mapfiles/kml/pal3/icon55.png")
        #expect(rgba(style.strokeColor) == [255, 0, 0, 255], "ff0000ff is aabbggrr: opaque red")
        #expect(rgba(style.fillColor) == [0, 0, 255, 255], "ffff0000: opaque blue")
        #expect(style.hasFill && style.hasStroke)
    }

    @Test func styleMap() {
        let p = parser("StyleMap")
        #expect(p.styleMaps.count == 1 && p.styles.count == 2)
        let m = p.styleMaps[0]
        #expect(m.styleMapId == "line-FF0000-5000-nodesc")
        #expect(m.pairs.map(\.key) == ["normal", "highlight"])
        #expect(m.pairs[0].styleUrl == "#line-FF0000-5000-nodesc-normal")
        #expect(p.styles[1].width == 7.5 && p.styles[0].title == "<h3>$[name]</h3>")
    }

    @Test func demoSampleParses() {
        let p = GMUKMLParser(url: UtilsFixtures.root.appendingPathComponent("app/Resources/KML/KML_Sample.kml"))
        p.parse()
        #expect(p.error == nil, "\(p.error.map { "\($0)" } ?? "")")
        #expect(!p.placemarks.isEmpty)
    }
}

@Suite struct KMLErrorTests {
    @Test func unclosedXMLNamesTheLine() {
        let p = parsedKML("<kml>\n<Placemark>\n<name>x</name>\n")
        #expect(p.placemarks.isEmpty)
        let e = try! #require(p.error)
        #expect(e.position.hasPrefix("line "), "\(e)")
        #expect(e.reason == "not well-formed XML (the document ends inside <Placemark>: unclosed element)", "\(e)")
        #expect(parsedKML("").error?.reason == "not well-formed XML (no root element)")
        #expect(parsedKML("  \n").error?.reason == "not well-formed XML (no root element)")
    }

    @Test func badCoordinatesAndColoursNameTheirLine() {
        let p = parsedKML(
            """
            <kml><Placemark>
            <Point><coordinates>1,2</coordinates></Point></Placemark>
            <Placemark><LineString>
            <coordinates>1,2 3,north</coordinates>
            </LineString></Placemark></kml>
            """)
        #expect(p.placemarks.isEmpty, "nothing partial")
        #expect(p.error?.position.hasPrefix("line 4") == true, "\(String(describing: p.error))")
        #expect(p.error?.reason == "coordinate \"3,north\" is not a number")
        let c = parsedKML("<kml><Style id=\"s\"><LineStyle><color>red</color></LineStyle></Style></kml>")
        #expect(c.error?.reason.contains("8 hex digits") == true)
        let short = parsedKML("<kml><Placemark><Point><coordinates>5</coordinates></Point></Placemark></kml>")
        #expect(short.error?.reason.contains("longitude and a latitude") == true)
    }

    /// `1e999` (infinity once read), `inf` and `nan` are not coordinates: the error names the line and the tuple.
    @Test func nonFiniteCoordinatesNameTheirLine() {
        for tuple in ["1e999,2", "1,-1e999", "inf,2", "1,nan", "1.5e400,2,0"] {
            let p = parsedKML(
                "<kml><Placemark>\n<LineString><coordinates>0,0\n\(tuple)</coordinates></LineString></Placemark></kml>")
            #expect(p.placemarks.isEmpty, "\(tuple)")
            #expect(p.error?.position.hasPrefix("line 3") == true, "\(tuple): \(String(describing: p.error))")
            #expect(
                p.error?.reason == "coordinate \"\(tuple)\" is not a finite number", "\(String(describing: p.error))")
        }
        let box = parsedKML(
            "<kml><GroundOverlay><LatLonBox><north>1e999</north><south>0</south><east>1</east><west>0</west>"
                + "</LatLonBox></GroundOverlay></kml>")
        #expect(box.error?.reason == "north \"1e999\" is not a finite number", "\(String(describing: box.error))")
    }

    /// A missing file is one plain sentence naming it, as GeoJSON's is (no NSError dump).
    @Test func unreadableFileIsAPlainSentence() throws {
        let kml = GMUKMLParser(url: URL(fileURLWithPath: "/nonexistent/x.kml"))
        kml.parse()
        let e = try #require(kml.error)
        #expect(e.source == "/nonexistent/x.kml" && e.position == "file" && kml.placemarks.isEmpty)
        #expect(e.reason.hasPrefix("cannot be read: "), "\(e)")
        for dump in ["Domain=", "UserInfo", "NSError", "Code="] {
            #expect(!e.description.contains(dump), "\(e)")
        }
        let geoJSON = GMUGeoJSONParser(url: URL(fileURLWithPath: "/nonexistent/x.kml"))
        geoJSON.parse()
        #expect(e.reason == geoJSON.error?.reason, "the same sentence as GeoJSON's")
    }

    @Test func fillAndOutlineOffAndInlineStyles() {
        let p = parsedKML(
            """
            <kml><Document><Folder><Placemark><name>P</name>
            <Style><PolyStyle><color>7f00ff00</color><fill>0</fill><outline>0</outline></PolyStyle></Style>
            <Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,0</coordinates></LinearRing>
            </outerBoundaryIs></Polygon></Placemark></Folder></Document></kml>
            """)
        #expect(p.error == nil)
        let style = try! #require(p.placemarks.first?.style)
        #expect(!style.hasFill && !style.hasStroke && rgba(style.fillColor) == [0, 255, 0, 127])
        #expect(p.styles.isEmpty, "an inline style belongs to its placemark")
    }

    @Test func textEntitiesCDATAAndUndeclaredPrefixes() throws {
        let p = parsedKML(
            """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name> A &amp; B </name>
            <description><![CDATA[<b>bold</b>]]></description><gx:balloonVisibility>1</gx:balloonVisibility>
            <Point><coordinates>
              -122.0822035425683,37.42228990140251,0
            </coordinates></Point></Placemark></kml>
            """)
        #expect(p.error == nil, "\(String(describing: p.error))")
        let pm = try #require(p.placemarks.first)
        #expect(pm.title == "A & B" && pm.snippet == "<b>bold</b>")
        let point = try #require(pm.geometry as? GMUPoint)
        #expect(point.coordinate.longitude == -122.0822035425683 && point.coordinate.latitude == 37.42228990140251)
    }

    @Test func mismatchedTagsNameTheLine() throws {
        let p = parsedKML("<kml>\n<Placemark>\n<Point></Placemark>\n</kml>")
        let e = try #require(p.error)
        #expect(e.position.hasPrefix("line 3,"), "\(e)")
        #expect(e.reason.contains("not well-formed XML") && e.reason.contains("mismatch"), "\(e)")
    }
}

/// A generated KML of `count` placemarks (points, lines, polygons in turn) after `padding` bytes of comments.
func generatedKML(placemarks count: Int, padding: Int) -> String {
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>\n"
    let comment = "<!-- " + String(repeating: "x", count: 990) + " -->\n"
    text.reserveCapacity(padding + count * 400)
    for _ in 0..<(padding / comment.utf8.count) { text += comment }
    for i in 0..<count {
        let c = "\(Double(i % 360) - 180 + 0.123456),\(Double(i % 170) - 85 + 0.654321),0"
        text += "<Placemark><name>placemark \(i)</name><styleUrl>#s\(i % 10)</styleUrl>"
        switch i % 3 {
        case 0: text += "<Point><coordinates>\(c)</coordinates></Point>"
        case 1:
            text +=
                "<LineString><coordinates>\(Array(repeating: c, count: 8).joined(separator: " "))</coordinates></LineString>"
        default:
            text += "<Polygon><outerBoundaryIs><LinearRing><coordinates>"
            text += Array(repeating: c, count: 13).joined(separator: " ")
            text += "</coordinates></LinearRing></outerBoundaryIs></Polygon>"
        }
        text += "</Placemark>\n"
    }
    return text + "</Document></kml>\n"
}

@Suite struct KMLLargeInputTests {
    /// Foundation's `XMLParser(data:)` gave libxml2 the whole document at once and failed past its 10,000,000-byte
    /// look-up limit ("not well-formed XML" at the end, 0 placemarks). 10.5 MB, nearly all comments, so the test
    /// stays fast.
    @Test func documentsOverTenMillionBytesParse() throws {
        let text = generatedKML(placemarks: 3000, padding: 10_500_000)
        #expect(text.utf8.count > 10_500_000)
        let p = parsedKML(text)
        #expect(p.error == nil, "\(String(describing: p.error))")
        #expect(p.placemarks.count == 3000)
        let last = try #require(p.placemarks.last)
        #expect(last.title == "placemark 2999" && last.styleUrl == "#s9")
        let polygon = try #require(last.geometry as? GMUPolygon)
        #expect(polygon.paths.count == 1 && polygon.paths[0].count() == 13)
        #expect(polygon.paths[0].coordinate(at: 0).longitude == Double(2999 % 360) - 180 + 0.123456)
    }

    /// About 1.4 MB of placemarks, every one read.
    @Test func manyPlacemarksParse() throws {
        let p = parsedKML(generatedKML(placemarks: 6000, padding: 0))
        #expect(p.error == nil, "\(String(describing: p.error))")
        #expect(p.placemarks.count == 6000)
        #expect(p.placemarks.filter { $0.geometry is GMULineString }.count == 2000)
        #expect((p.placemarks[1].geometry as? GMULineString)?.path.count() == 8)
    }
}

/// Relative image hrefs: against the KML file's folder with `init(url:)`, the working directory with `init(data:)`.
@MainActor @Suite(.serialized) struct KMLRelativeHrefTests {
    private static let kml = """
        <kml><Document>
          <Style id="pin"><IconStyle><Icon><href>icons/pin.png</href></Icon></IconStyle></Style>
          <Placemark><styleUrl>#pin</styleUrl><Point><coordinates>8.54,47.37</coordinates></Point></Placemark>
          <GroundOverlay><Icon><href>overlay.png</href></Icon><LatLonBox><north>47.38</north><south>47.36</south>
            <east>8.55</east><west>8.53</west></LatLonBox></GroundOverlay>
        </Document></kml>
        """

    private func image(_ color: UIColor) -> Data? {
        UIGraphicsImageRenderer(size: CGSize(width: 8, height: 8)).image { c in
            c.cgContext.setFillColor(color.cgColor)
            c.cgContext.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
        }.pngData()
    }

    /// The drawn ground overlay and marker of `parser`'s placemarks.
    private func render(_ parser: GMUKMLParser) -> (GMSGroundOverlay?, GMSMarker?) {
        parser.parse()
        let map = GMSMapView.map(
            withFrame: CGRect(x: 0, y: 0, width: 200, height: 200),
            camera: GMSCameraPosition(latitude: 47.37, longitude: 8.54, zoom: 13))
        let renderer = GMUGeometryRenderer(
            map: map, geometries: parser.placemarks, styles: parser.styles, styleMaps: parser.styleMaps)
        renderer.render()
        let overlays = renderer.mapOverlays()
        return (
            overlays.first { $0 is GMSGroundOverlay } as? GMSGroundOverlay,
            overlays.first { $0 is GMSMarker } as? GMSMarker
        )
    }

    @Test func hrefsResolveAgainstTheDocumentsFolder() throws {
        let folder = NSTemporaryDirectory() + "waymark-kml-href-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: folder + "icons", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(image(.red)).write(to: URL(fileURLWithPath: folder + "overlay.png"))
        try #require(image(.blue)).write(to: URL(fileURLWithPath: folder + "icons/pin.png"))
        try Data(Self.kml.utf8).write(to: URL(fileURLWithPath: folder + "doc.kml"))
        #expect(!FileManager.default.fileExists(atPath: "overlay.png"), "the working directory has no overlay.png")

        let parser = GMUKMLParser(url: URL(fileURLWithPath: folder + "doc.kml"))
        let (overlay, marker) = render(parser)
        #expect(parser.error == nil)
        let ground = try #require(parser.placemarks.compactMap { $0.geometry as? GMUGroundOverlay }.first)
        #expect(ground.href == "overlay.png", "the href is kept as written")
        #expect(overlay?.icon != nil, "overlay.png read beside doc.kml")
        #expect(marker?.icon != nil, "icons/pin.png read beside doc.kml")

        // The same document as data has no folder: the working directory (no such files there) is used, as before.
        let (dataOverlay, dataMarker) = render(GMUKMLParser(data: Data(Self.kml.utf8)))
        #expect(dataOverlay != nil && dataOverlay?.icon == nil)
        #expect(dataMarker != nil && dataMarker?.icon == nil)
    }
}
