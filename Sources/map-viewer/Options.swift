import Foundation

/// A command-line error: the message names the option and the bad value; the viewer prints it with the usage and
/// exits 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
}

/// The initial camera given with `--camera LAT,LON,ZOOM[,BEARING[,PITCH]]`.
struct CameraOption: Equatable {
    /// Degrees north, in [−90, 90] (the map clamps to ±85, spec §1.8).
    var latitude: Double
    /// Degrees east, in [−180, 180].
    var longitude: Double
    /// Zoom level, in [0, 22] (the map clamps to its own limits, [2, 21] by default).
    var zoom: Double
    /// Degrees clockwise from north; any finite value (the map wraps it into [0, 360)).
    var bearing: Double = 0
    /// Viewing angle, degrees from nadir, in [0, 90] (the map clamps by zoom, decision D4).
    var pitch: Double = 0

    /// Helsinki city centre, where the viewer opens by default.
    static let helsinki = CameraOption(latitude: 60.1699, longitude: 24.9443, zoom: 16)
}

/// Where the my-location dot comes from (`--location`).
enum LocationOption: Equatable {
    /// A gpsd daemon on localhost:2947.
    case gpsd
    /// A GPX track replayed from a file (path checked to be readable).
    case gpx(String)
    /// A fixed position, degrees.
    case fixed(latitude: Double, longitude: Double)
}

/// The parsed command line of `map-viewer`.
struct ViewerOptions: Equatable {
    var camera: CameraOption = .helsinki
    /// A GeoJSON FeatureCollection of Point features shown as markers; nil = the demo POIs when found.
    var markersPath: String?
    /// A GeoJSON file whose LineString / Polygon features are drawn as shapes (`GeoJSONShapes`); nil = none.
    var overlaysPath: String?
    /// A MapLibre style JSON file; nil = the built-in style.
    var stylePath: String?
    /// A Google styling JSON file (`GMSMapStyle`'s rules) set as the map's `mapStyle`; nil = none.
    var mapStylePath: String?
    /// The app's appearance, `dark` or `light` (`--appearance`, as every Waymark app takes it); nil = the
    /// environment's `WAYMARK_APPEARANCE`, else light.
    var appearance: String?
    /// nil = the fixed demo provider.
    var location: LocationOption?
    /// Window size in points.
    var width = 800
    var height = 600
    var showHelp = false
    /// Print frame render times (median, 99th percentile, max) when the window closes.
    var stats = false
    /// A built-in input script to play (then print the frame times and exit); see ``ViewerScript``.
    var script: String?
    /// Device pixels per point forced instead of SDL's drawable/window ratio (HiDPI checks on a 1× display).
    var scale: Double?

    static let usage = """
        usage: map-viewer [options]

        Opens the map in a window (SDL2). Needs a display: DISPLAY (X11 or Xvfb) or WAYLAND_DISPLAY.

        options:
          --camera LAT,LON,ZOOM[,BEARING[,PITCH]]  initial camera (default 60.1699,24.9443,16)
          --markers FILE.geojson                   Point features shown as markers (default Data/helsinki-pois.geojson)
          --overlays FILE.geojson                  LineString / Polygon features drawn as polylines / polygons
          --style FILE|URL                         MapLibre style JSON, a file or http(s) URL (default: built-in style)
          --map-style FILE.json                    Google styling JSON (GMSMapStyle rules) set as the map's mapStyle
          --appearance dark|light                  the app's appearance (also WAYMARK_APPEARANCE); dark draws the dark
                                                   basemap and controls unless --map-style is given
          --location gpsd|gpx:FILE|LAT,LON         my-location source (default: WAYMARK_LOCATION,
                                                   else a fixed demo position)
          --size WxH                               window size in points, 200..8192 each (default 800x600)
          --stats                                  print frame times (median, p99, max) and per-stage times on exit
          --script demo                            play the built-in 13.5-s pan/zoom/rotate/tilt over Helsinki, 1,000
                                                   markers through the normal input path, print frame times, exit
          --scale S                                render at S device pixels per point, 1..4 (default: the window's
                                                   drawable size over its size)
          --help                                   this text

        controls: drag pans; wheel or ctrl+wheel zooms about the cursor; double-click zooms in; right-drag or
        shift/alt-drag rotates (horizontal) or tilts (vertical); arrows pan; + and - zoom; N resets north;
        Q or Esc quits.

        exit codes: 0 closed normally or --help; 1 no display or runtime failure; 2 bad arguments.
        """

