import Foundation

// usage: swift run -c release map-benchmarks [--json] [NAME…]
// Runs every case (or those named), warm-up first, then median and min of the timed runs.

/// Every benchmark case. Add new cases here; names must be unique.
func allBenchmarks() -> [any Benchmark] {
    [
        ClockReadBenchmark(),
        GeocoderLoadBenchmark(), GeocoderQueryBenchmark(), GeocoderSingleQueryBenchmark(),
        ProjectWorldToScreenBenchmark(), ProjectScreenToWorldBenchmark(), TileCoverBenchmark(pitch: 0),
        TileCoverBenchmark(pitch: 65),
        LabelSpriteBenchmark(warm: true), LabelSpriteBenchmark(warm: false),
        TileCompositeBenchmark(fractional: false), TileCompositeBenchmark(fractional: true),
        PolygonFillBenchmark(), PanFrameBenchmark(), LineRasterOutlineBenchmark(), LineRasterThinLineBenchmark(),
        UIKitIconSnapshotBenchmark(), UIKitInfoWindowSnapshotBenchmark(), UIKitPNGDecodeBenchmark(),
        AutoLayoutSolveBenchmark(), AutoLayoutResolveBenchmark(), CassowarySolveBenchmark(),
        AutoLayoutRebuildBenchmark(),
        DirectMapFrameBenchmark(), HostFrameBenchmark(), HostStillSnapshotBenchmark(),
        MapScreenFrameBenchmark(chrome: false), MapScreenFrameBenchmark(chrome: true),
        StyleEvalBenchmark(), ExpressionEvalBenchmark(),
        PlacementBenchmark(), ColdPlacementBenchmark(), PitchedPlacementBenchmark(), GridIndexBenchmark(),
        DecodeDenseTileBenchmark(), DecodeWorldTileBenchmark(), DecodeLayersOnlyBenchmark(), MBTilesLookupBenchmark(),
        MBTilesInflateLookupBenchmark(),
        TileFormatLookupBenchmark(.mbtiles, inflate: false), TileFormatLookupBenchmark(.pmtiles, inflate: false),
        TileFormatLookupBenchmark(.mbtiles, inflate: true), TileFormatLookupBenchmark(.pmtiles, inflate: true),
        MarkerAddBenchmark(count: 100_000), MarkerAddBenchmark(count: 1_000_000), MarkerFrameBenchmark(),
        MarkerHitTestBenchmark(count: 100_000), MarkerHitTestBenchmark(count: 1_000_000),
        ShapeAddBenchmark(), ShapePanFrameBenchmark(.polylines), ShapePanFrameBenchmark(.polygons),
        ShapeHitTestBenchmark(), ShapeSpansFrameBenchmark(),
        PipelineColdFrameBenchmark.helsinkiZ16, PipelineMovingFrameBenchmark.pan, PipelineColdFrameBenchmark.worldZ2,
        PipelineMovingFrameBenchmark.panWithoutBuildings,
        PipelinePitchedFrameBenchmark(), PipelinePitchedFrameBenchmark(usesTileImageCache: false),
        PipelinePitchedFrameBenchmark(asynchronous: true),
        PipelineMovingFrameBenchmark.rotated,
        PipelineMovingFrameBenchmark.unrotated,
        PipelineColdFrameBenchmark.helsinkiZ16.serial, PipelineColdFrameBenchmark.worldZ2.serial,
        PipelineColdFrameBenchmark.helsinkiPitched,
        EngineMemoryBenchmark(views: 1, shared: true), EngineMemoryBenchmark(views: 4, shared: true),
        EngineMemoryBenchmark(views: 4, shared: false),
        // The bundled world (issue 14): its densest z8 and z9 (top zoom) tiles; zoom 2, 6 (Sydney) and 10 (London;
        // dense Ruhr, Java, Bengal), cold and warm.
        DecodeWorldTileBenchmark(zoom: 8),
        DecodeWorldTileBenchmark(zoom: 9),
        PipelineColdFrameBenchmark.world(nil, 30, 10, zoom: 2, warm: true),
        PipelineColdFrameBenchmark.world("sydney", -33.8683, 151.2086, zoom: 6),
        PipelineColdFrameBenchmark.world("sydney", -33.8683, 151.2086, zoom: 6, warm: true),
        PipelineColdFrameBenchmark.world("london", 51.5, -0.127, zoom: 10),
        PipelineColdFrameBenchmark.world("london", 51.5, -0.127, zoom: 10, warm: true),
        PipelineColdFrameBenchmark.world("ruhr", 51.45, 7.1, zoom: 10),
        PipelineColdFrameBenchmark.world("java", -6.95, 110.2, zoom: 10),
        PipelineColdFrameBenchmark.world("bengal", 23.75, 90.4, zoom: 10),
        HTTPPanBenchmark(),
        // GoogleMapsUtils (issue 31): clustering a new zoom, the anchor Supercluster on the same points, a heatmap
        // tile, GeoJSON and KML parsing, a frame with clustered items against the same markers alone.
        ClusterBenchmark(count: 100_000, zoom: 5), ClusterBenchmark(count: 100_000, zoom: 10),
        ClusterBenchmark(count: 100_000, zoom: 15), ClusterBenchmark(count: 1_000_000, zoom: 10),
        SuperclusterBenchmark(count: 100_000, zoom: 5), SuperclusterBenchmark(count: 100_000, zoom: 10),
        SuperclusterBenchmark(count: 100_000, zoom: 15), SuperclusterBenchmark(count: 1_000_000, zoom: 10),
        HeatmapTileBenchmark(count: 100_000), GeoJSONParseBenchmark(megabytes: 10), KMLParseBenchmark(megabytes: 10),
        HeatmapTileBenchmark(count: 100_000, tileSize: 512), ClusterFrameBenchmark(clustered: true),
        ClusterFrameBenchmark(clustered: false),
        GoogleStyleApplyBenchmark(), GoogleStyleSwitchBenchmark(),
        // A floating panel with a layer shadow over a changing map (issue 30's frame budget).
        ShadowPanelFrameBenchmark(.bareMap), ShadowPanelFrameBenchmark(.plainPanel),
        ShadowPanelFrameBenchmark(.shadowPanel), ShadowPanelFrameBenchmark(.shadowPathPanel),
    ]
}

