import Foundation
import MapDrawing
import MapGeometry
import MapStyle

/// A refused Static Maps request: the HTTP status and a plain-text reason naming the parameter, as Google's server
/// answers (`400 Bad Request` for a malformed parameter, `403 Forbidden` for a key or signature, `414` for a URL
/// over the limit). Waymark's own.
public struct StaticMapError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status, `400…499` (`503` and `504` are the server's, not the parser's).
    public var status: Int
    /// The parameter at fault (`size`, `markers`, …), or `nil` for the request as a whole.
    public var parameter: String?
    /// The reason, one line, naming the parameter and the offending value.
    public var message: String

    /// Creates an error; `status` defaults to 400.
    public init(status: Int = 400, parameter: String?, message: String) {
        self.status = status
        self.parameter = parameter
        self.message = message
    }

    /// `"Invalid request. <message>"`: the body of the plain-text answer.
    public var description: String { "Invalid request. \(message)" }

    static func bad(_ parameter: String, _ message: String) -> StaticMapError {
        StaticMapError(parameter: parameter, message: "Invalid '\(parameter)' parameter: \(message)")
    }
}

/// The limits a server puts on one request (Waymark's own; every field configurable, the defaults safe on a public
/// network).
public struct StaticMapLimits: Sendable, Equatable {
    /// Largest `size` width and height, in points (`1…`). Default 2048, Google's premium limit.
    public var maxSize: Int = 2048
    /// Largest output image area in device pixels (`width × height × scale²`). Default 4 194 304 (2048 × 2048).
    public var maxPixels: Int = 2048 * 2048
    /// Longest request URL (path and query), in bytes. Default 8192, as Google.
    public var maxURLLength: Int = 8192
    /// Most marker locations over all `markers` parameters. Default 256.
    public var maxMarkers: Int = 256
    /// Most path points (after decoding `enc:` polylines) over all `path` parameters. Default 10 000.
    public var maxPathPoints: Int = 10_000
    /// Most `style` parameters. Default 64.
    public var maxStyles: Int = 64

    /// The defaults.
    public init() {}
}

/// A place in a Static Maps request: coordinates, or a place name for the geocoder.
public enum StaticMapLocation: Sendable, Hashable {
    /// `lat,lng` in degrees.
    case coordinate(LatLng)
    /// A place name or address (`Berkeley,CA`), resolved by the server's geocoder.
    case place(String)

    /// Parses `lat,lng` (two finite numbers, latitude in −90…90, longitude in −180…180) as coordinates and anything
    /// else non-empty as a place name; `nil` for an empty string or out-of-range numbers.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let lng = Double(parts[1].trimmingCharacters(in: .whitespaces))
        {
            guard lat.isFinite, lng.isFinite, abs(lat) <= 90, abs(lng) <= 180 else { return nil }
            self = .coordinate(LatLng(latitude: lat, longitude: lng))
        } else {
            self = .place(trimmed)
        }
    }
}

/// The image formats of Google's `format` parameter and what Waymark writes for each (CairoGraphics: Cairo's PNG
/// writer and gdk-pixbuf's JPEG writer; Debian's gdk-pixbuf has no GIF or palette-PNG writer).
public enum StaticMapFormat: String, Sendable, CaseIterable {
    /// `png` (Google: 8-bit palette PNG): written as 32-bit RGBA PNG.
    case png
    /// `png8`: written as 32-bit RGBA PNG.
    case png8
    /// `png32`: 32-bit RGBA PNG.
    case png32
    /// `gif`: written as 32-bit RGBA PNG with `Content-Type: image/png` (no GIF encoder in the Debian libraries).
    case gif
    /// `jpg` (Google: progressive JPEG): baseline JPEG, quality 85.
    case jpg
    /// `jpg-baseline`: baseline JPEG, quality 85.
    case jpgBaseline = "jpg-baseline"

    /// Whether the image is written as JPEG (else PNG).
    public var isJPEG: Bool { self == .jpg || self == .jpgBaseline }
    /// The `Content-Type` of the bytes written.
    public var contentType: String { isJPEG ? "image/jpeg" : "image/png" }
    /// The file extension of the bytes written.
    public var fileExtension: String { isJPEG ? "jpg" : "png" }
}

