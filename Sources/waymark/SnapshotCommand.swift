import Foundation
import GoogleMaps
import MapData
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapNetwork
import MapPipeline
import MapStorage
import MapStyle

/// `waymark snapshot`: renders a PNG of the map headless (see the usage text).
struct SnapshotCommand: WaymarkCommand {
    static let name = "snapshot"
    static let drawsLabels = true
    static let summary = "render a PNG of the map for a camera (default: central Helsinki)"
    static let usage = """
        usage: waymark snapshot [--camera LAT,LON,ZOOM[,BEARING[,PITCH]]] [--size WxH] [--scale S] [--style FILE|URL]
                                [--map-style FILE.json] [--dark] [--markers FILE.geojson] [--overlays FILE.geojson]
                                [--timeout SECONDS] [--strict]
                                [-o OUT.png]

          --camera   centre (degrees), zoom (Google's: 256-point tiles), bearing (degrees clockwise from north),
                     pitch (degrees from straight down); clamped as GMSMapView clamps them.
                     Default 60.1699,24.9443,16.5 (central Helsinki)
          --size     view size in points. Default 1280x720
          --scale    device pixels per point, 0.25…4. Default 1. The image (--size × --scale) may have at most
                     67,108,864 device pixels (8192×8192) and 16,384 a side; larger is refused before drawing
                     (about 1.1 GB peak memory at the maximum)
          --style    a MapLibre style v8: a file path, file:// or http(s):// URL. Default Data/styles/default.json
                     (its 3D buildings from zoom 17, in the city data; pitch the camera to see their walls)
          --map-style  Google styling JSON (GMSMapStyle's rules) applied over the style; unknown names and features
                     without counterpart in the data are reported on standard error
          --dark     the dark default (Data/styles/default-dark.json), as a map view in dark mode; a --map-style
                     wins over it, as on iOS; ignored with --style (said on stderr)
          --markers  draw the Point and MultiPoint features of a GeoJSON FeatureCollection as circle markers
                     with a white ring (simplestyle properties marker-color, #rgb or #rrggbb, default #ea4335, the
                     default pin's red; marker-size small, medium (default) or large: radius 4, 6 or 9 points;
                     marker-symbol is not drawn, said once on stderr)
          --overlays draw the LineString / Polygon features of a GeoJSON file as GMSPolyline / GMSPolygon shapes
                     (simplestyle properties stroke, stroke-width (points, 0…100, default 2), stroke-opacity,
                     fill, fill-opacity; colours #rgb or #rrggbb, default #555555)
                     A property that cannot be used (a colour that is not #rgb or #rrggbb, a width that is negative
                     or not a number, a size not small/medium/large) takes its default; a stroke-width above 100 is
                     drawn 100 wide and an opacity outside 0…1 is clamped. Each is one warning on stderr naming the
                     file, the feature and the property (the first 20 of a file, then "… and K more from FILE"); every
                     feature is still drawn
          --timeout  seconds for everything fetched over the network (style, TileJSON, sprite, tiles). When they
                     run out, the snapshot is written with what arrived and stderr names what did not; a style that
                     has not arrived is an error. Default 30
          --strict   exit 1 when the snapshot is incomplete (a tile or source could not be read or decoded, or a style
                     diagnostic dropped a layer or source: a bad filter, a missing source, an unknown layer type; the
                     PNG is still written). Without it such a snapshot exits 0 with a warning on stderr. A
                     --markers or --overlays property replaced (above) is a warning and does not fail --strict, as a
                     style value replaced does not: nothing is left out of the drawing
          -o         output PNG path, written whole or not at all (an existing file is kept on failure; it keeps
                     its permissions). A symbolic link is followed (its target is replaced, the link stays); a FIFO
                     or device (/dev/null) is written directly. `-o -` writes the PNG to standard output (and
                     nothing else there). Default out/helsinki.png

        Remote data is cached in $WAYMARK_CACHE_DIR, else $XDG_CACHE_HOME/waymark, else $HOME/.cache/waymark (with
        HOME unset: the user's home folder from the system, named in one line on stderr); the cache is opened only
        when something is fetched over http(s).
        """

    /// `--timeout`'s default, in seconds (docs/BEHAVIOUR.md D19).
    static let defaultTimeout = 30.0
    /// The largest side of the image in pixels (`--size` × `--scale`), checked before anything is drawn (D22).
    static let maxPixelSide = 16_384
    /// The most device pixels in the image (`--size` × `--scale`, 8192 × 8192), checked before anything is drawn
    /// (docs/BEHAVIOUR.md D22).
    static let maxDevicePixels = 8192 * 8192

