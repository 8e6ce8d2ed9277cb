import GoogleMaps
import LibXMLReader

/// The SAX handler building the KML objects for ``GMUKMLParser``.
///
/// Lean per event: element names become small strings (no allocation), text is gathered as bytes and decoded only for
/// the elements read, coordinates are read straight from the bytes.
final class KMLHandler: XMLEventHandler {
    let source: String
    /// The document's address, the base of relative image hrefs; nil for data.
    let documentURL: URL?
    var placemarks: [GMUPlacemark] = []
    var styles: [GMUStyle] = []
    var styleMaps: [GMUStyleMap] = []
    var failure: GMUParseError?
    /// Whether any element started.
    @exclusivity(unchecked) private(set) var sawElement = false
    static let maxDepth = 256

    // The state every event touches: not checked for exclusive access at run time (one thread, no overlapping
    // accesses), which costs more than the work per event otherwise.
    /// How deep the current element is.
    @exclusivity(unchecked) private var depth = 0
    /// Elements open now (local names).
    @exclusivity(unchecked) private var stack: [String] = []
    /// The character data since the last start tag.
    @exclusivity(unchecked) private var text: [UInt8] = []

    /// The innermost element still open, or nil.
    var openElement: String? { stack.last }

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

    init(source: String, documentURL: URL? = nil) {
        self.source = source
        self.documentURL = documentURL
        text.reserveCapacity(4096)
    }

    private func fail(_ reader: XMLEventReader, _ reason: String) {
        guard failure == nil else { return }
        failure = GMUParseError(
            source: source, position: "line \(reader.line), column \(reader.column)", reason: reason)
        reader.stop(reason)
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>, reader: XMLEventReader) {
        text.append(contentsOf: bytes)
    }

