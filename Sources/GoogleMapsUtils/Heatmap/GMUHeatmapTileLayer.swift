import GoogleMaps

/// A heatmap drawn as tiles (google-maps-ios-utils' `GMUHeatmapTileLayer`): every point spreads its intensity with
/// a Gaussian kernel of ``radius`` pixels; the sum, divided by the zoom's maximum, picks a colour of ``gradient``.
///
/// As Google's: tiles are 512 pixels (``GMSTileLayer/tileSize``), drawn on worker threads (``GMSSyncTileLayer``);
/// opacity defaults to 0.7. Waymark's own: a ``GMSTileLayer/tileSize`` set to another value (64…1024) before
/// ``map`` draws tiles of that many pixels, ``radius`` and the normalisation in those pixels (Google's always
/// draws 512 pixels); 256 draws each tile as the 512-pixel tile one zoom lower draws that quarter of it. The settings are captured when ``map`` is set: to change a shown heatmap, set its
/// properties, then set ``map`` again. The maximum for zoom z (Google's normalisation) is the largest sum of
/// intensities falling in one square of `radius / 128 / 2^z × 0.5` ``GMSMapPoint`` units, computed for zooms
/// ``minimumZoomIntensity``…``maximumZoomIntensity`` and held below and above them.
/// - Thread rules: configure on the main thread; tiles are made on worker threads.
open class GMUHeatmapTileLayer: GMSSyncTileLayer {
    /// The tile side in pixels (Google's `kGMUTileSize`).
    nonisolated static let heatmapTileSize = 512
    /// Zooms with a computed maximum (0…21).
    nonisolated static let maxZoom = 22

    /// The points and their weights. Defaults to none.
    open var weightedData: [GMUWeightedLatLng] = []
    /// The kernel radius in pixels of the tiles. Defaults to 20; above 50 costs much time per tile.
    open var radius: UInt = 20
    /// The colours. Defaults to Google's green-to-red: rgb(102, 225, 0) from intensity 0.2 to rgb(255, 0, 0) at 1,
    /// fading from transparent below 0.2, 1000 entries.
    open var gradient: GMUGradient = GMUGradient(
        colors: [
            UIColor(red: 102 / 255, green: 225 / 255, blue: 0, alpha: 1), UIColor(red: 1, green: 0, blue: 0, alpha: 1),
        ],
        startPoints: [0.2, 1.0], colorMapSize: 1000)
    /// The lowest zoom whose own maximum is computed; lower zooms use it. Defaults to 5.
    open var minimumZoomIntensity: UInt = 5
    /// The highest zoom whose own maximum is computed; higher zooms use it. Defaults to 10.
    open var maximumZoomIntensity: UInt = 10

    /// The settings the tiles are made with, captured when ``map`` is set (read by the worker threads).
    private nonisolated let captured = HeatmapSnapshotBox()

    /// A heatmap with no data, opacity 0.7 and 512-pixel tiles.
    public override init() {
        super.init()
        opacity = 0.7
        tileSize = Self.heatmapTileSize
    }

    /// Setting a map captures the current settings (then clears the tiles made with older ones).
    open override var map: GMSMapView? {
        get { super.map }
        set {
            if newValue != nil {
                captured.set(
                    HeatmapSnapshot(
                        data: weightedData, radius: Int(min(radius, 256)), gradient: gradient,
                        minimumZoomIntensity: Int(min(minimumZoomIntensity, UInt(Self.maxZoom - 1))),
                        maximumZoomIntensity: Int(min(maximumZoomIntensity, UInt(Self.maxZoom - 1))),
                        tileSize: min(max(tileSize, 64), 1024)))
                clearTileCache()
            }
            super.map = newValue
        }
    }

    /// The tile `x`, `y` at `zoom`: ``kGMSTileLayerNoTile`` where no point reaches it. Called on worker threads.
    nonisolated open override func tileFor(x: UInt, y: UInt, zoom: UInt) -> UIImage? {
        guard let snapshot = captured.get() else { return kGMSTileLayerNoTile }
        guard let pixels = snapshot.tilePixels(x: Int(x), y: Int(y), zoom: Int(min(zoom, 30))) else {
            return kGMSTileLayerNoTile
        }
        let side = snapshot.size
        return UIImage(premultipliedBGRA: pixels, width: side, height: side, scale: 1) ?? kGMSTileLayerNoTile
    }
}

/// The captured settings, behind a lock (set on the main thread, read by tile workers).
final class HeatmapSnapshotBox: @unchecked Sendable {
    private let lock = NSLock()
    private var snapshot: HeatmapSnapshot?
    func set(_ s: HeatmapSnapshot) { lock.withLock { snapshot = s } }
    func get() -> HeatmapSnapshot? { lock.withLock { snapshot } }
}

