import Foundation
import MapData
import MapGeometry
import MapStorage

/// `waymark decode-tile FILE [--z Z --x X --y Y]`: prints a vector tile as JSON so a person can look inside it.
///
/// FILE is a raw or gzip/zlib-compressed `.mvt`/`.pbf`, or an `.mbtiles` file (recognised by its SQLite header), in
/// which case `--z --x --y` (XYZ scheme, y from the north) choose the tile. Output: `{"layers": [{"name", "version",
/// "extent", "features": [{"id", "type", "properties", "geometry"}]}], "diagnostics": [...]}` with keys sorted and
/// geometry in tile coordinates as GeoJSON-style `{"type", "coordinates"}` (rings closed).
struct DecodeTileCommand: WaymarkCommand {
    static let name = "decode-tile"
    static let summary = "print a vector tile (.mvt/.pbf or one tile of an .mbtiles) as JSON"
    static let usage = """
        usage: waymark decode-tile FILE [--z Z --x X --y Y]
          FILE            a .mvt/.pbf tile (raw or gzipped), or an .mbtiles file
          --z, --x, --y   the tile to read from an .mbtiles file (XYZ scheme); required for .mbtiles
        """

    @MainActor static func run(_ arguments: [String]) throws {
        let args = try ArgumentReader(arguments, valued: ["--z", "--x", "--y"])
        guard args.positionals.count == 1, let file = args.positionals.first else {
            throw UsageError(args.positionals.isEmpty ? "missing FILE" : "expected one FILE")
        }
        let given = ["--z", "--x", "--y"].map { args.value($0) }
        var address: TileID?
        if given.contains(where: { $0 != nil }) {
            guard given.allSatisfy({ $0 != nil }) else { throw UsageError("--z, --x and --y go together") }
            let numbers = given.map { Int($0!) }
            guard let z = numbers[0], let x = numbers[1], let y = numbers[2] else {
                throw UsageError("--z, --x and --y need integers")
            }
            address = TileID.valid(z: z, x: x, y: y)
            guard address != nil else {
                throw UsageError("tile \(z)/\(x)/\(y) is outside the grid (0 <= z <= 30, 0 <= x, y < 2^z)")
            }
        }
        guard FileManager.default.isReadableFile(atPath: file) else {
            throw RuntimeError("\(file): no such file or not readable")
        }
        let bytes: [UInt8]
        if isSQLite(file) || file.hasSuffix(".mbtiles") {
            guard let address else { throw UsageError("an .mbtiles FILE needs --z, --x and --y") }
            do {
                let source = try MBTilesSource(path: file)
                guard let data = try source.tileData(at: address) else {
                    throw RuntimeError("\(file): no tile \(address)")
                }
                bytes = data
            } catch let error as MBTilesError {
                throw RuntimeError(error.description)
            }
        } else {
            guard address == nil else { throw UsageError("--z, --x and --y apply only to .mbtiles files") }
            guard let data = FileManager.default.contents(atPath: file) else {
                throw RuntimeError("\(file): cannot read")
            }
            do {
                bytes = try decompressTileData([UInt8](data))
            } catch {
                throw RuntimeError("\(file): \(error)")
            }
        }
        let json: Any
        do {
            json = try tileJSON(VectorTile(bytes: bytes))
        } catch {
            // Named as the snapshot names it: the file and, in an archive, the tile.
            throw RuntimeError("\(file)\(address.map { " tile \($0)" } ?? ""): \(error)")
        }
        let data = try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
        FileHandle.standardOutput.write(data)
        print()
    }

    /// Whether the file starts with the 16-byte SQLite header.
    static func isSQLite(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        return header == Data("SQLite format 3\0".utf8)
    }

    static func tileJSON(_ tile: VectorTile) throws(VectorTileError) -> [String: Any] {
        var diagnostics = tile.layerDiagnostics
        var layers: [[String: Any]] = []
        for layer in try tile.layers() {
            var features: [[String: Any]] = []
            for feature in layer.decodeFeatures(diagnostics: &diagnostics) {
                var object: [String: Any] = [
                    "type": typeName(feature.type),
                    "properties": feature.properties.mapValues(valueJSON),
                ]
                if let id = feature.id { object["id"] = NSNumber(value: id) }
                do throws(VectorTileError) {
                    object["geometry"] = geometryJSON(try feature.decodeGeometry(diagnostics: &diagnostics))
                } catch {
                    diagnostics.append(
                        VectorTileDiagnostic(layer: layer.name, featureIndex: feature.index, message: error.description)
                    )
                    object["geometry"] = NSNull()
                }
                features.append(object)
            }
            layers.append([
                "name": layer.name, "version": layer.version, "extent": layer.extent, "features": features,
            ])
        }
        return ["layers": layers, "diagnostics": diagnostics.map(\.description)]
    }

    static func typeName(_ type: VectorTileGeometryType) -> String {
        switch type {
        case .unknown: return "Unknown"
        case .point: return "Point"
        case .lineString: return "LineString"
        case .polygon: return "Polygon"
        }
    }

    static func valueJSON(_ value: VectorTileValue) -> Any {
        switch value {
        case .string(let s): return s
        case .float(let f): return f.isFinite ? NSNumber(value: Double(f)) : "\(f)" as Any
        case .double(let d): return d.isFinite ? NSNumber(value: d) : "\(d)" as Any
        case .int(let i), .sint(let i): return NSNumber(value: i)
        case .uint(let u): return NSNumber(value: u)
        case .bool(let b): return b
        case .json(let s): return s
        }
    }

    static func geometryJSON(_ geometry: VectorTileGeometry) -> Any {
        func coords(_ p: VectorTilePoint) -> [Int] { [Int(p.x), Int(p.y)] }
        switch geometry {
        case .unknown:
            return NSNull()
        case .points(let points):
            return points.count == 1
                ? ["type": "Point", "coordinates": coords(points[0])]
                : ["type": "MultiPoint", "coordinates": points.map(coords)]
        case .lineStrings(let lines):
            return lines.count == 1
                ? ["type": "LineString", "coordinates": lines[0].map(coords)]
                : ["type": "MultiLineString", "coordinates": lines.map { $0.map(coords) }]
        case .polygons(let polygons):
            return polygons.count == 1
                ? ["type": "Polygon", "coordinates": polygons[0].map { $0.map(coords) }]
                : ["type": "MultiPolygon", "coordinates": polygons.map { $0.map { $0.map(coords) } }]
        }
    }
}