    func startElement(_ localName: XMLLocalName, attributes: XMLAttributes, reader: XMLEventReader) {
        sawElement = true
        depth += 1
        guard depth <= Self.maxDepth else { return fail(reader, "elements nest deeper than \(Self.maxDepth)") }
        let name = String(decoding: localName, as: UTF8.self)
        stack.append(name)
        text.removeAll(keepingCapacity: true)
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

    /// The text since the last start tag, white space trimmed at both ends.
    private var value: String {
        text.withUnsafeBufferPointer { all in
            var start = 0
            var end = all.count
            while start < end, Self.isSpace(all[start]) { start += 1 }
            while end > start, Self.isSpace(all[end - 1]) { end -= 1 }
            let s = String(decoding: UnsafeBufferPointer(rebasing: all[start..<end]), as: UTF8.self)
            // Non-ASCII white space (rare) at either end: trimmed as Foundation trims it.
            if start < end, all[start] >= 0x80 || all[end - 1] >= 0x80 {
                return s.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return s
        }
    }

    @inline(__always) private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D || b == 0x0B || b == 0x0C
    }

    func endElement(_ localName: XMLLocalName, reader: XMLEventReader) {
        guard failure == nil else { return }
        depth -= 1
        guard let name = stack.popLast() else { return }
        let parent = stack.last ?? ""
        defer { text.removeAll(keepingCapacity: true) }
        switch name {
        case "name" where parent == "Placemark" || parent == "GroundOverlay": placemarkName = value
        case "description" where parent == "Placemark" || parent == "GroundOverlay": placemarkDescription = value
        case "styleUrl" where parent == "Placemark": placemarkStyleUrl = value
        case "styleUrl" where parent == "Pair": pairStyleUrl = value
        case "key" where parent == "Pair": pairKey = value
        case "Pair": pairs.append(GMUPair(key: pairKey, styleUrl: pairStyleUrl))
        case "StyleMap": styleMaps.append(GMUStyleMap(id: styleMapID ?? "", pairs: pairs))
        case "coordinates":
            guard let list = parseCoordinates(reader) else { return }
            pendingCoordinates = list
        case "Point":
            guard let first = pendingCoordinates.first, pendingCoordinates.count == 1 else {
                return fail(reader, "a Point needs exactly one position, found \(pendingCoordinates.count)")
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
            let value = self.value
            guard let v = Double(value) else { return fail(reader, "\(name) \"\(value)\" is not a number") }
            guard v.isFinite else { return fail(reader, "\(name) \"\(value)\" is not a finite number") }
            box[name] = v
        case "drawOrder":
            let value = self.value
            guard let v = Int32(value) else { return fail(reader, "drawOrder \"\(value)\" is not an integer") }
            drawOrder = v
        case "href" where inGroundOverlay && stack.last == "Icon": href = value
        case "href" where stack.contains("IconStyle"): iconUrl = value
        case "GroundOverlay":
            inGroundOverlay = false
            guard let n = box["north"], let s = box["south"], let e = box["east"], let w = box["west"] else {
                return fail(reader, "a GroundOverlay needs LatLonBox north, south, east and west")
            }
            let overlay = GMUGroundOverlay(
                coordinate: CLLocationCoordinate2D(latitude: n, longitude: e),
                southWest: CLLocationCoordinate2D(latitude: s, longitude: w), zIndex: drawOrder,
                rotation: box["rotation"] ?? 0, href: href)
            overlay.documentURL = documentURL
            placemarks.append(
                GMUPlacemark(
                    geometry: overlay, title: placemarkName, snippet: placemarkDescription, style: nil, styleUrl: nil))
        case "color":
            guard let color = parseColor(value, reader) else { return }
            if parent == "LineStyle" { strokeColor = color } else if parent == "PolyStyle" { fillColor = color }
        case "width" where parent == "LineStyle":
            let value = self.value
            guard let v = Double(value) else { return fail(reader, "width \"\(value)\" is not a number") }
            width = v
        case "scale" where parent == "IconStyle":
            let value = self.value
            guard let v = Double(value) else { return fail(reader, "scale \"\(value)\" is not a number") }
            scale = v
        case "heading" where parent == "IconStyle":
            let value = self.value
            guard let v = Double(value) else { return fail(reader, "heading \"\(value)\" is not a number") }
            heading = v
        case "fill" where parent == "PolyStyle":
            let value = self.value
            hasFill = value != "0" && value != "false"
        case "outline" where parent == "PolyStyle":
            let value = self.value
            hasStroke = value != "0" && value != "false"
        case "text" where parent == "BalloonStyle": balloonText = value
        case "Style":
            let style = GMUStyle(
                styleID: styleID ?? "", stroke: strokeColor, fill: fillColor, width: width, scale: scale,
                heading: heading, anchor: anchor, iconUrl: iconUrl, title: balloonText, hasFill: hasFill,
                hasStroke: hasStroke)
            style.documentURL = documentURL
            if inPlacemark { placemarkStyle = style } else { styles.append(style) }
        default: break
        }
    }

    private func addGeometry(_ g: any GMUGeometry) {
        if geometryLists.isEmpty { geometryLists = [[]] }
        geometryLists[geometryLists.count - 1].append(g)
    }

    /// The text as "lng,lat[,alt]" tuples separated by white space, read from the bytes.
    private func parseCoordinates(_ reader: XMLEventReader) -> [CLLocationCoordinate2D]? {
        var result: [CLLocationCoordinate2D] = []
        var problem: String?
        text.withUnsafeBufferPointer { all in
            let n = all.count
            var i = 0
            while i < n {
                while i < n, Self.isTupleSeparator(all[i]) { i += 1 }
                guard i < n else { break }
                let start = i
                while i < n, !Self.isTupleSeparator(all[i]) { i += 1 }
                let tuple = UnsafeBufferPointer(rebasing: all[start..<i])
                // The first two comma-separated parts.
                var comma1 = -1
                var comma2 = tuple.count
                for k in 0..<tuple.count where tuple[k] == UInt8(ascii: ",") {
                    if comma1 < 0 {
                        comma1 = k
                    } else {
                        comma2 = k
                        break
                    }
                }
                guard comma1 >= 0 else {
                    problem = "position \"\(Self.prefix(tuple))\" needs a longitude and a latitude"
                    return
                }
                guard let lng = DecimalText.double(UnsafeBufferPointer(rebasing: tuple[0..<comma1])),
                    let lat = DecimalText.double(UnsafeBufferPointer(rebasing: tuple[(comma1 + 1)..<comma2]))
                else {
                    problem = "coordinate \"\(Self.prefix(tuple))\" is not a number"
                    return
                }
                guard lng.isFinite, lat.isFinite else {
                    problem = "coordinate \"\(Self.prefix(tuple))\" is not a finite number"
                    return
                }
                result.append(CLLocationCoordinate2D(latitude: lat, longitude: lng))
            }
        }
        if let problem {
            fail(reader, problem)
            return nil
        }
        return result
    }

    @inline(__always) private static func isTupleSeparator(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D
    }

    /// At most 40 characters of `bytes`, for messages.
    private static func prefix(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(String(decoding: bytes, as: UTF8.self).prefix(40))
    }

    /// `aabbggrr` hex.
    private func parseColor(_ value: String, _ reader: XMLEventReader) -> UIColor? {
        let hex = value.hasPrefix("#") ? String(value.dropFirst()) : value
        guard hex.count == 8, let v = UInt32(hex, radix: 16) else {
            fail(reader, "color \"\(value.prefix(20))\" is not 8 hex digits (aabbggrr)")
            return nil
        }
        return UIColor(
            red: CGFloat(v & 0xff) / 255, green: CGFloat((v >> 8) & 0xff) / 255, blue: CGFloat((v >> 16) & 0xff) / 255,
            alpha: CGFloat(v >> 24) / 255)
    }
}