/// Google's `maptype`.
public enum StaticMapType: String, Sendable, CaseIterable {
    /// The road map (the default).
    case roadmap
    /// Imagery; drawn from the style the server configures for it (by default the road map).
    case satellite
    /// Relief; drawn from the style the server configures for it (by default the road map).
    case terrain
    /// Imagery with roads and labels; drawn from the style the server configures for it (by default the road map).
    case hybrid
}

/// A colour parameter: `0xRRGGBB`, `0xRRGGBBAA`, or one of Google's names (black, brown, green, purple, yellow,
/// blue, gray, orange, red, white).
public enum StaticMapColor {
    /// Google's named colours.
    public static let named: [String: UInt32] = [
        "black": 0x000000, "brown": 0x8B4513, "green": 0x00A000, "purple": 0x800080, "yellow": 0xFFD700,
        "blue": 0x0000FF, "gray": 0x808080, "grey": 0x808080, "orange": 0xFF8C00, "red": 0xEA4335, "white": 0xFFFFFF,
    ]

    /// Parses a colour value; `nil` when it is neither hex (6 or 8 digits after `0x`) nor a name.
    public static func parse(_ text: String) -> RGBAColor? {
        let t = text.lowercased()
        if let rgb = named[t] { return RGBAColor(rgb: rgb) }
        guard t.hasPrefix("0x") else { return nil }
        let hex = t.dropFirst(2)
        guard hex.count == 6 || hex.count == 8, let v = UInt32(hex, radix: 16) else { return nil }
        if hex.count == 6 { return RGBAColor(rgb: v) }
        return RGBAColor(rgb: v >> 8, alpha: Double(v & 0xFF) / 255)
    }
}

/// Where a custom icon's image sits on its location (`anchor`): a point in the icon's pixels, or a named side.
public enum StaticIconAnchor: Sendable, Hashable {
    /// A pixel of the icon image (x right, y down from its top-left corner).
    case point(x: Double, y: Double)
    /// A named anchor as a fraction of the icon's size (`top` is (0.5, 0), `bottomright` (1, 1), …).
    case fraction(x: Double, y: Double)

    /// Google's named anchors.
    static let names: [String: (Double, Double)] = [
        "top": (0.5, 0), "bottom": (0.5, 1), "left": (0, 0.5), "right": (1, 0.5), "center": (0.5, 0.5),
        "topleft": (0, 0), "topright": (1, 0), "bottomleft": (0, 1), "bottomright": (1, 1),
    ]
}

/// One `markers` parameter: a style and its locations.
public struct StaticMarkers: Sendable, Hashable {
    /// Google's marker sizes.
    public enum Size: String, Sendable, Hashable {
        /// The default pin (draws a label).
        case normal
        /// A smaller pin (draws a label).
        case mid
        /// A small pin (no label).
        case small
        /// A tiny pin (no label).
        case tiny
    }
    /// `size`. Default `.normal`.
    public var size: Size = .normal
    /// `color` (alpha ignored, as Google). Default red.
    public var color: RGBAColor = RGBAColor(rgb: 0xEA4335)
    /// `label`: one character of A–Z, 0–9; drawn on normal and mid pins.
    public var label: Character?
    /// `icon`: a custom icon URL (fetched only from the server's configured hosts).
    public var icon: String?
    /// `anchor` of the custom icon. Default bottom centre.
    public var anchor: StaticIconAnchor = .fraction(x: 0.5, y: 1)
    /// `scale` of the custom icon's image (its pixels per point): 1, 2 or 4. Default 1.
    public var scale: Int = 1
    /// The marker locations, in order.
    public var locations: [StaticMapLocation] = []

    /// A marker group with the defaults and no locations.
    public init() {}
}

/// One `path` parameter: a style and its points.
public struct StaticPath: Sendable, Hashable {
    /// `weight` in points. Default 5.
    public var weight: Double = 5
    /// `color`. Default blue at half opacity (`0x0000FF80`).
    public var color: RGBAColor = RGBAColor(rgb: 0x0000FF, alpha: 0.5)
    /// `fillcolor`: the path is a closed area filled with this colour; `nil` for a line.
    public var fillColor: RGBAColor?
    /// `geodesic`: segments follow great circles. Default false (straight on the map).
    public var geodesic = false
    /// The points, `enc:` polylines already decoded.
    public var points: [StaticMapLocation] = []