    /// Parses `arguments` (without the program name).
    /// - Throws: ``UsageError`` naming the option for an unknown option, a missing or malformed value, a value out of
    ///   range, or a file that cannot be read or parsed.
    static func parse(_ arguments: [String]) throws -> ViewerOptions {
        var options = ViewerOptions()
        var i = 0
        func value(_ name: String) throws -> String {
            i += 1
            guard i < arguments.count else { throw UsageError(description: "\(name) needs a value") }
            return arguments[i]
        }
        while i < arguments.count {
            let argument = arguments[i]
            // Accept --name=value too.
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
                name = String(argument[..<eq])
                inline = String(argument[argument.index(after: eq)...])
            }
            func next() throws -> String {
                if let inline { return inline }
                return try value(name)
            }
            switch name {
            case "--help", "-h":
                options.showHelp = true
            case "--stats":
                options.stats = true
            case "--camera":
                options.camera = try parseCamera(try next())
            case "--markers":
                let path = try next()
                _ = try MarkerFile.load(path: path)
                options.markersPath = path
            case "--overlays":
                let path = try next()
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw UsageError(description: "--overlays: cannot read '\(path)'")
                }
                options.overlaysPath = path
            case "--style":
                let path = try next()
                if path.hasPrefix("http://") || path.hasPrefix("https://") {
                    // Fetched by the map in the background (MapLibreStyle.url): checked when it arrives.
                    guard URL(string: path) != nil else {
                        throw UsageError(description: "--style: '\(path)' is not a URL")
                    }
                } else {
                    try checkStyle(path: path)
                }
                options.stylePath = path
            case "--map-style":
                let path = try next()
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw UsageError(description: "--map-style: cannot read '\(path)'")
                }
                options.mapStylePath = path
            case "--appearance":
                let text = try next()
                guard text == "dark" || text == "light" else {
                    throw UsageError(description: "--appearance wants dark or light, got '\(text)'")
                }
                options.appearance = text
            case "--location":
                options.location = try parseLocation(try next())
            case "--size":
                (options.width, options.height) = try parseSize(try next())
            case "--script":
                let name = try next()
                guard ViewerScript.names.contains(name) else {
                    throw UsageError(
                        description:
                            "--script: unknown script '\(name)' (known: \(ViewerScript.names.joined(separator: ", ")))")
                }
                options.script = name
                options.stats = true
            case "--scale":
                let text = try next()
                guard let v = Double(text), v.isFinite, v >= 1, v <= 4 else {
                    throw UsageError(description: "--scale wants a number from 1 to 4, got '\(text)'")
                }
                options.scale = v
            default:
                throw UsageError(description: "unknown option '\(argument)'")
            }
            i += 1
        }
        return options
    }

    private static func numbers(_ text: String, option: String) throws -> [Double] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard let v = Double(trimmed), v.isFinite else {
                throw UsageError(description: "\(option): '\(trimmed)' is not a finite number (in '\(text)')")
            }
            return v
        }
    }

    static func parseCamera(_ text: String) throws -> CameraOption {
        let v = try numbers(text, option: "--camera")
        guard (3...5).contains(v.count) else {
            throw UsageError(description: "--camera wants LAT,LON,ZOOM[,BEARING[,PITCH]], got '\(text)'")
        }
        guard (-90...90).contains(v[0]) else {
            throw UsageError(description: "--camera: latitude \(v[0]) is outside [-90, 90]")
        }
        guard (-180...180).contains(v[1]) else {
            throw UsageError(description: "--camera: longitude \(v[1]) is outside [-180, 180]")
        }
        guard (0...22).contains(v[2]) else {
            throw UsageError(description: "--camera: zoom \(v[2]) is outside [0, 22]")
        }
        var camera = CameraOption(latitude: v[0], longitude: v[1], zoom: v[2])
        if v.count > 3 { camera.bearing = v[3] }
        if v.count > 4 {
            guard (0...90).contains(v[4]) else {
                throw UsageError(description: "--camera: pitch \(v[4]) is outside [0, 90]")
            }
            camera.pitch = v[4]
        }
        return camera
    }

    static func parseLocation(_ text: String) throws -> LocationOption {
        if text == "gpsd" { return .gpsd }
        if text.hasPrefix("gpx:") {
            let path = String(text.dropFirst(4))
            guard !path.isEmpty else { throw UsageError(description: "--location gpx: needs a file name") }
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw UsageError(description: "--location: cannot read GPX file '\(path)'")
            }
            return .gpx(path)
        }
        let v = try numbers(text, option: "--location")
        guard v.count == 2 else {
            throw UsageError(description: "--location wants gpsd, gpx:FILE or LAT,LON, got '\(text)'")
        }
        guard (-90...90).contains(v[0]), (-180...180).contains(v[1]) else {
            throw UsageError(description: "--location: \(v[0]),\(v[1]) is outside [-90, 90] x [-180, 180]")
        }
        return .fixed(latitude: v[0], longitude: v[1])
    }

    static func parseSize(_ text: String) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw UsageError(description: "--size wants WxH in points, e.g. 800x600, got '\(text)'")
        }
        guard (200...8192).contains(w), (200...8192).contains(h) else {
            throw UsageError(description: "--size: \(w)x\(h) is outside 200..8192 on a side")
        }
        return (w, h)
    }

    static func checkStyle(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(description: "--style: cannot read '\(path)'")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw UsageError(description: "--style: '\(path)' is not a JSON object")
        }
        guard (object["version"] as? NSNumber)?.intValue == 8 else {
            throw UsageError(description: "--style: '\(path)' is not a MapLibre style (needs \"version\": 8)")
        }
    }
}

