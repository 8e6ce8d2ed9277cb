import LinuxUIKit
import MapGeometry
import MapPipeline
import MapRenderCairo
import MapSnapshot

/// The real basemap: the vector-tile frame pipeline (`MapRenderer`) over the default style and the embedded data
/// (`Data/styles/default.json`, `Data/world.mbtiles`, `Data/helsinki.mbtiles`), executed by the Cairo backend straight
/// into the map view's drawing context. Flat frames compose cached tile images; pitched frames draw vectors.
/// - Thread rules: main actor, like the map view that owns it.
@MainActor final class VectorBasemapRenderer: BasemapRenderer {
    /// The pipeline and its Cairo backend.
    let snapshotter: Snapshotter

    /// Loads the style at `styleFile` (the default style when nil) and opens its sources.
    /// - Throws: the style's load error or the pipeline's source error, naming the file.
    init(styleFile: String? = nil) throws {
        snapshotter = try Snapshotter(styleFile: styleFile)
    }

    /// Tiles are read synchronously from local files, so a drawn frame is complete.
    var needsFrames: Bool { false }

    /// The attribution line of the last frame; the map's controls draw it inside the padding, above the markers
    /// (the pipeline's own line, always at the view's bottom-left, is taken out of the frame).
    private(set) var attribution: String?

    func draw(camera: CameraState, in context: CGContext, scale: CGFloat) {
        var list = snapshotter.renderer.displayList(camera: camera, scale: Double(scale))
        let text = snapshotter.renderer.lastFrameStatistics.attribution
        attribution = text.isEmpty ? nil : text
        if !text.isEmpty, case .text(let command)? = list.commands.last, command.text == text {
            list.commands.removeLast()
        }
        snapshotter.backend.draw(list, context: context._cairoContext, isScaled: true)
    }
}

extension GMSMapView {
    /// Makes the basemap of each new map view, on its first frame: the vector basemap over the embedded data, or the
    /// plain stand-in (with a logged warning naming the problem) when the style or data cannot be found. Tests
    /// replace it to draw markers over a plain, data-independent background. Main actor.
    static var makeDefaultBasemap: () -> any BasemapRenderer = {
        do {
            return try VectorBasemapRenderer()
        } catch {
            GMSLog.warning(
                "GMSMapView: no map data (\(error)); drawing a plain background. Set WAYMARK_DATA_DIR to the Data/"
                    + " folder of a Waymark checkout, or run from inside one.")
            return PlainBasemapRenderer()
        }
    }
}
