import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapStyle

/// Elevations of one `raster-dem` tile with a one-pixel border (MapLibre's `DEMData`): `dim × dim` interior pixels
/// from the tile, the border from the neighbouring tiles where they are available, else copied from the nearest
/// interior pixel.
struct DEMTile {
    /// Interior pixels per side.
    let dim: Int
    /// `(dim + 2)²` elevations in metres, row-major, the interior at `1...dim`.
    var elevations: [Double]

    /// Decodes the interior from `image` (square; channels through `encoding`); `nil` when it is not square.
    init?(image: RasterImage, encoding: DEMEncoding) {
        guard image.width == image.height, image.width > 0 else { return nil }
        dim = image.width
        let stride = dim + 2
        elevations = [Double](repeating: 0, count: stride * stride)
        image.pixels.withUnsafeBufferPointer { px in
            for y in 0..<dim {
                for x in 0..<dim {
                    let o = (y * dim + x) * 4
                    // BGRA premultiplied; DEM tiles are opaque, so the channels are the encoded bytes.
                    elevations[(y + 1) * stride + x + 1] = encoding.elevation(
                        red: px[o + 2], green: px[o + 1], blue: px[o])
                }
            }
        }
        // The border starts as a copy of the nearest interior pixel.
        for i in 1...dim {
            elevations[i] = elevations[stride + i]
            elevations[(dim + 1) * stride + i] = elevations[dim * stride + i]
            elevations[i * stride] = elevations[i * stride + 1]
            elevations[i * stride + dim + 1] = elevations[i * stride + dim]
        }
        elevations[0] = elevations[stride + 1]
        elevations[dim + 1] = elevations[stride + dim]
        elevations[(dim + 1) * stride] = elevations[dim * stride + 1]
        elevations[(dim + 1) * stride + dim + 1] = elevations[dim * stride + dim]
    }

    /// The elevation at interior coordinates `x, y` in `-1...dim` (−1 and `dim` are the border).
    subscript(x: Int, y: Int) -> Double {
        get { elevations[(y + 1) * (dim + 2) + x + 1] }
        set { elevations[(y + 1) * (dim + 2) + x + 1] = newValue }
    }

    /// Fills the border next to `neighbor`, the tile `dx, dy` (each −1, 0 or 1) away, from its edge pixels
    /// (MapLibre's `backfillBorder`). Tiles of another size are ignored.
    mutating func backfill(from neighbor: DEMTile, dx: Int, dy: Int) {
        guard neighbor.dim == dim, dx != 0 || dy != 0 else { return }
        let xs = dx == -1 ? -1...(-1) : dx == 1 ? dim...dim : 0...(dim - 1)
        let ys = dy == -1 ? -1...(-1) : dy == 1 ? dim...dim : 0...(dim - 1)
        for y in ys {
            for x in xs { self[x, y] = neighbor[x - dx * dim, y - dy * dim] }
        }
    }
}

/// What a hillshade tile image depends on besides its DEM tile: the evaluated paint, the light's azimuth (with the
/// map's bearing for `viewport` anchoring) and the source's `maxzoom`.
struct HillshadeShading: Hashable {
    var paint: HillshadePaint
    /// Radians, as MapLibre's `u_light.y`.
    var azimuth: Double
    var maxZoom: Int
}

/// MapLibre's `hillshade_prepare` and `hillshade` shaders on the CPU.
enum HillshadeMath {
    /// The Sobel derivative MapLibre's prepare pass stores for the interior pixel `x, y` of a DEM tile at zoom
    /// `z` of a source whose `maxzoom` is `maxZoom`, each component already mapped to `0…1` and quantised to a byte
    /// as its 8-bit texture keeps it; returned as the `-1…1` value the shading pass reads back.
    static func derivative(_ dem: DEMTile, x: Int, y: Int, z: Int, maxZoom: Int) -> (Double, Double) {
        let a = dem[x - 1, y - 1] / 4
        let b = dem[x, y - 1] / 4
        let c = dem[x + 1, y - 1] / 4
        let d = dem[x - 1, y] / 4
        let f = dem[x + 1, y] / 4
        let g = dem[x - 1, y + 1] / 4
        let h = dem[x, y + 1] / 4
        let i = dem[x + 1, y + 1] / 4
        let zoom = Double(z)
        let exaggeration = zoom < 2 ? 0.4 : zoom < 4.5 ? 0.35 : 0.3
        let divisor = pow(2, (zoom - Double(maxZoom)) * exaggeration + 19.2562 - zoom)
        let dx = ((c + f + f + i) - (a + d + d + g)) / divisor
        let dy = ((g + h + h + i) - (a + b + b + c)) / divisor
        func stored(_ v: Double) -> Double {
            let byte = (min(max(v / 2 + 0.5, 0), 1) * 255).rounded()
            return byte / 255 * 2 - 1
        }
        return (stored(dx), stored(dy))
    }