var json = false
var selected: [String] = []
for arg in CommandLine.arguments.dropFirst() {
    if arg == "--json" {
        json = true
    } else if arg == "--help" || arg == "-h" {
        print("usage: map-benchmarks [--json] [NAME…]\ncases: \(allBenchmarks().map(\.name).joined(separator: " "))")
        exit(0)
    } else {
        selected.append(arg)
    }
}

#if DEBUG
    FileHandle.standardError.write(
        Data(
            """
            ************************************************************************
            WARNING: map-benchmarks is a DEBUG build; its figures mean nothing.
            Run: swift run -c release map-benchmarks
            ************************************************************************

            """.utf8))
#endif

let known = Set(allBenchmarks().map(\.name))
for name in selected where !known.contains(name) {
    FileHandle.standardError.write(Data("map-benchmarks: unknown case '\(name)'\n".utf8))
    exit(2)
}

var results: [BenchmarkResult] = []
for var benchmark in allBenchmarks() where selected.isEmpty || selected.contains(benchmark.name) {
    do {
        let result = try measure(&benchmark)
        results.append(result)
        if !json {
            print(
                "\(result.name): median \(formatSeconds(result.medianSeconds)), min \(formatSeconds(result.minSeconds)) "
                    + "(\(result.items) \(result.unit) per run, "
                    + String(format: "%.3g", result.throughput) + " \(result.unit)/s, \(result.iterations) runs; cpu "
                    + formatSeconds(result.cpuSecondsPerRun) + " a run)")
        }
    } catch {
        FileHandle.standardError.write(Data("map-benchmarks: \(benchmark.name) failed: \(error)\n".utf8))
        exit(1)
    }
}
if json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    FileHandle.standardOutput.write(try encoder.encode(results))
    print()
}