    /// What each option's value is, for the message when it is missing (`--camera -o out.png`).
    static let valueNeeds = [
        "--camera": "LAT,LON,ZOOM[,BEARING[,PITCH]] numbers", "--size": "WxH", "--scale": "a number in 0.25…4",
        "--style": "a style FILE or URL", "--map-style": "a Google styling FILE.json", "--markers": "a FILE.geojson",
        "--overlays": "a FILE.geojson", "-o": "an output PNG path (- for standard output)",
        "--output": "an output PNG path (- for standard output)", "--timeout": "SECONDS",
    ]

    @MainActor static func run(_ arguments: [String]) throws {
        let args = try ArgumentReader(
            arguments,
            valued: [
                "--camera", "--size", "--scale", "--style", "--map-style", "--markers", "--overlays", "-o", "--output",
                "--timeout",
            ],
            switches: ["--dark", "--strict"], needs: valueNeeds)
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        var camera = MapHost.demoCamera
        if let text = args.value("--camera") {
            // `omittingEmptySubsequences: false`: `60,24,10,,5` is refused, not read as four numbers.
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(DecimalNumber.parse)
            guard (3...5).contains(parts.count), parts.allSatisfy({ $0 != nil }) else {
                throw UsageError("--camera needs \(valueNeeds["--camera"]!), got '\(text)'")
            }
            let v = parts.map { $0! }
            guard abs(v[0]) <= 90, abs(v[1]) <= 180 else {
                throw UsageError("--camera latitude must be in -90…90 and longitude in -180…180, got '\(text)'")
            }
            camera.center = LatLng(latitude: v[0], longitude: v[1])
            camera.zoom = v[2]
            camera.bearing = v.count > 3 ? v[3] : 0
            camera.pitch = v.count > 4 ? v[4] : 0
        }
        if let text = args.value("--size") {
            let parts = text.lowercased().split(separator: "x").map { Int($0) }
            guard parts.count == 2, let w = parts[0], let h = parts[1], (1...8192).contains(w), (1...8192).contains(h)
            else { throw UsageError("--size needs WxH with each side 1…8192, got '\(text)'") }
            camera.size = ScreenSize(width: Double(w), height: Double(h))
        }
        var scale = 1.0
        if let text = args.value("--scale") {
            guard let s = DecimalNumber.parse(text), s >= 0.25, s <= 4 else {
                throw UsageError("--scale needs a number in 0.25…4, got '\(text)'")
            }
            scale = s
        }
        let pixels = (camera.size.width * scale, camera.size.height * scale)
        guard pixels.0 <= Double(maxPixelSide), pixels.1 <= Double(maxPixelSide) else {
            throw UsageError(
                "--size × --scale is \(Int(pixels.0))×\(Int(pixels.1)) pixels; each side must be at most \(maxPixelSide)"
            )
        }
        let total = pixels.0.rounded(.up) * pixels.1.rounded(.up)
        guard total <= Double(maxDevicePixels) else {
            throw UsageError(
                "--size × --scale is \(Int(pixels.0))×\(Int(pixels.1)) = \(Int(total)) device pixels; the image may "
                    + "have at most \(maxDevicePixels) (8192×8192)")
        }
        var timeout = defaultTimeout
        if let text = args.value("--timeout") {
            guard let t = DecimalNumber.parse(text), t > 0, t <= 86_400 else {
                throw UsageError("--timeout needs seconds in (0, 86400], got '\(text)'")
            }
            timeout = t
        }
        camera = CameraConstraints().clamped(camera)
        let output = args.value("-o") ?? args.value("--output") ?? "out/helsinki.png"
        TileNetwork.shared.client.loader.finishBy(seconds: timeout)
        let snapshotter = try makeMapHost(
            styleFile: args.value("--style"), mapStyleFile: args.value("--map-style"), dark: args.has("--dark"))
        // Every style diagnostic: a dropped layer or filter, an unsupported source, a bad value replaced.
        for diagnostic in snapshotter.renderer.style.diagnostics {
            FileHandle.standardError.write(Data("waymark snapshot: style: \(diagnostic)\n".utf8))
        }
        let dropped = snapshotter.renderer.style.diagnostics.filter(Self.dropsDrawing).count
        var overlay: [DrawCommand] = []
        if let file = args.value("--overlays") {
            let shapes: [GMSOverlay]
            var warnings: [String] = []
            do { shapes = try GeoJSONShapes.shapes(fromFile: file, warnings: &warnings) } catch {
                throw RuntimeError("\(error)")
            }
            warn(warnings, from: "overlays file '\(file)'")
            overlay += GMSOverlayDrawCommands(shapes, camera: camera, scale: scale)
        }
        if let markers = args.value("--markers") {
            guard let data = FileManager.default.contents(atPath: markers) else {
                throw RuntimeError("cannot read markers file '\(markers)'")
            }
            let json: JSONValue
            do { json = try JSONValue.parse(bytes: [UInt8](data)) } catch {
                throw RuntimeError("markers file '\(markers)' is not JSON: \(error)")
            }
            let read: [OverlayGeoJSON.Marker]
            var warnings: [String] = []
            do { read = try OverlayGeoJSON.markers(from: json, warnings: &warnings) } catch {
                throw RuntimeError("markers file '\(markers)': \(error)")
            }
            warn(warnings.map { "markers file '\(markers)': \($0)" }, from: "markers file '\(markers)'")
            overlay += MapHost.markerCommands(markers: read, camera: camera)
        }
        try writeSnapshot(snapshotter, camera: camera, scale: scale, overlay: overlay, to: output)
        if output != "-" { print(output) }
        if dropped > 0 {
            let text =
                "the snapshot is incomplete: \(dropped) style diagnostic\(dropped == 1 ? "" : "s") dropped a layer, "
                + "source or filter (above)"
            if args.has("--strict") { throw RuntimeError(text) }
        }
        let problems = TileNetwork.shared.problems + snapshotter.renderer.options.rasterProblems.problems
        if !problems.isEmpty {
            let sources = Set(problems.map(\.source)).sorted().map { "'\($0)'" }.joined(separator: ", ")
            let text = "the snapshot is incomplete: tiles of source \(sources) could not be read or decoded (above)"
            if args.has("--strict") { throw RuntimeError(text) }
            FileHandle.standardError.write(Data("waymark snapshot: warning: \(text)\n".utf8))
        }
    }

