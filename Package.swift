// swift-tools-version:6.0
// Waymark: the Google Maps SDK for iOS API in Swift on Linux. See ARCHITECTURE.md for the target graph.
import Foundation
import PackageDescription

let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// The libFuzzer harnesses are declared only when asked for (`WAYMARK_FUZZ=1`): a main-less executable breaks a plain
/// `swift build` (see scripts/fuzz/fuzz-mvt.sh).
let fuzzTargets: [Target] =
    ProcessInfo.processInfo.environment["WAYMARK_FUZZ"] == "1"
    ? [
        .executableTarget(
            name: "fuzz-mvt", dependencies: ["MapData", "MapGeometry"], path: "Fuzz/fuzz-mvt",
            swiftSettings: settings + [.unsafeFlags(["-parse-as-library"])]),
        .executableTarget(
            name: "fuzz-pmtiles", dependencies: ["MapData"], path: "Fuzz/fuzz-pmtiles",
            swiftSettings: settings + [.unsafeFlags(["-parse-as-library"])]),
    ] : []

let package = Package(
    name: "Waymark",
    products: [
        .library(name: "GoogleMaps", targets: ["GoogleMaps"]),
        .library(name: "GoogleMapsUtils", targets: ["GoogleMapsUtils"]),
        .executable(name: "waymark", targets: ["waymark"]),
        .executable(name: "map-benchmarks", targets: ["map-benchmarks"]),
        .executable(name: "map-viewer", targets: ["map-viewer"]),
        .executable(name: "markers-example", targets: ["markers-example"]),
        .executable(name: "info-windows-example", targets: ["info-windows-example"]),
        .executable(name: "events-example", targets: ["events-example"]),
        .executable(name: "map-screen-example", targets: ["map-screen-example"]),
        .executable(name: "controls-example", targets: ["controls-example"]),
        .executable(name: "clustering-example", targets: ["clustering-example"]),
        .executable(name: "heatmap-example", targets: ["heatmap-example"]),
        .executable(name: "geojson-kml-example", targets: ["geojson-kml-example"]),
        .executable(name: "map-screens-example", targets: ["map-screens-example"]),
    ],
    targets: [
        // C libraries from Debian's packages (adapter targets only import these).
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CGdkPixbuf", pkgConfig: "gdk-pixbuf-2.0", providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CNettle", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),

        // Engine: pure Swift, no C, no UI.
        .target(name: "WaymarkTime", swiftSettings: settings),
        .target(name: "MapGeometry", exclude: ["README.md"], swiftSettings: settings),
        .target(name: "MapJSON", swiftSettings: settings),
        .target(name: "MapData", dependencies: ["MapGeometry", "MapJSON"], swiftSettings: settings),
        .target(name: "MapStyle", dependencies: ["MapGeometry", "MapJSON"], swiftSettings: settings),
        .target(name: "MapGeocoding", swiftSettings: settings),
        .target(name: "MapDrawing", dependencies: ["MapGeometry"], swiftSettings: settings),
        // The Cassowary linear constraint solver behind Auto Layout (pure Swift, no C, no UI).
        .target(name: "Cassowary", swiftSettings: settings),
        .target(name: "MapLayout", dependencies: ["MapGeometry", "MapDrawing"], swiftSettings: settings),
        .target(
            name: "MapPipeline",
            dependencies: ["MapGeometry", "MapData", "MapStyle", "MapLayout", "MapDrawing", "WaymarkTime", "MapJSON"],
            exclude: ["README.md"], swiftSettings: settings),
        // Google's Static Maps API as a request model: the query parser, fitting, markers and paths as draw commands.
        .target(name: "StaticMaps", dependencies: ["MapGeometry", "MapDrawing", "MapStyle"], swiftSettings: settings),

        // Adapters: the only engine-side code that imports C.
        .target(
            name: "MapStorage", dependencies: ["MapGeometry", "MapData", "MapGeocoding", "CSQLite", "CZlib"],
            exclude: ["README.md"],
            swiftSettings: settings),
        // One bounded HTTP GET over libcurl (size, stall, deadline and redirect limits while the answer arrives):
        // the only importer of CCurl.
        .target(name: "CurlTransport", dependencies: ["CCurl"], swiftSettings: settings),
        // Networking: the loader (scheduling, retries) over CurlTransport, HTTP tile sources, TileJSON. Its cache
        // lives in MapStorage (the one SQLite owner).
        .target(
            name: "MapNetwork", dependencies: ["MapGeometry", "MapData", "MapStorage", "MapStyle", "CurlTransport"],
            exclude: ["README.md"],
            swiftSettings: settings),
        // The one adapter over Cairo, Pango and PNG primitives (surfaces, drawing targets, PNG coding, font options)
        // that LinuxUIKit and the map renderer share (ARCHITECTURE.md §1).
        .target(
            name: "CairoGraphics", dependencies: ["CCairo", "CPangoCairo", "CGdkPixbuf"], exclude: ["README.md"],
            swiftSettings: settings),
        // The compiler's prefetch hint for the projective blit's texel reads (a header, no C library).
        .target(name: "CPrefetch"),
        .target(
            name: "MapDrawingCairo",
            dependencies: ["MapGeometry", "MapDrawing", "CairoGraphics", "CCairo", "CPangoCairo", "CPrefetch"],
            swiftSettings: settings),
        // The thin host glue: MapPipeline + CairoBackend + MBTilesSource + Data/ lookup (CLI, tests, map view).
        .target(
            name: "MapHosting",
            dependencies: [
                "MapPipeline", "MapDrawingCairo", "CairoGraphics", "MapStorage", "MapNetwork", "MapStyle",
                "MapGeometry",
                "MapDrawing", "MapData",
            ],
            swiftSettings: settings),

        // The HTTP server over libmicrohttpd (adapter: the only target importing CMicroHTTPD).
        .target(name: "MicroHTTPServer", dependencies: ["CMicroHTTPD"], swiftSettings: settings),
        // HMAC-SHA1 and SHA-1 over Nettle for URL signatures and ETags (adapter: the only target importing CNettle).
        .target(name: "URLSigning", dependencies: ["CNettle"], swiftSettings: settings),
        // SAX reading of XML over libxml2's push parser, for KML (adapter: the only target importing CLibXML2).
        .target(name: "LibXMLReader", dependencies: ["CLibXML2"], swiftSettings: settings),
        // Unfiltered PNG writing into memory over libpng (adapter: the only target importing CPNG).
        .target(name: "LibPNGWriter", dependencies: ["CPNG"], swiftSettings: settings),
        // `waymark serve`: the static maps service (routes, keys, render pool, cache, metrics) over MapHost.
        .target(
            name: "StaticMapsServer",
            dependencies: [
                "StaticMaps", "MapHosting", "MicroHTTPServer", "URLSigning", "LibPNGWriter", "MapGeometry",
                "MapDrawing",
                "MapDrawingCairo", "CairoGraphics", "MapStyle", "MapNetwork", "MapStorage", "MapGeocoding", "MapData",
            ],
            swiftSettings: settings),

        // UI and public API.
        .target(
            name: "LinuxUIKit", dependencies: ["WaymarkTime", "CairoGraphics", "CCairo", "Cassowary"],
            exclude: ["README.md"], swiftSettings: settings),
        // The app host's window backend over SDL2 (adapter: the only target importing CSDL2).
        .target(name: "UIKitSDL", dependencies: ["LinuxUIKit", "CairoGraphics", "CSDL2"], swiftSettings: settings),
        // Thin Linux-only modules so code written from Google's guides keeps `import UIKit` / `import CoreLocation`.
        .target(
            name: "UIKit", dependencies: ["LinuxUIKit", "UIKitSDL", "_Testing_UIKit", "CoreGraphics", "QuartzCore"],
            swiftSettings: settings),
        // iOS's CoreGraphics and QuartzCore, for the code that imports them: re-exports of Foundation and LinuxUIKit.
        .target(name: "CoreGraphics", dependencies: ["LinuxUIKit", "_Testing_CoreGraphics"], swiftSettings: settings),
        .target(name: "QuartzCore", dependencies: ["LinuxUIKit"], swiftSettings: settings),
        // Empty: satisfies swift-testing's cross-import overlay lookup for a module named CoreGraphics.
        .target(name: "_Testing_CoreGraphics", swiftSettings: settings),
        // Empty: satisfies swift-testing's cross-import overlay lookup for a module named UIKit (see its file).
        .target(name: "_Testing_UIKit", swiftSettings: settings),
        .target(
            name: "CoreLocation", dependencies: ["MapGeometry", "WaymarkTime", "LinuxUIKit"], swiftSettings: settings),
        .target(
            name: "GoogleMaps",
            dependencies: [
                "MapGeometry", "MapData", "MapStorage", "LinuxUIKit", "WaymarkTime", "MapGeocoding", "MapPipeline",
                "MapDrawingCairo", "MapHosting", "UIKit", "CoreLocation", "MapNetwork", "MapDrawing", "MapStyle",
                "MapLayout",
            ],
            exclude: ["README.md"], swiftSettings: settings),

        // Google's companion library (google-maps-ios-utils): clustering, heatmaps, GeoJSON/KML, the quadtree. Like the
        // library on iOS it uses GoogleMaps' public API only.
        .target(name: "GoogleMapsUtils", dependencies: ["GoogleMaps", "LibXMLReader"], swiftSettings: settings),

        // MapLibre render-test runner behind `waymark render-test` (tests import it without the CLI).
        .target(
            name: "RenderConformance",
            dependencies: [
                "MapData", "MapGeometry", "MapStyle", "MapDrawing", "MapDrawingCairo", "MapPipeline", "MapHosting",
                "MapStorage", "MapNetwork",
            ],
            swiftSettings: settings),

        // Hosts and tools.
        .executableTarget(
            name: "waymark",
            dependencies: [
                "GoogleMaps", "MapData", "MapStorage", "MapStyle", "MapDrawing", "MapDrawingCairo", "MapPipeline",
                "MapHosting", "MapGeometry", "RenderConformance", "MapNetwork", "StaticMapsServer", "MicroHTTPServer",
                "CairoGraphics",
            ],
            swiftSettings: settings),
        .executableTarget(
            name: "map-benchmarks",
            dependencies: [
                "MapGeometry", "MapData", "MapStorage", "MapStyle", "GoogleMaps", "MapGeocoding", "MapDrawing",
                "MapDrawingCairo", "MapLayout", "MapPipeline", "MapHosting", "MapNetwork", "LinuxUIKit", "Cassowary",
                "GoogleMapsUtils",
            ],
            swiftSettings: settings),

        .executableTarget(
            name: "map-viewer", dependencies: ["GoogleMaps", "UIKit", "UIKitSDL", "LinuxUIKit"], swiftSettings: settings
        ),

        // One app per guide in /work/shared/seeds (`swift run markers-example`; `--headless --snapshot FILE.png`).
        .executableTarget(
            name: "markers-example", dependencies: ["GoogleMaps"], path: "Examples/Markers", swiftSettings: settings),
        .executableTarget(
            name: "info-windows-example", dependencies: ["GoogleMaps"], path: "Examples/InfoWindows",
            swiftSettings: settings),
        .executableTarget(
            name: "events-example", dependencies: ["GoogleMaps"], path: "Examples/Events", swiftSettings: settings),
        .executableTarget(
            name: "controls-example", dependencies: ["GoogleMaps"], path: "Examples/ControlsAndGestures",
            swiftSettings: settings),
        // A whole map screen as an iOS app writes it (navigation, Auto Layout, two maps, overlays, a tile layer).
        .executableTarget(
            name: "map-screen-example", dependencies: ["GoogleMaps"], path: "Examples/MapScreen",
            swiftSettings: settings),
        // A navigation controller whose table lists map screens, each with constraints, bar buttons, an alert and a
        // control that changes the map.
        .executableTarget(
            name: "map-screens-example", dependencies: ["GoogleMaps"], path: "Examples/MapScreens",
            swiftSettings: settings),
        // GoogleMapsUtils' guides (marker clustering, heatmaps, GeoJSON and KML).
        .executableTarget(
            name: "clustering-example", dependencies: ["GoogleMaps", "GoogleMapsUtils"], path: "Examples/Clustering",
            swiftSettings: settings),
        .executableTarget(
            name: "heatmap-example", dependencies: ["GoogleMaps", "GoogleMapsUtils"], path: "Examples/Heatmap",
            swiftSettings: settings),
        .executableTarget(
            name: "geojson-kml-example", dependencies: ["GoogleMaps", "GoogleMapsUtils"], path: "Examples/GeoJSONKML",
            swiftSettings: settings),

        // Tests.
        .target(name: "MapTestSupport", dependencies: ["CairoGraphics", "MapData"], path: "Tests/MapTestSupport"),
        .testTarget(name: "WaymarkTimeTests", dependencies: ["WaymarkTime"]),
        .testTarget(name: "CassowaryTests", dependencies: ["Cassowary"]),
        .testTarget(name: "MapGeometryTests", dependencies: ["MapGeometry", "MapTestSupport"]),
        .testTarget(name: "MapDataTests", dependencies: ["MapData", "MapGeometry", "MapTestSupport"]),
        .testTarget(name: "MapStyleTests", dependencies: ["MapStyle", "MapTestSupport"]),
        .testTarget(name: "MapGeocodingTests", dependencies: ["MapGeocoding", "MapTestSupport"]),
        .testTarget(
            name: "StaticMapsTests",
            dependencies: [
                "StaticMaps", "StaticMapsServer", "MicroHTTPServer", "URLSigning", "MapGeometry", "MapTestSupport",
                "CairoGraphics", "MapData", "MapStorage",
            ],
            exclude: ["Goldens"]),
        .testTarget(name: "MapStorageTests", dependencies: ["MapStorage", "MapData", "MapGeometry", "MapTestSupport"]),
        .testTarget(
            name: "MapNetworkTests",
            dependencies: [
                "MapNetwork", "MapStorage", "MapHosting", "MapPipeline", "MapDrawingCairo", "MapStyle", "MapData",
                "MapGeometry", "MapDrawing", "MapTestSupport", "WaymarkTime",
            ],
            exclude: ["Server"]),
        .testTarget(name: "MapDrawingTests", dependencies: ["MapDrawing", "MapGeometry", "MapTestSupport"]),
        .testTarget(
            name: "MapLayoutTests", dependencies: ["MapLayout", "MapGeometry", "MapDrawing", "MapTestSupport"]),
        .testTarget(
            name: "MapDrawingCairoTests",
            dependencies: ["MapDrawingCairo", "MapDrawing", "MapGeometry", "CairoGraphics", "MapTestSupport"],
            exclude: ["Goldens"]),
        .testTarget(
            name: "MapPipelineTests",
            dependencies: [
                "MapPipeline", "MapGeometry", "MapData", "MapStyle", "MapDrawing", "MapLayout", "MapTestSupport",
                "WaymarkTime",
            ]),
        .testTarget(
            name: "RenderTests",
            dependencies: [
                "MapPipeline", "MapHosting", "MapDrawingCairo", "MapStorage", "MapStyle", "MapGeometry", "MapDrawing",
                "MapData", "MapTestSupport",
            ],
            exclude: ["Goldens"]),
        .target(
            name: "UIKitTestSupport", dependencies: ["LinuxUIKit", "MapTestSupport"], path: "Tests/UIKitTestSupport"),
        .testTarget(
            name: "LinuxUIKitTests",
            dependencies: ["LinuxUIKit", "CairoGraphics", "WaymarkTime", "MapTestSupport", "UIKitTestSupport"],
            exclude: ["Goldens"]),
        .testTarget(
            name: "GoogleMapsTests",
            dependencies: [
                "GoogleMaps", "MapGeometry", "MapStorage", "WaymarkTime", "LinuxUIKit", "MapTestSupport",
                "UIKitTestSupport", "MapNetwork", "MapDrawing", "MapPipeline", "MapStyle",
            ],
            exclude: ["Goldens"]),
        .testTarget(
            name: "GoogleMapsUtilsTests",
            dependencies: ["GoogleMapsUtils", "GoogleMaps", "MapTestSupport", "UIKitTestSupport"],
            exclude: ["Goldens"]),
        .testTarget(
            name: "WaymarkCLITests", dependencies: ["waymark", "MapTestSupport", "MapDrawing", "MapDrawingCairo"]),
        .testTarget(
            name: "RenderConformanceTests",
            dependencies: ["RenderConformance", "MapDrawing", "MapStyle", "MapTestSupport"]),
        .testTarget(
            name: "MapViewerTests",
            dependencies: [
                "map-viewer", "GoogleMaps", "LinuxUIKit", "UIKitSDL", "MapGeometry", "WaymarkTime", "MapTestSupport",
            ]),
        // The GoogleMaps articles' code blocks, compiled and run (Sources/GoogleMaps/GoogleMaps.docc).
        .testTarget(name: "DocumentationTests", dependencies: ["GoogleMaps"]),
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "markers-example", "info-windows-example", "events-example", "controls-example", "map-screen-example",
                "GoogleMaps",
                "MapTestSupport", "clustering-example", "heatmap-example", "geojson-kml-example", "GoogleMapsUtils",
                "map-screens-example", "LinuxUIKit",
            ]),
    ] + fuzzTargets
)
