import GoogleMaps
import LibXMLReader

/// Reads KML 2.2 into placemarks and styles (google-maps-ios-utils' `GMUKMLParser`), with libxml2's SAX reader
/// (through Waymark's `LibXMLReader` adapter; Foundation's `XMLParser` costs several times more per element on Linux
/// and refuses documents over 10,000,000 bytes given as `Data`).
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
/// whole into memory (at most 1 GiB; any size below that parses). A file that cannot be read gives position "file"
/// and the system's plain sentence, as ``GMUGeoJSONParser`` does (`/maps/doc.kml: file: cannot be read: …`).
///
/// Relative image addresses (a GroundOverlay's `Icon/href`, an IconStyle's `Icon/href`) of a document read by
/// ``init(url:)`` are resolved against the document's folder when drawn by ``GMUGeometryRenderer``, as Google Earth
/// and other KML readers do (`overlay.png` beside `/maps/doc.kml` is `/maps/overlay.png`); the hrefs themselves are
/// kept as written. A document given by ``init(data:)`` has no folder: a relative path is then read from the
/// process's working directory.
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
    private let documentURL: URL?

    /// A parser of the file at `url` (read by ``parse()``); relative image hrefs resolve against its folder.
    public init(url: URL) {
        sourceName = url.isFileURL ? url.path : url.absoluteString
        documentURL = url
        data = { try Data(contentsOf: url) }
    }

    /// A parser of `data` (relative image hrefs are read from the working directory).
    public init(data: Data) {
        sourceName = "data"
        documentURL = nil
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
            self.error = GMUParseError(
                source: sourceName, position: "file", reason: "cannot be read: \(error.localizedDescription)")
            return
        }
        guard bytes.count <= GMUGeoJSONParser.maxBytes else {
            error = GMUParseError(source: sourceName, position: "document", reason: "longer than 1 GiB")
            return
        }
        let handler = KMLHandler(source: sourceName, documentURL: documentURL)
        do {
            try bytes.withUnsafeBytes { raw in try XMLEventReader.read(raw, handler: handler) }
        } catch {
            let failure = error as? XMLReadError
            var reason = "not well-formed XML (\(failure?.message ?? "\(error)"))"
            if failure?.code == XMLReadError.documentEndCode {
                // libxml2 words an early end as "Extra content at the end of the document".
                if let open = handler.openElement {
                    reason = "not well-formed XML (the document ends inside <\(open)>: unclosed element)"
                } else if !handler.sawElement {
                    reason = "not well-formed XML (no root element)"
                }
            }
            self.error =
                handler.failure
                ?? GMUParseError(
                    source: sourceName, position: "line \(failure?.line ?? 0), column \(failure?.column ?? 0)",
                    reason: reason)
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
