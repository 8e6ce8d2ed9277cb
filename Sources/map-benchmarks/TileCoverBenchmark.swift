import MapGeometry

/// Computes the tile cover of a 1024 × 768 view at zoom 14.5 a thousand times, flat or pitched to 65°.
struct TileCoverBenchmark: Benchmark {
    let name: String
    let unit = "covers"
    let pitch: Double

    /// Flat (`pitch` 0) or pitched; `name` is `tile-cover-flat` / `tile-cover-pitched`.
    init(pitch: Double) {
        self.pitch = pitch
        name = pitch == 0 ? "tile-cover-flat" : "tile-cover-pitched"
    }

    func run() throws -> Int {
        var tiles = 0
        for i in 0..<1000 {
            let s = CameraState(
                center: LatLng(latitude: 51.5 + Double(i) * 1e-4, longitude: -0.12), zoom: 16.5,
                bearing: Double(i % 360),
                pitch: pitch, size: ScreenSize(width: 1024, height: 768))
            tiles += s.coveringTiles(tileZoom: 16).count
        }
        blackHole(tiles)
        return 1000
    }
}