    /// The premultiplied colour (R, G, B, A, 0…1) of a pixel with derivative `deriv` at latitude `latitude`
    /// degrees (MapLibre's `hillshade.fragment.glsl`).
    static func shade(
        deriv: (Double, Double), latitude: Double, paint: HillshadePaint, azimuth: Double
    ) -> (Double, Double, Double, Double) {
        let scaleFactor = cos(latitude * .pi / 180)
        let length = (deriv.0 * deriv.0 + deriv.1 * deriv.1).squareRoot()
        let slope = atan(1.25 * length / scaleFactor)
        let aspect = deriv.0 != 0 ? atan2(deriv.1, -deriv.0) : .pi / 2 * (deriv.1 > 0 ? 1 : -1)
        let intensity = paint.exaggeration
        let base = 1.875 - intensity * 1.75
        let maxValue = 0.5 * Double.pi
        let scaledSlope =
            intensity != 0.5 ? ((pow(base, slope) - 1) / (pow(base, maxValue) - 1)) * maxValue : slope
        let accent = cos(scaledSlope)
        let k = min(max(intensity * 2, 0), 1)
        let t = (aspect + azimuth + .pi) / .pi + 0.5
        let shade = abs(t - 2 * (t / 2).rounded(.down) - 1)
        func premultiplied(_ c: StyleColor) -> [Double] { c.premultipliedComponents }
        let accentColor = premultiplied(paint.accentColor).map { (1 - accent) * $0 * k }
        let shadow = premultiplied(paint.shadowColor)
        let highlight = premultiplied(paint.highlightColor)
        let s = sin(scaledSlope) * k
        let shadeColor = (0..<4).map { (shadow[$0] * (1 - shade) + highlight[$0] * shade) * s }
        let out = (0..<4).map { accentColor[$0] * (1 - shadeColor[3]) + shadeColor[$0] }
        return (out[0], out[1], out[2], out[3])
    }

    /// The shaded image of DEM tile `address` (premultiplied BGRA, `dim × dim`).
    static func image(_ dem: DEMTile, address: TileID, shading: HillshadeShading) -> RasterImage {
        let dim = dem.dim
        let n = Double(1 << address.z)
        let lat0 = WebMercator.latLng(WorldPoint(x: 0, y: Double(address.y) / n)).latitude
        let lat1 = WebMercator.latLng(WorldPoint(x: 0, y: Double(address.y + 1) / n)).latitude
        var pixels = [UInt8](repeating: 0, count: dim * dim * 4)
        for y in 0..<dim {
            let v = (Double(y) + 0.5) / Double(dim)
            let latitude = (lat0 - lat1) * (1 - v) + lat1
            for x in 0..<dim {
                let deriv = derivative(dem, x: x, y: y, z: address.z, maxZoom: shading.maxZoom)
                let (r, g, b, a) = shade(
                    deriv: deriv, latitude: latitude, paint: shading.paint, azimuth: shading.azimuth)
                let o = (y * dim + x) * 4
                func byte(_ c: Double) -> UInt8 { UInt8(min(max((c * 255).rounded(), 0), 255)) }
                pixels[o] = byte(b)
                pixels[o + 1] = byte(g)
                pixels[o + 2] = byte(r)
                pixels[o + 3] = byte(a)
            }
        }
        return RasterImage(width: dim, height: dim, pixels: pixels)
    }
}