/// Everything a heatmap tile is made from: the points in a quadtree, the kernel, the colours and the maxima per
/// zoom (Google's `GMUHeatmapTileCreationData`). Immutable.
final class HeatmapSnapshot: @unchecked Sendable {
    let radius: Int
    /// The tile side in pixels (512 but for Waymark's own other ``GMSTileLayer/tileSize``).
    let size: Int
    let kernel: [Float]
    /// Premultiplied B, G, R, A per colour-map entry, as one little-endian word.
    let colors: [UInt32]
    let maxIntensities: [Float]
    private let tree: PointIndexTree
    private let intensities: [Float]

    init(
        data: [GMUWeightedLatLng], radius: Int, gradient: GMUGradient, minimumZoomIntensity: Int,
        maximumZoomIntensity: Int, tileSize: Int = GMUHeatmapTileLayer.heatmapTileSize
    ) {
        self.radius = radius
        size = tileSize
        // Bounds of the data (Google's calculateBounds), finite points only.
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        var points: [(Double, Double, Float)] = []
        points.reserveCapacity(data.count)
        for d in data {
            let p = d.point()
            guard p.x.isFinite, p.y.isFinite, d.intensity.isFinite else { continue }
            minX = min(minX, p.x)
            minY = min(minY, p.y)
            maxX = max(maxX, p.x)
            maxY = max(maxY, p.y)
            points.append((p.x, p.y, d.intensity))
        }
        var tree = PointIndexTree(
            bounds: points.isEmpty
                ? GQTBounds(minX: 0, minY: 0, maxX: 0, maxY: 0)
                : GQTBounds(minX: minX, minY: minY, maxX: maxX, maxY: maxY))
        for (i, p) in points.enumerated() { tree.insert(id: Int32(i), x: p.0, y: p.1) }
        self.tree = tree
        intensities = points.map(\.2)
        // The kernel: a Gaussian with σ = radius / 3 over −radius…radius.
        let sd = Float(radius) / 3
        kernel = (-radius...radius).map { i in radius == 0 ? 1 : expf(-Float(i * i) / (2 * sd * sd)) }
        colors = gradient.colorMapRGBA().map { c in
            let a = min(max(c.a, 0), 1)
            func byte(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * a * 255).rounded()) }
            return byte(c.b) | byte(c.g) << 8 | byte(c.r) << 16 | UInt32((a * 255).rounded()) << 24
        }
        // Maxima per zoom.
        let lo = min(minimumZoomIntensity, maximumZoomIntensity)
        let hi = max(minimumZoomIntensity, maximumZoomIntensity)
        var maxima = [Float](repeating: 0, count: GMUHeatmapTileLayer.maxZoom)
        for z in lo...hi { maxima[z] = Self.maxValue(points, radius: radius, zoom: z, tileSize: tileSize) }
        for z in 0..<lo { maxima[z] = maxima[lo] }
        for z in (hi + 1)..<GMUHeatmapTileLayer.maxZoom { maxima[z] = maxima[hi] }
        maxIntensities = maxima
    }

    /// The largest sum of intensities in one bucket at `zoom` (Google's maxValueForZoom): buckets `radius` pixels
    /// of a `tileSize`-pixel tile wide (for 512, Google's `radius / 128 / 2^zoom × 0.5`; every step is exact).
    static func maxValue(_ points: [(Double, Double, Float)], radius: Int, zoom: Int, tileSize: Int) -> Float {
        let bucketSize = Double(radius) * 2 / Double(tileSize) / pow(2, Double(zoom))
        guard bucketSize > 0 else { return points.map(\.2).max() ?? 0 }
        var sums: [Int64: Float] = [:]
        var best: Float = 0
        for (x, y, w) in points {
            let bx = Int64(((x + 1) / bucketSize).rounded(.down))
            let by = Int64(((y + 1) / bucketSize).rounded(.down))
            let key = bx &* 0x1_0000_0000 &+ by
            let v = (sums[key] ?? 0) + w
            sums[key] = v
            best = max(best, v)
        }
        return best
    }

    /// The tile's premultiplied BGRA pixels, or nil when no point reaches it.
    func tilePixels(x: Int, y: Int, zoom: Int) -> [UInt8]? {
        let size = self.size
        let tileWidth = 2 / pow(2, Double(zoom))
        let padding = tileWidth * Double(radius) / Double(size)
        let bucketWidth = tileWidth / Double(size)
        let minX = -1 + Double(x) * tileWidth - padding
        let maxX = -1 + Double(x + 1) * tileWidth + padding
        let maxY = 1 - Double(y) * tileWidth + padding
        let minY = 1 - Double(y + 1) * tileWidth - padding
        let padded = size + 2 * radius
        var grid = [Float](repeating: 0, count: padded * padded)
        var rowHasData = [Bool](repeating: false, count: padded)
        var any = false
        grid.withUnsafeMutableBufferPointer { grid in
            rowHasData.withUnsafeMutableBufferPointer { rowHasData in
                intensities.withUnsafeBufferPointer { intensities in
                    func deposit(_ bounds: GQTBounds, offset: Double) {
                        tree.forEach(in: bounds) { e in
                            let px = min(max(Int(((e.x + offset - minX) / bucketWidth).rounded(.down)), 0), padded - 1)
                            let py = min(max(Int(((maxY - e.y) / bucketWidth).rounded(.down)), 0), padded - 1)
                            grid[py * padded + px] += intensities[Int(e.id)]
                            rowHasData[py] = true
                            any = true
                        }
                    }
                    // Points across the antimeridian (Google wraps one side).
                    if minX < -1 {
                        deposit(GQTBounds(minX: minX + 2, minY: minY, maxX: 1, maxY: maxY), offset: -2)
                    } else if maxX > 1 {
                        deposit(GQTBounds(minX: -1, minY: minY, maxX: maxX - 2, maxY: maxY), offset: 2)
                    }
                    deposit(GQTBounds(minX: minX, minY: minY, maxX: maxX, maxY: maxY), offset: 0)
                }
            }
        }
        guard any else { return nil }
        let intensity = convolve(grid, rowHasData: rowHasData, padded: padded, size: size)
        let maxIntensity = maxIntensities[min(zoom, maxIntensities.count - 1)]
        let last = colors.count - 1
        let scale = maxIntensity > 0 ? Float(last) / maxIntensity : 0
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        pixels.withUnsafeMutableBytes { raw in
            let out = raw.bindMemory(to: UInt32.self)
            colors.withUnsafeBufferPointer { colors in
                intensity.withUnsafeBufferPointer { v in
                    for i in 0..<(size * size) {
                        let f = v[i] * scale
                        let index = f >= Float(last) ? last : (f > 0 ? Int(f) : 0)
                        out[i] = colors[index].littleEndian
                    }
                }
            }
        }
        return pixels
    }

    /// The separable convolution of the padded grid with the kernel, cropped to the tile (Google's two passes).
    ///
    /// Each sum adds its terms in the order Google's scattering passes add them (left to right, then top to bottom),
    /// so the values are the same to the bit; the terms of empty cells and rows are zeros, which change no sum. Both
    /// passes run one kernel tap at a time along a row, a loop the compiler vectorises.
    private func convolve(_ grid: [Float], rowHasData: [Bool], padded: Int, size: Int) -> [Float] {
        let r = radius
        let taps = 2 * r + 1
        // The horizontal pass, cropped: intermediate[y][x] for x in r…r + size − 1, stored at x − r.
        var intermediate = [Float](repeating: 0, count: padded * size)
        var result = [Float](repeating: 0, count: size * size)
        grid.withUnsafeBufferPointer { g in
            kernel.withUnsafeBufferPointer { k in
                intermediate.withUnsafeMutableBufferPointer { m in
                    for y in 0..<padded where rowHasData[y] {
                        // out[x2] (x2 = r…upper) += g[x2 − r + j] × k[2r − j] for j = 0…2r: x = x2 − r + j rising.
                        let out = m.baseAddress! + y * size
                        for j in 0..<taps {
                            let weight = k[taps - 1 - j]
                            let input = g.baseAddress! + y * padded + j
                            for x in 0..<size { out[x] += input[x] * weight }
                        }
                    }
                }
                intermediate.withUnsafeBufferPointer { m in
                    result.withUnsafeMutableBufferPointer { out in
                        // Row by row so the inner loop runs along memory; rows in rising order.
                        for y in 0..<padded where rowHasData[y] {
                            let start = max(r, y - r)
                            let end = min(padded - r - 1, y + r)
                            if start > end { continue }
                            let input = m.baseAddress! + y * size
                            for y2 in start...end {
                                let weight = k[y2 - y + r]
                                let outRow = out.baseAddress! + (y2 - r) * size
                                for x in 0..<size { outRow[x] += input[x] * weight }
                            }
                        }
                    }
                }
            }
        }
        return result
    }
}
