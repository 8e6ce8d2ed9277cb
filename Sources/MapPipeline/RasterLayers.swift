import MapData
import MapGeometry
import MapRender
import MapStyle

/// A raster tile as drawn: the source, its tile and the colour pass applied to it.
struct RasterTileKey: Hashable {
    let source: String
    let address: TileAddress
    let adjustment: RasterColorAdjustment
}

extension MapRenderer {
    /// Appends the `raster` layer's images for `tile` (MapLibre's raster layer).
    ///
    /// Source tiles are taken at the covering tile's zoom shifted by `log2(options.tileSize / source tileSize)`
    /// (a 512-point source tile covers four 256-point covering tiles), clamped to the source's `maxzoom` (over-zoom:
    /// the part of the ancestor's image over the tile, scaled up) and drawn nothing below its `minzoom` or outside
    /// its `bounds` (such tiles are never requested). Each image is decoded once by
    /// ``MapRenderOptions/rasterDecoder``, passed through the colour properties (``RasterColorAdjustment``), and
    /// cached per tile and paint in ``rasterTiles``; `raster-opacity` and `raster-resampling` apply when it is
    /// drawn (``ImageQuad``: one affine piece per image when flat, 8 × 8 pieces under pitch).
    /// `raster-fade-duration`: frames draw the settled state (every tile of a synchronous frame is loaded when drawn).
    func drawRaster(
        _ layer: CompiledLayer, tile: TileID, zoom: Double, projectors: inout ProjectorCache,
        into out: inout [DrawCommand]
    ) {
        guard let id = layer.layer.source, let source = sources[id], case .raster(let definition)? = style.sources[id]
        else { return }
        let paint = RasterPaint(layer: layer.layer, zoom: zoom)
        guard paint.opacity > 0 else { return }
        let adjustment = RasterColorAdjustment(
            hueRotate: paint.hueRotate, brightnessMin: paint.brightnessMin, brightnessMax: paint.brightnessMax,
            saturation: paint.saturation, contrast: paint.contrast)
        // Both sizes are powers of two: the shift is the difference of their exponents.
        let side =
            options.tileSize.isFinite && options.tileSize >= 1 && options.tileSize <= 65536 ? options.tileSize : 256
        let shift = Int(side).trailingZeroBitCount - definition.tileSize.trailingZeroBitCount
        // Below zoom 0 (a 512-point source tile over a 256-point world) the zoom-0 tile is drawn scaled down.
        let wanted = max(0, tile.z + shift)
        guard wanted >= source.minZoom else { return }
        let zs = min(wanted, source.maxZoom)
        let extent = 4096.0
        let projector = projectors.projector(extent: Int(extent))
        let n = Double(1 << tile.z)
        let ns = Double(1 << zs)
        // Source tile columns and rows over this tile.
        let range: (x: ClosedRange<Int>, y: ClosedRange<Int>)
        if zs >= tile.z {
            let k = 1 << (zs - tile.z)
            range = (tile.x * k...tile.x * k + k - 1, tile.y * k...tile.y * k + k - 1)
        } else {
            let d = tile.z - zs
            range = ((tile.x >> d)...(tile.x >> d), (tile.y >> d)...(tile.y >> d))
        }
        let west = WebMercator.worldPoint(LatLng(latitude: definition.bounds[3], longitude: definition.bounds[0]))
        let east = WebMercator.worldPoint(LatLng(latitude: definition.bounds[1], longitude: definition.bounds[2]))
        let cells = projector.isPerspective ? 8 : 1
        for ay in range.y {
            for ax in range.x {
                // The source tile's world box, against the source's bounds and the covering tile.
                let left = Double(ax) / ns
                let top = Double(ay) / ns
                guard left < east.x, left + 1 / ns > west.x, top < east.y, top + 1 / ns > west.y else { continue }
                let u0 = max(0, (Double(tile.x) / n - left) * ns)
                let u1 = min(1, (Double(tile.x + 1) / n - left) * ns)
                let v0 = max(0, (Double(tile.y) / n - top) * ns)
                let v1 = min(1, (Double(tile.y + 1) / n - top) * ns)
                guard u1 > u0, v1 > v0,
                    let image = rasterImage(source, TileAddress(z: zs, x: ax, y: ay), adjustment: adjustment)
                else { continue }
                ImageQuad.append(
                    image, uRange: u0...u1, vRange: v0...v1, cells: cells, opacity: paint.opacity,
                    nearestNeighbor: paint.resamplesNearest,
                    screen: { u, v in
                        let x = ((Double(ax) + u) / ns - Double(tile.x) / n) * n * extent
                        let y = ((Double(ay) + v) / ns - Double(tile.y) / n) * n * extent
                        return projector.isVisible(x, y) ? projector.project(x, y) : nil
                    }, into: &out)
            }
        }
    }

    /// The backend image of a raster source tile after the colour pass, decoded on first use; `nil` when the source
    /// has no such tile, its bytes do not decode, or no decoder is set.
    func rasterImage(_ source: ResolvedSource, _ address: TileAddress, adjustment: RasterColorAdjustment)
        -> ImageHandle?
    {
        let key = RasterTileKey(source: source.id, address: address, adjustment: adjustment)
        if let hit = rasterTiles.value(for: key) { return hit }
        guard let decoder = options.rasterDecoder else { return nil }
        var handle: ImageHandle? = nil
        if let bytes = (try? source.tiles.tileData(at: address)) ?? nil, let image = try? decoder.decode(bytes) {
            handle = try? backend.register(adjustment.apply(to: image))
        }
        frameStats.tilesDecoded += 1
        for case let evicted? in rasterTiles.insert(handle, for: key, cost: handle?.byteCount ?? 64) {
            backend.unregister(evicted)
        }
        return handle
    }
}