extension MapRenderer {
    /// Appends the `hillshade` layer's images for `tile`: each `raster-dem` source tile over it (the source tiles a
    /// raster layer would read, ``rasterAddresses(_:definition:tile:)``) decoded with the source's encoding, its
    /// one-pixel border filled from the neighbouring source tiles, its slopes and aspect taken as MapLibre's
    /// `hillshade_prepare` pass does and shaded as its `hillshade` pass does (``HillshadeMath``), drawn as a raster
    /// tile is (bilinear, flat or warped under pitch). The shaded images are cached in the engine per source tile,
    /// shading and backend.
    func drawHillshade(
        _ layer: CompiledLayer, tile: TileID, zoom: Double, projectors: inout ProjectorCache,
        into out: inout [DrawCommand]
    ) {
        guard let id = layer.layer.source, let source = sources[id], case .raster(let definition)? = style.sources[id],
            let encoding = definition.demEncoding
        else { return }
        let paint = HillshadePaint(layer: layer.layer, zoom: zoom)
        guard paint.exaggeration > 0 else { return }
        var azimuth = paint.illuminationDirection * .pi / 180
        if paint.anchorsToViewport, let camera = projectors.camera {
            azimuth += camera.state.bearing * .pi / 180
        } else if paint.anchorsToViewport {
            azimuth += projectors.bearing * .pi / 180
        }
        let shading = HillshadeShading(paint: paint, azimuth: azimuth, maxZoom: source.maxZoom)
        appendSourceTileImages(
            source, definition: definition, tile: tile, opacity: 1, nearestNeighbor: false, projectors: &projectors,
            into: &out
        ) { hillshadeImage(source, $0, encoding: encoding, shading: shading) }
    }

    /// The backend image of a DEM source tile shaded with `shading`, made on first use; `nil` when the tile is
    /// missing or does not decode (reported once per source), or no decoder is set.
    func hillshadeImage(
        _ source: ResolvedSource, _ address: TileID, encoding: DEMEncoding, shading: HillshadeShading
    ) -> ImageHandle? {
        let key = EngineKey.hillshade(source: source.dataID, address: address, shading: shading, backend: backendToken)
        if case .raster(let hit, _)? = engine.value(key) { return hit }
        var handle: ImageHandle? = nil
        if var dem = demTile(source, address, encoding: encoding, reports: true) {
            let n = 1 << address.z
            for dy in -1...1 {
                for dx in -1...1 where dx != 0 || dy != 0 {
                    let y = address.y + dy
                    guard y >= 0, y < n else { continue }
                    let x = ((address.x + dx) % n + n) % n
                    if let neighbor = demTile(
                        source, TileID(z: address.z, x: x, y: y), encoding: encoding, reports: false)
                    {
                        dem.backfill(from: neighbor, dx: dx, dy: dy)
                    }
                }
            }
            handle = try? backend.register(HillshadeMath.image(dem, address: address, shading: shading))
        }
        engine.insert(.raster(handle, backend: backendToken), for: key, cost: handle?.byteCount ?? 64)
        return handle
    }

    /// A DEM source tile's elevations, or `nil` (no tile, no decoder, not an image, not square).
    func demTile(_ source: ResolvedSource, _ address: TileID, encoding: DEMEncoding, reports: Bool) -> DEMTile? {
        guard let decoder = options.rasterDecoder else { return nil }
        let dataKey = SourceDataKey(source: source.id, address: address)
        guard
            case .success(let bytes)? = fetchedTiles[dataKey]
                ?? unfetchedRasterTile(source, at: address),
            let bytes, !bytes.isEmpty
        else { return nil }
        do {
            let image = try decoder.decode(bytes)
            guard let dem = DEMTile(image: image, encoding: encoding) else {
                throw RuntimeError("raster-dem tiles must be square, this one is \(image.width)x\(image.height)")
            }
            return dem
        } catch {
            if reports {
                let location =
                    (source.tiles as? any TileLocating)?.location(of: address) ?? "\(source.id) tile \(address)"
                options.rasterProblems.report(
                    SourceProblem(source: source.id, url: location, message: "not a DEM image (\(error))"))
            }
            return nil
        }
    }
}

/// An error with a message (a DEM tile that is not square).
private struct RuntimeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