    /// Whether a style diagnostic removes something from the drawing (a layer or source skipped, a filter that
    /// makes its layer draw nothing, a source whose layers are not drawn): `--strict` fails on these.
    static func dropsDrawing(_ diagnostic: StyleDiagnostic) -> Bool {
        let m = diagnostic.message
        return m.hasSuffix("layer skipped") || m.hasSuffix("source skipped") || m.hasSuffix("the layer draws nothing")
            || m.hasSuffix("its layers are not drawn")
    }

    /// The snapshotter for `--style`, `--map-style` and `--dark`.
    static func makeMapHost(styleFile: String?, mapStyleFile: String?, dark: Bool) throws -> MapHost {
        if dark, let styleFile {
            // `--dark` picks the bundled dark style; a style of the user's own has no dark variant to pick.
            FileHandle.standardError.write(
                Data(
                    "waymark snapshot: --dark selects the bundled dark style; ignored with --style '\(styleFile)'\n"
                        .utf8))
        }
        do {
            let path =
                styleFile
                ?? DataFiles.path(dark && mapStyleFile == nil ? "styles/default-dark.json" : "styles/default.json")
            guard let mapStyleFile else { return try MapHost(styleFile: path) }
            guard let data = FileManager.default.contents(atPath: mapStyleFile) else {
                throw RuntimeError("cannot read --map-style file '\(mapStyleFile)'")
            }
            let rules: GoogleMapStyle
            do { rules = try GoogleMapStyle(jsonBytes: [UInt8](data)) } catch {
                throw RuntimeError("--map-style \(mapStyleFile): \(error)")
            }
            let base = try TileNetwork.openStyle(path)
            let (snapshotter, translation) = try MapHost.styled(base, rules: rules)
            for warning in rules.warnings {
                FileHandle.standardError.write(Data("waymark snapshot: \(mapStyleFile): \(warning)\n".utf8))
            }
            for type in translation.unmatchedFeatureTypes {
                FileHandle.standardError.write(
                    Data("waymark snapshot: \(mapStyleFile): \(type) has no counterpart in the map's data\n".utf8))
            }
            return snapshotter
        } catch let error as RuntimeError {
            throw error
        } catch {
            throw RuntimeError("\(error)")
        }
    }

    /// Renders and writes a PNG, creating the output folder; `-` is standard output (``outputPath(_:)``).
    @MainActor static func writeSnapshot(
        _ snapshotter: MapHost, camera: CameraState, scale: Double, overlay: [DrawCommand],
        to output: String
    ) throws {
        let path = outputPath(output)
        do {
            let image = try snapshotter.render(camera: camera, scale: scale, overlay: overlay)
            try PNGCodec.write(image, to: path)
        } catch { throw RuntimeError("cannot render '\(output)': \(error)") }
    }

    /// The path an `-o` value writes to: `-` is `/dev/stdout` (the process's descriptor 1 itself, see
    /// `AtomicFile`); any other path's folder is created when missing.
    static func outputPath(_ output: String) -> String {
        if output == "-" { return "/dev/stdout" }
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        if !folder.isEmpty {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        return output
    }
}
