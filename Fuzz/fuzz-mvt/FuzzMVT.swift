import MapGeometry

#if !FUZZ_SINGLE_MODULE
    import MapData
#endif

/// libFuzzer entry point: decodes `data` as an uncompressed Mapbox Vector Tile — every layer, every feature, every
/// geometry, and clips it — and must never crash, trap or allocate without bound. Build and run with
/// `scripts/fuzz/fuzz-mvt.sh [SECONDS]`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMVT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let tile = VectorTile(bytes: bytes)
    guard let layers = try? tile.layers() else { return 0 }
    var diagnostics: [VectorTileDiagnostic] = []
    var points = 0
    for layer in layers {
        for feature in layer.decodeFeatures(diagnostics: &diagnostics) {
            _ = try? feature.geometryCommands()
            points &+= feature.properties.count
            if let key = layer.keys.first { _ = feature.value(forKey: key) }
            guard let geometry = try? feature.decodeGeometry(diagnostics: &diagnostics) else { continue }
            points &+= geometry.pointCount
            points &+= clipGeometry(geometry, extent: feature.extent, buffer: 64).pointCount
            // Over-zoom by 1…16 levels into a sub-tile chosen from the feature index.
            let levels = 1 + feature.index % 16
            let requested = TileID(
                z: levels, x: feature.index % (1 << levels), y: (feature.index / 7) % (1 << levels))
            if let plan = overzoomPlan(for: requested, minZoom: 0, maxZoom: 0) {
                points &+= overzoomGeometry(geometry, transform: plan, extent: feature.extent, buffer: 64).pointCount
            }
        }
    }
    return points == -1 ? 1 : 0
}
