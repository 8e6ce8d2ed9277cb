import Foundation
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapPipeline
import MapStyle
import MapTestSupport
import Testing

/// Raster sources and the `raster` layer end to end: PNG tiles made here with Cairo, written to a temp folder (and an
/// MBTiles file), drawn through the pipeline with gdk-pixbuf decoding.
@Suite struct RasterSourceTests {
    static let west = (r: 200, g: 40, b: 40)
    static let east = (r: 40, g: 40, b: 200)

    /// A 256 × 256 tile: the west half `west`, the east half `east`, opaque.
    static func tilePNG() throws -> [UInt8] {
        var image = RasterImage(width: 256, height: 256)
        for y in 0..<256 {
            for x in 0..<256 {
                let c = x < 128 ? west : east
                let i = (y * 256 + x) * 4
                image.pixels[i] = UInt8(c.b)
                image.pixels[i + 1] = UInt8(c.g)
                image.pixels[i + 2] = UInt8(c.r)
                image.pixels[i + 3] = 255
            }
        }
        return try PNGCodec.encode(image)
    }

    /// A temp folder with `0/0/0.png`.
    static func tileFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-raster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("0/0"), withIntermediateDirectories: true)
        try Data(tilePNG()).write(to: dir.appendingPathComponent("0/0/0.png"))
        return dir
    }

    /// Renders a one-raster-layer style (white background below) at `zoom` over (0, 0), 256 × 256 points.
    static func render(
        source: String, paint: String = "{}", zoom: Double = 0, center: LatLng = LatLng(latitude: 0, longitude: 0)
    ) throws -> RasterImage {
        let json = """
            {"version": 8, "sources": {"r": \(source)},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "r", "type": "raster", "source": "r", "paint": \(paint)}]}
            """
        let style = try Style.parse(bytes: Array(json.utf8))
        #expect(style.errors.isEmpty, "\(style.errors)")
        let snapshotter = try MapHost(
            style: style, options: MapRenderOptions(drawsAttribution: false, baseAttribution: nil))
        return try snapshotter.render(
            camera: CameraState(center: center, zoom: zoom, size: ScreenSize(width: 256, height: 256)))
    }

    /// A raster source over the folder's `{z}/{x}/{y}.png` files, 256-point tiles, with `extra` members.
    static func folder(
        _ dir: URL, _ extra: String = #""maxzoom": 0"#, tileSize: Int = 256, plainPath: Bool = false
    ) -> String {
        let template = (plainPath ? "" : "file://") + dir.path + "/{z}/{x}/{y}.png"
        return #"{"type": "raster", "tileSize": \#(tileSize), "tiles": [""# + template + #""], "# + extra + "}"
    }

    static func rgb(_ image: RasterImage, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let p = image.premultipliedRGBA(x: x, y: y)!
        return (Int(p.r), Int(p.g), Int(p.b))
    }

    static func near(_ p: (r: Int, g: Int, b: Int), _ q: (r: Int, g: Int, b: Int), _ tolerance: Int = 2) -> Bool {
        abs(p.r - q.r) <= tolerance && abs(p.g - q.g) <= tolerance && abs(p.b - q.b) <= tolerance
    }

    @Test func xyzFolderSourceDraws() throws {
        let dir = try Self.tileFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = try Self.render(source: Self.folder(dir))
        #expect(Self.near(Self.rgb(image, 64, 128), Self.west))
        #expect(Self.near(Self.rgb(image, 192, 128), Self.east))
        // A plain path template draws the same.
        let plain = try Self.render(source: Self.folder(dir, plainPath: true))
        #expect(plain.pixels == image.pixels)
    }

    @Test func overZoomScalesTheParentAndResamplingPicksTheFilter() throws {
        let dir = try Self.tileFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Self.folder(dir)
        // Zoom 3: the tile is 2048 points wide; the view's centre column is the tile's west/east boundary.
        let linear = try Self.render(source: source, zoom: 3)
        let nearest = try Self.render(source: source, paint: #"{"raster-resampling": "nearest"}"#, zoom: 3)
        #expect(Self.near(Self.rgb(linear, 20, 128), Self.west))
        #expect(Self.near(Self.rgb(linear, 236, 128), Self.east))
        // Bilinear blends across the boundary over about 8 points; nearest keeps it sharp.
        let mixed = Self.rgb(linear, 125, 128)
        #expect(mixed.r < 190 && mixed.b > 50, "\(mixed)")
        #expect(Self.near(Self.rgb(nearest, 125, 128), Self.west))
        #expect(Self.near(Self.rgb(nearest, 131, 128), Self.east))
    }

    @Test func minzoomAndBoundsLeaveTilesOut() throws {
        let dir = try Self.tileFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let belowMin = try Self.render(source: Self.folder(dir, #""minzoom": 1"#))
        #expect(Self.near(Self.rgb(belowMin, 64, 128), (255, 255, 255)))
        // Bounds over the eastern hemisphere only: at zoom 1 the western source tiles are never drawn (as in
        // MapLibre, bounds are checked against the source tile, so the zoom-1 tiles are written too).
        for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("1/\(x)"), withIntermediateDirectories: true)
            try Data(Self.tilePNG()).write(to: dir.appendingPathComponent("1/\(x)/\(y).png"))
        }
        let bounded = try Self.render(
            source: Self.folder(dir, #""maxzoom": 1, "bounds": [0.1, -80, 180, 80]"#),
            zoom: 1)
        #expect(Self.near(Self.rgb(bounded, 64, 128), (255, 255, 255)))
        // East of the centre: tile 1/1/y's west half.
        #expect(Self.near(Self.rgb(bounded, 192, 128), Self.west))
    }

    @Test func paintPropertiesFollowMapLibresFormulas() throws {
        let dir = try Self.tileFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Self.folder(dir)
        // Saturation −1: every channel becomes the mean, (200 + 40 + 40) / 3 ≈ 93.3.
        let grey = try Self.render(source: source, paint: #"{"raster-saturation": -1}"#)
        #expect(Self.near(Self.rgb(grey, 64, 128), (93, 93, 93)))
        // Hue rotation by 120°: the spin weights are (0, 0, 1), so (r, g, b) → (b, r, g).
        let turned = try Self.render(source: source, paint: #"{"raster-hue-rotate": 120}"#)
        #expect(Self.near(Self.rgb(turned, 64, 128), (40, 200, 40)))
        // Brightness max 0.5: out = 0 + 0.5 · c.
        let dim = try Self.render(source: source, paint: #"{"raster-brightness-max": 0.5}"#)
        #expect(Self.near(Self.rgb(dim, 64, 128), (100, 20, 20)))
        // Contrast 0.5: k = 1 / (1 − 0.5) = 2; 200 → (0.784 − 0.5)·2 + 0.5 = 1.07 → 255, 40 → 0.
        let hard = try Self.render(source: source, paint: #"{"raster-contrast": 0.5}"#)
        #expect(Self.near(Self.rgb(hard, 64, 128), (255, 0, 0)))
        // Opacity 0.5 over the white background: 0.5·c + 0.5·255.
        let faint = try Self.render(source: source, paint: #"{"raster-opacity": 0.5}"#)
        #expect(Self.near(Self.rgb(faint, 64, 128), (228, 148, 148)))
    }

    static let sqlite = "/usr/bin/sqlite3"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: sqlite), "needs /usr/bin/sqlite3"))
    func mbtilesSourceDraws() throws {
        let dir = try Self.tileFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("imagery.mbtiles")
        let hex = try Self.tilePNG().map { String(format: "%02x", $0) }.joined()
        let sql = """
            CREATE TABLE metadata (name text, value text);
            CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
            INSERT INTO metadata VALUES ('format', 'png'), ('minzoom', '0'), ('maxzoom', '0');
            INSERT INTO tiles VALUES (0, 0, 0, X'\(hex)');
            """
        #expect(try SQLiteScript.run(sql, database: file.path) == 0)
        let image = try Self.render(source: #"{"type": "raster", "tileSize": 256, "url": "mbtiles://\#(file.path)"}"#)
        #expect(Self.near(Self.rgb(image, 64, 128), Self.west))
        #expect(Self.near(Self.rgb(image, 192, 128), Self.east))
    }

    @Test func aMissingTileIsCoveredByItsNearestAncestor() throws {
        // Only the zoom-0 tile exists though the source goes to zoom 2: at zoom 2 every source tile is missing, and
        // (as MapLibre's raster-masking) the zoom-0 tile's part is drawn over each, scaled up.
        let dir = try Self.tileFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = try Self.render(source: Self.folder(dir, #""maxzoom": 2"#), zoom: 2)
        #expect(Self.near(Self.rgb(image, 64, 128), Self.west))
        #expect(Self.near(Self.rgb(image, 192, 128), Self.east))
        // An undecodable zoom-1 tile counts as missing too: its zoom-0 ancestor still shows.
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("1/0"), withIntermediateDirectories: true)
        try Data("not an image".utf8).write(to: dir.appendingPathComponent("1/0/0.png"))
        let covered = try Self.render(source: Self.folder(dir, #""maxzoom": 1"#), zoom: 1)
        #expect(Self.near(Self.rgb(covered, 64, 64), Self.west))
    }

    @Test func tileSize512CoversFourTiles() throws {
        let dir = try Self.tileFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 512-point source tile at zoom 0 over a 256-point world: drawn scaled down, same picture.
        let image = try Self.render(source: Self.folder(dir, tileSize: 512))
        #expect(Self.near(Self.rgb(image, 64, 128), Self.west))
        #expect(Self.near(Self.rgb(image, 192, 128), Self.east))
    }

    @Test func undecodableTileDrawsNothingAndTheFrameGoesOn() throws {
        let dir = try Self.tileFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("not an image".utf8).write(to: dir.appendingPathComponent("0/0/0.png"))
        let image = try Self.render(source: Self.folder(dir))
        #expect(Self.near(Self.rgb(image, 64, 128), (255, 255, 255)))
    }

    /// A 1 × 1 lossless WebP (the image feature detectors use).
    static let webp = [UInt8](Data(base64Encoded: "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")!)

    @Test(.enabled(if: PixbufRasterDecoder.decodesWebP, "needs Debian's webp-pixbuf-loader"))
    func webpTilesDecodeWhereTheLoaderIsInstalled() throws {
        let image = try PixbufRasterDecoder().decode(Self.webp)
        #expect(image.width == 1 && image.height == 1)
    }

    @Test(.enabled(if: !PixbufRasterDecoder.decodesWebP, "the WebP loader is installed"))
    func webpWithoutItsLoaderIsAnErrorNotACrash() throws {
        #expect(throws: (any Error).self) { try PixbufRasterDecoder().decode(Self.webp) }
    }
}