/// Markers read from a GeoJSON file: Point features, titled by their `name` (or `title`) property.
struct MarkerFile {
    struct Entry: Equatable {
        var latitude: Double
        var longitude: Double
        var title: String?
        var snippet: String?
    }

    var entries: [Entry]

    /// Reads `path`.
    /// - Throws: ``UsageError`` when the file cannot be read, is not a GeoJSON FeatureCollection, or a Point feature
    ///   has coordinates that are not two finite numbers in range. Features of other geometry types are skipped.
    static func load(path: String) throws -> MarkerFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(description: "--markers: cannot read '\(path)'")
        }
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            root["type"] as? String == "FeatureCollection", let features = root["features"] as? [Any]
        else {
            throw UsageError(description: "--markers: '\(path)' is not a GeoJSON FeatureCollection")
        }
        var entries: [Entry] = []
        for (index, item) in features.enumerated() {
            guard let feature = item as? [String: Any], let geometry = feature["geometry"] as? [String: Any],
                geometry["type"] as? String == "Point"
            else { continue }
            guard let c = geometry["coordinates"] as? [Any], c.count >= 2,
                let lon = (c[0] as? NSNumber)?.doubleValue, let lat = (c[1] as? NSNumber)?.doubleValue,
                lon.isFinite, lat.isFinite, (-180...180).contains(lon), (-90...90).contains(lat)
            else {
                throw UsageError(description: "--markers: feature \(index) of '\(path)' has bad Point coordinates")
            }
            let properties = feature["properties"] as? [String: Any] ?? [:]
            let title = properties["name"] as? String ?? properties["title"] as? String
            let snippet = properties["category"] as? String ?? properties["snippet"] as? String
            entries.append(Entry(latitude: lat, longitude: lon, title: title, snippet: snippet))
        }
        return MarkerFile(entries: entries)
    }
}
