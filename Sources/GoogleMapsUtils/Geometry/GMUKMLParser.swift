import GoogleMaps

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads KML 2.2 into placemarks and styles (google-maps-ios-utils' `GMUKMLParser`), with Foundation's XMLParser
/// (libxml2 underneath).
///
/// Read: Placemark (`name` → title, `description` → snippet, `styleUrl`, an inline Style) with Point, LineString,
/// LinearRing (a line), Polygon (`outerBoundaryIs` then each `innerBoundaryIs` as holes) or MultiGeometry (nested);
/// GroundOverlay (`Icon/href`, `LatLonBox` north/south/east/west/rotation, `drawOrder` → zIndex) as a placemark of a
/// ``GMUGroundOverlay``; Style (IconStyle scale/heading/hotSpot/Icon href, LineStyle color/width, PolyStyle
/// color/fill/outline, BalloonStyle text → title) and StyleMap (Pairs of key and styleUrl). Colours are `aabbggrr`
/// hex. A hotSpot's fraction y counts from the icon's bottom (KML), so the anchor is (x, 1 − y). Other elements
/// (Folder and Document are walked into; ExtendedData, as in Google's parser, is not read) are ignored.
///
/// Errors (Waymark's own ``error``), each with its line and column: XML that is not well-formed (unclosed elements,
/// bad characters), a coordinate that is not a number, a position with fewer than two numbers, a colour that is not
/// 8 hex digits. On any error the results stay empty. Limits: elements nest at most 256 deep; the document is read
/// whole into memory (at most 1 GiB).
/// - Thread rules: one thread at a time (any thread).
public final class GMUKMLParser {
    /// The placemarks (and ground overlays) read by ``parse()``.
    public private(set) var placemarks: [GMUPlacemark] = []
    /// The Styles read by ``parse()``.
    public private(set) var styles: [GMUStyle] = []
    /// The StyleMaps read by ``parse()``.
    public private(set) var styleMaps: [GMUStyleMap] = []
    /// Why the last ``parse()`` failed, or nil (Waymark's own).
    public private(set) var error: GMUParseError?

    private let data: () throws -> Data
    private let sourceName: String

    /// A parser of the file at `url` (read by ``parse()``).
    public init(url: URL) {
        sourceName = url.isFileURL ? url.path : url.absoluteString
        data = { try Data(contentsOf: url) }
    }

    /// A parser of `data`.
    public init(data: Data) {
        sourceName = "data"
        self.data = { data }
    }

    /// Reads the document; on failure the results are empty and ``error`` says why.
    public func parse() {
        placemarks = []
        styles = []
        styleMaps = []
        error = nil
        let bytes: Data
        do {
            bytes = try data()
        } catch {
            self.error = GMUParseError(source: sourceName, position: "file", reason: "cannot be read: \(error)")
            return
        }
        guard bytes.count <= GMUGeoJSONParser.maxBytes else {
            error = GMUParseError(source: sourceName, position: "document", reason: "longer than 1 GiB")
            return
        }
        let handler = KMLHandler(source: sourceName)
        let parser = XMLParser(data: bytes)
        parser.delegate = handler
        let ok = parser.parse()
        if let failure = handler.failure {
            error = failure
        } else if !ok || parser.parserError != nil {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "not well-formed XML"
            error = GMUParseError(
                source: sourceName, position: "line \(parser.lineNumber), column \(parser.columnNumber)",
                reason: "not well-formed XML (\(reason))")
        } else if handler.depth != 0 {
            error = GMUParseError(
                source: sourceName, position: "line \(parser.lineNumber), column \(parser.columnNumber)",
                reason: "unclosed element")
        }
        if let error {
            GMSLogUtils.warning(error.description)
            return
        }
        placemarks = handler.placemarks
        styles = handler.styles
        styleMaps = handler.styleMaps
    }
}

/// The XMLParser delegate building the KML objects.
private final class KMLHandler: NSObject, XMLParserDelegate {
    let source: String
    var placemarks: [GMUPlacemark] = []
    var styles: [GMUStyle] = []
    var styleMaps: [GMUStyleMap] = []
    var failure: GMUParseError?
    var depth = 0
    static let maxDepth = 256

    /// Elements open now (names).
    private var stack: [String] = []
    private var text = ""

    // The placemark being read.
    private var inPlacemark = false
    private var placemarkName: String?
    private var placemarkDescription: String?
    private var placemarkStyleUrl: String?
    private var placemarkStyle: GMUStyle?
    /// Geometries being built: each MultiGeometry opens a list.
    private var geometryLists: [[any GMUGeometry]] = []
    private var rings: [GMSPath] = []
    private var pendingCoordinates: [CLLocationCoordinate2D] = []

    // A ground overlay being read.
    private var inGroundOverlay = false
    private var box: [String: Double] = [:]
    private var drawOrder: Int32 = 0
    private var href = ""

    // A style being read.
    private var styleID: String?
    private var strokeColor: UIColor?
    private var fillColor: UIColor?
    private var width: CGFloat = 1
    private var scale: CGFloat = 1
    private var heading: CGFloat = 0
    private var anchor = CGPoint(x: 0.5, y: 1)
    private var iconUrl: String?
    private var balloonText: String?
    private var hasFill = true
    private var hasStroke = true

    // A style map being read.
    private var styleMapID: String?
    private var pairs: [GMUPair] = []
    private var pairKey = ""
    private var pairStyleUrl = ""

    init(source: String) { self.source = source }

    private func fail(_ parser: XMLParser, _ reason: String) {
        guard failure == nil else { return }
        failure = GMUParseError(
            source: source, position: "line \(parser.lineNumber), column \(parser.columnNumber)", reason: reason)
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        guard depth <= Self.maxDepth else { return fail(parser, "elements nest deeper than \(Self.maxDepth)") }
        let name = Self.local(elementName)
        stack.append(name)
        text = ""
        switch name {
        case "Placemark":
            inPlacemark = true
            placemarkName = nil
            placemarkDescription = nil
            placemarkStyleUrl = nil
            placemarkStyle = nil
            geometryLists = [[]]
        case "GroundOverlay":
            inGroundOverlay = true
            placemarkName = nil
            placemarkDescription = nil
            box = [:]
            drawOrder = 0
            href = ""
        case "MultiGeometry":
            geometryLists.append([])
        case "Polygon":
            rings = []
        case "Point", "LineString", "LinearRing":
            pendingCoordinates = []
        case "Style":
            styleID = attributes["id"] ?? ""
            strokeColor = nil
            fillColor = nil
            width = 1
            scale = 1
            heading = 0
            anchor = CGPoint(x: 0.5, y: 1)
            iconUrl = nil
            balloonText = nil
            hasFill = true
            hasStroke = true
        case "hotSpot":
            let x = Double(attributes["x"] ?? "0.5") ?? 0.5
            let y = Double(attributes["y"] ?? "1") ?? 1
            if attributes["xunits"] ?? "fraction" == "fraction", attributes["yunits"] ?? "fraction" == "fraction" {
                anchor = CGPoint(x: x, y: 1 - y)
            }
        case "StyleMap":
            styleMapID = attributes["id"] ?? ""
            pairs = []
        case "Pair":
            pairKey = ""
            pairStyleUrl = ""
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil else { return }
        let name = Self.local(elementName)
        depth -= 1
        _ = stack.popLast()
        let parent = stack.last ?? ""
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        text = ""
        switch name {
        case "name" where parent == "Placemark" || parent == "GroundOverlay": placemarkName = value
        case "description" where parent == "Placemark" || parent == "GroundOverlay": placemarkDescription = value
        case "styleUrl" where parent == "Placemark": placemarkStyleUrl = value
        case "styleUrl" where parent == "Pair": pairStyleUrl = value
        case "key" where parent == "Pair": pairKey = value
        case "Pair": pairs.append(GMUPair(key: pairKey, styleUrl: pairStyleUrl))
        case "StyleMap": styleMaps.append(GMUStyleMap(id: styleMapID ?? "", pairs: pairs))
        case "coordinates":
            guard let list = parseCoordinates(value, parser) else { return }
            pendingCoordinates = list
        case "Point":
            guard let first = pendingCoordinates.first, pendingCoordinates.count == 1 else {
                return fail(parser, "a Point needs exactly one position, found \(pendingCoordinates.count)")
            }
            addGeometry(GMUPoint(coordinate: first))
        case "LineString", "LinearRing":
            let path = GMSMutablePath()
            for c in pendingCoordinates { path.add(c) }
            if stack.contains("Polygon") {
                rings.append(path)
            } else {
                addGeometry(GMULineString(path: path))
            }
        case "Polygon":
            addGeometry(GMUPolygon(paths: rings))
        case "MultiGeometry":
            let list = geometryLists.popLast() ?? []
            addGeometry(GMUGeometryCollection(geometries: list))
        case "Placemark":
            inPlacemark = false
            guard let geometry = geometryLists.first?.first else { return }  // a placemark without geometry
            let g = geometryLists[0].count == 1 ? geometry : GMUGeometryCollection(geometries: geometryLists[0])
            placemarks.append(
                GMUPlacemark(
                    geometry: g, title: placemarkName, snippet: placemarkDescription, style: placemarkStyle,
                    styleUrl: placemarkStyleUrl))
        case "north", "south", "east", "west", "rotation":
            guard parent == "LatLonBox" else { break }
            guard let v = Double(value) else { return fail(parser, "\(name) \"\(value)\" is not a number") }
            box[name] = v
        case "drawOrder":
            guard let v = Int32(value) else { return fail(parser, "drawOrder \"\(value)\" is not an integer") }
            drawOrder = v
        case "href" where inGroundOverlay && stack.last == "Icon": href = value
        case "href" where stack.contains("IconStyle"): iconUrl = value
        case "GroundOverlay":
            inGroundOverlay = false
            guard let n = box["north"], let s = box["south"], let e = box["east"], let w = box["west"] else {
                return fail(parser, "a GroundOverlay needs LatLonBox north, south, east and west")
            }
            let overlay = GMUGroundOverlay(
                coordinate: CLLocationCoordinate2D(latitude: n, longitude: e),
                southWest: CLLocationCoordinate2D(latitude: s, longitude: w), zIndex: drawOrder,
                rotation: box["rotation"] ?? 0, href: href)
            placemarks.append(
                GMUPlacemark(
                    geometry: overlay, title: placemarkName, snippet: placemarkDescription, style: nil, styleUrl: nil))
        case "color":
            guard let color = parseColor(value, parser) else { return }
            if parent == "LineStyle" { strokeColor = color } else if parent == "PolyStyle" { fillColor = color }
        case "width" where parent == "LineStyle":
            guard let v = Double(value) else { return fail(parser, "width \"\(value)\" is not a number") }
            width = v
        case "scale" where parent == "IconStyle":
            guard let v = Double(value) else { return fail(parser, "scale \"\(value)\" is not a number") }
            scale = v
        case "heading" where parent == "IconStyle":
            guard let v = Double(value) else { return fail(parser, "heading \"\(value)\" is not a number") }
            heading = v
        case "fill" where parent == "PolyStyle": hasFill = value != "0" && value != "false"
        case "outline" where parent == "PolyStyle": hasStroke = value != "0" && value != "false"
        case "text" where parent == "BalloonStyle": balloonText = value
        case "Style":
            let style = GMUStyle(
                styleID: styleID ?? "", stroke: strokeColor, fill: fillColor, width: width, scale: scale,
                heading: heading, anchor: anchor, iconUrl: iconUrl, title: balloonText, hasFill: hasFill,
                hasStroke: hasStroke)
            if inPlacemark { placemarkStyle = style } else { styles.append(style) }
        default: break
        }
    }

    private func addGeometry(_ g: any GMUGeometry) {
        if geometryLists.isEmpty { geometryLists = [[]] }
        geometryLists[geometryLists.count - 1].append(g)
    }

    /// "lng,lat[,alt]" tuples separated by white space.
    private func parseCoordinates(_ value: String, _ parser: XMLParser) -> [CLLocationCoordinate2D]? {
        var result: [CLLocationCoordinate2D] = []
        for tuple in value.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }) {
            let parts = tuple.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count >= 2 else {
                fail(parser, "position \"\(tuple.prefix(40))\" needs a longitude and a latitude")
                return nil
            }
            guard let lng = Double(parts[0]), let lat = Double(parts[1]) else {
                fail(parser, "coordinate \"\(tuple.prefix(40))\" is not a number")
                return nil
            }
            result.append(CLLocationCoordinate2D(latitude: lat, longitude: lng))
        }
        return result
    }

    /// `aabbggrr` hex.
    private func parseColor(_ value: String, _ parser: XMLParser) -> UIColor? {
        let hex = value.hasPrefix("#") ? String(value.dropFirst()) : value
        guard hex.count == 8, let v = UInt32(hex, radix: 16) else {
            fail(parser, "color \"\(value.prefix(20))\" is not 8 hex digits (aabbggrr)")
            return nil
        }
        return UIColor(
            red: CGFloat(v & 0xff) / 255, green: CGFloat((v >> 8) & 0xff) / 255, blue: CGFloat((v >> 16) & 0xff) / 255,
            alpha: CGFloat(v >> 24) / 255)
    }

    /// The name without a namespace prefix.
    private static func local(_ name: String) -> String {
        if let colon = name.lastIndex(of: ":") { return String(name[name.index(after: colon)...]) }
        return name
    }
}