    /// A path with the defaults and no points.
    public init() {}
}

/// A parsed Static Maps request (`/maps/api/staticmap?…`), parameter for parameter as Google's documentation defines
/// them. Waymark's own type; parse with ``parse(_:limits:)``.
public struct StaticMapRequest: Sendable {
    /// `center`; `nil` to fit the markers, paths and `visible`.
    public var center: StaticMapLocation?
    /// `zoom`, an integer 0…22 (Google's 256-point tiles); `nil` to fit.
    public var zoom: Int?
    /// `size` width in points, `1…maxSize`.
    public var width = 0
    /// `size` height in points, `1…maxSize`.
    public var height = 0
    /// `scale`: device pixels per point, 1, 2 or 4. Default 1.
    public var scale = 1
    /// `format`. Default `png`.
    public var format: StaticMapFormat = .png
    /// `maptype`. Default `roadmap`.
    public var mapType: StaticMapType = .roadmap
    /// `language`: labels drawn in this language where the data has names in it (the style's text read through
    /// `MapStyle`'s `Style.localizingLabels(to:)`: `name:sv`, then `name_sv`, then the name the style reads);
    /// `nil` for the data's own names.
    public var language: LabelLanguage?
    /// `region`: a two-letter country code top-level domain (`fi`, `es`, `uk`), lower case, that place names in
    /// `center`, `markers`, `path` and `visible` are looked up in first (``regionCountryCode``); `nil` for none.
    /// The bundled data has one set of borders, so the map itself does not change.
    public var region: String?

    /// The ISO 3166-1 alpha-2 country code of ``region``, upper case: the ccTLD itself but `uk` → `GB` (Google's
    /// example), or `nil` without a region.
    public var regionCountryCode: String? {
        guard let region else { return nil }
        return region == "uk" ? "GB" : region.uppercased()
    }
    /// `map_id`: a style id of the server's configuration.
    public var mapID: String?
    /// `visible` locations, all kept in view when fitting.
    public var visible: [StaticMapLocation] = []
    /// `markers`, in order.
    public var markers: [StaticMarkers] = []
    /// `path`s, in order.
    public var paths: [StaticPath] = []
    /// `style` parameters parsed as Google's styling rules, or `nil` without any.
    public var style: GoogleMapStyle?
    /// `key`.
    public var key: String?
    /// `signature`.
    public var signature: String?

    /// A request with Google's defaults, no size and no content (``parse(_:limits:)`` is the usual way to make one).
    public init() {}

    /// The output image's pixel size.
    public var pixelWidth: Int { width * scale }
    /// The output image's pixel height.
    public var pixelHeight: Int { height * scale }

    /// Every location of the request (center, visible, markers, paths).
    public var allLocations: [StaticMapLocation] {
        var all: [StaticMapLocation] = center.map { [$0] } ?? []
        all += visible
        for m in markers { all += m.locations }
        for p in paths { all += p.points }
        return all
    }

    /// Parses Google's parameters. Unknown parameters are ignored, as Google ignores them.
    /// - Throws: ``StaticMapError`` (400) naming the first bad or missing parameter, or over `limits`.
    public static func parse(_ query: StaticMapQuery, limits: StaticMapLimits = StaticMapLimits())
        throws(StaticMapError)
        -> StaticMapRequest
    {
        var r = StaticMapRequest()
        if let c = query.value("center") {
            guard let location = StaticMapLocation(c) else {
                throw .bad("center", "'\(c)' is neither LAT,LNG in range nor a place name")
            }
            r.center = location
        }
        if let z = query.value("zoom") {
            guard let zoom = Int(z), (0...22).contains(zoom) else {
                throw .bad("zoom", "must be an integer 0…22, got '\(z)'")
            }
            r.zoom = zoom
        }
        guard let size = query.value("size") else {
            throw StaticMapError(parameter: "size", message: "Missing the 'size' parameter.")
        }
        let sides = size.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let w = Int(sides[0]), let h = Int(sides[1]), w >= 1, h >= 1 else {
            throw .bad("size", "must be {width}x{height} in points, got '\(size)'")
        }
        guard w <= limits.maxSize, h <= limits.maxSize else {
            throw .bad("size", "each side must be at most \(limits.maxSize), got '\(size)'")
        }
        r.width = w
        r.height = h
        if let s = query.value("scale") {
            guard let scale = Int(s), [1, 2, 4].contains(scale) else {
                throw .bad("scale", "must be 1, 2 or 4, got '\(s)'")
            }
            r.scale = scale
        }
        guard r.pixelWidth * r.pixelHeight <= limits.maxPixels else {
            throw .bad(
                "size",
                "\(r.pixelWidth)x\(r.pixelHeight) pixels at scale \(r.scale) is over the server's "
                    + "\(limits.maxPixels)-pixel limit")
        }
        if let f = query.value("format") {
            guard let format = StaticMapFormat(rawValue: f.lowercased()) else {
                throw .bad("format", "must be png, png8, png32, gif, jpg or jpg-baseline, got '\(f)'")
            }
            r.format = format
        }
        if let t = query.value("maptype") {
            guard let type = StaticMapType(rawValue: t.lowercased()) else {
                throw .bad("maptype", "must be roadmap, satellite, terrain or hybrid, got '\(t)'")
            }
            r.mapType = type
        }
        if let l = query.value("language") {
            guard let language = LabelLanguage(l) else {
                throw .bad("language", "must be a language code such as en, sv, ja or zh-CN, got '\(l)'")
            }
            r.language = language
        }
        if let g = query.value("region") {
            guard g.count == 2, g.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw .bad("region", "must be a two-letter country code top-level domain such as fi or es, got '\(g)'")
            }
            r.region = g.lowercased()
        }
        r.mapID = query.value("map_id")
        r.key = query.value("key")
        r.signature = query.value("signature")
        for v in query.values("visible") {
            for item in v.split(separator: "|", omittingEmptySubsequences: true) {
                guard let location = StaticMapLocation(String(item)) else {
                    throw .bad("visible", "'\(item)' is neither LAT,LNG in range nor a place name")
                }
                r.visible.append(location)
            }
        }
        var markerCount = 0
        for v in query.values("markers") {
            let m = try parseMarkers(v)
            markerCount += m.locations.count
            guard markerCount <= limits.maxMarkers else {
                throw .bad("markers", "more than the server's limit of \(limits.maxMarkers) marker locations")
            }
            r.markers.append(m)
        }
        var pointCount = 0
        for v in query.values("path") {
            let p = try parsePath(v)
            pointCount += p.points.count
            guard pointCount <= limits.maxPathPoints else {
                throw .bad("path", "more than the server's limit of \(limits.maxPathPoints) path points")
            }
            r.paths.append(p)
        }
        let styles = query.values("style")
        guard styles.count <= limits.maxStyles else {
            throw .bad("style", "more than the server's limit of \(limits.maxStyles) style parameters")
        }
        if !styles.isEmpty {
            do { r.style = try GoogleMapStyle(staticMapsStyles: styles) } catch {
                throw .bad("style", error.message)
            }
        }
        if r.center == nil || r.zoom == nil, r.markers.allSatisfy(\.locations.isEmpty),
            r.paths.allSatisfy(\.points.isEmpty), r.visible.isEmpty
        {
            let missing = r.center == nil ? "center" : "zoom"
            throw StaticMapError(
                parameter: missing,
                message: "Missing the '\(missing)' parameter (needed when there are no markers, paths or visible).")
        }
        return r
    }

    /// Parses one `markers` value: `style|style|location|location…`.
    static func parseMarkers(_ value: String) throws(StaticMapError) -> StaticMarkers {
        var m = StaticMarkers()
        for item in value.split(separator: "|", omittingEmptySubsequences: true).map(String.init) {
            if let colon = item.firstIndex(of: ":") {
                let key = item[..<colon].lowercased()
                let v = String(item[item.index(after: colon)...])
                switch key {
                case "size":
                    guard let s = StaticMarkers.Size(rawValue: v.lowercased()) else {
                        throw .bad("markers", "size must be tiny, mid, small or normal, got '\(v)'")
                    }
                    m.size = s
                    continue
                case "color":
                    guard let c = StaticMapColor.parse(v) else {
                        throw .bad("markers", "color must be 0xRRGGBB or a colour name, got '\(v)'")
                    }
                    m.color = RGBAColor(red: c.red, green: c.green, blue: c.blue)
                    continue
                case "label":
                    guard v.count == 1, let ch = v.uppercased().first, ch.isASCII, ch.isLetter || ch.isNumber else {
                        throw .bad("markers", "label must be one character of A-Z or 0-9, got '\(v)'")
                    }
                    m.label = ch
                    continue
                case "icon":
                    guard v.hasPrefix("http://") || v.hasPrefix("https://") else {
                        throw .bad("markers", "icon must be an http(s) URL, got '\(v)'")
                    }
                    m.icon = v
                    continue
                case "anchor":
                    let lower = v.lowercased()
                    if let named = StaticIconAnchor.names[lower] {
                        m.anchor = .fraction(x: named.0, y: named.1)
                    } else {
                        let xy = lower.split(separator: ",")
                        guard xy.count == 2, let x = Double(xy[0]), let y = Double(xy[1]), x.isFinite, y.isFinite
                        else { throw .bad("markers", "anchor must be X,Y pixels or a side name, got '\(v)'") }
                        m.anchor = .point(x: x, y: y)
                    }
                    continue
                case "scale":
                    guard let s = Int(v), [1, 2, 4].contains(s) else {
                        throw .bad("markers", "scale must be 1, 2 or 4, got '\(v)'")
                    }
                    m.scale = s
                    continue
                case "shadow":
                    // Google's legacy (v2) option, accepted and ignored by Google's current API.
                    continue
                default: break
                }
            }
            guard let location = StaticMapLocation(item) else {
                throw .bad("markers", "'\(item)' is neither a style nor LAT,LNG in range nor a place name")
            }
            m.locations.append(location)
        }
        return m
    }

    /// Parses one `path` value: `style|style|point|point…` or `style|enc:POLYLINE`.
    static func parsePath(_ value: String) throws(StaticMapError) -> StaticPath {
        var p = StaticPath()
        // `enc:` runs to the end of the value: an encoded polyline may itself contain `|`.
        var value = Substring(value)
        var encoded: Substring?
        if value.hasPrefix("enc:") {
            encoded = value.dropFirst(4)
            value = ""
        } else if let range = value.range(of: "|enc:") {
            encoded = value[range.upperBound...]
            value = value[..<range.lowerBound]
        }
        for item in value.split(separator: "|", omittingEmptySubsequences: true).map(String.init) {
            if let colon = item.firstIndex(of: ":") {
                let key = item[..<colon].lowercased()
                let v = String(item[item.index(after: colon)...])
                switch key {
                case "weight":
                    guard let w = Double(v), w.isFinite, w >= 0, w <= 100 else {
                        throw .bad("path", "weight must be a number 0…100, got '\(v)'")
                    }
                    p.weight = w
                    continue
                case "color":
                    guard let c = StaticMapColor.parse(v) else {
                        throw .bad("path", "color must be 0xRRGGBB[AA] or a colour name, got '\(v)'")
                    }
                    p.color = c
                    continue
                case "fillcolor":
                    guard let c = StaticMapColor.parse(v) else {
                        throw .bad("path", "fillcolor must be 0xRRGGBB[AA] or a colour name, got '\(v)'")
                    }
                    p.fillColor = c
                    continue
                case "geodesic":
                    guard let g = Bool(v.lowercased()) else {
                        throw .bad("path", "geodesic must be true or false, got '\(v)'")
                    }
                    p.geodesic = g
                    continue
                default: break
                }
            }
            guard let location = StaticMapLocation(item) else {
                throw .bad("path", "'\(item)' is neither a style nor LAT,LNG in range nor a place name")
            }
            p.points.append(location)
        }
        if let encoded {
            guard let points = EncodedPolyline.decode(String(encoded)), !points.isEmpty else {
                throw .bad("path", "'enc:\(encoded.prefix(40))' is not an encoded polyline")
            }
            p.points += points.map { .coordinate($0) }
        }
        return p
    }
}
