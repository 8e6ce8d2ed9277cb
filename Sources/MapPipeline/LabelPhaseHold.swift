// The label stage's pixel grid while the camera pans (Waymark's own; MapPipeline/README.md, "Labels while the map
// pans").
import MapGeometry

/// Holds the labels' sub-pixel phase while the map only pans, as the tile images hold theirs.
///
/// A flat frame composites its cached tile images at whole device pixels (each within ½ device pixel of its exact
/// place; ``TileImageFrame``), so while the map pans the roads move by whole device pixels. Labels drawn at their
/// exact places would move by fractions of one instead: each frame's glyphs would sit at new sub-pixel phases, their
/// masks drawn anew every frame (``GlyphMaskCache``), and the text would shimmer against the roads it names.
///
/// So the label stage places and draws a frame's labels for ``camera(for:scale:)``: the frame's camera moved by less
/// than ½ device pixel on each screen axis, to where the map has moved by whole device pixels since the hold began.
/// Every label then keeps its phase from frame to frame (a pan moves it by whole pixels, as it moves the tile images)
/// and its glyph masks are drawn once. The hold begins again (the frame's own camera, exactly) whenever the zoom,
/// bearing, size, padding or scale changes, when the camera is pitched (a pan then does not move the map rigidly),
/// when the camera jumps more than the view's larger side from the last frame (another place: a server's next
/// request), and after a pan of more than 2²⁰ device pixels. A single frame, a snapshot and the first frame after
/// any such change draw labels exactly where the camera puts them. Frame thread only.
struct LabelPhaseHold {
    /// The camera the hold began with, its scale, and its centre as a world point.
    private var held: (camera: CameraState, scale: Double, center: WorldPoint)?
    /// The centre of the last frame's camera while held.
    private var last: LatLng?

    /// The camera the frame's labels are placed and drawn for (see the type): `camera` itself, or `camera` moved by
    /// less than ½ device pixel on each screen axis. `scale`: device pixels a point, as the frame's.
    mutating func camera(for camera: CameraState, scale: Double) -> CameraState {
        guard let held, camera.pitch == 0, held.camera.pitch == 0, held.scale == scale,
            held.camera.zoom == camera.zoom, held.camera.bearing == camera.bearing, held.camera.size == camera.size,
            held.camera.padding == camera.padding
        else { return begin(camera, scale: scale) }
        if held.camera == camera {
            last = camera.center
            return camera
        }
        let transform = camera.transform
        let origin = transform.opticalCenter
        // A jump of more than the view since the last frame (another place, as a server's next request is) is not a
        // pan: the hold begins again there.
        let before = transform.screenPoint(for: last ?? held.camera.center)
        let view = max(camera.size.width, camera.size.height)
        guard abs(before.x - origin.x) <= view, abs(before.y - origin.y) <= view else {
            return begin(camera, scale: scale)
        }
        last = camera.center
        // Device pixels the map moved since the hold began: where the held centre is now, from the optical centre.
        let at = transform.screenPoint(forUnwrapped: held.center)
        let moved = (x: (at.x - origin.x) * scale, y: (at.y - origin.y) * scale)
        let limit = Double(1 << 20)
        guard moved.x.isFinite, moved.y.isFinite, abs(moved.x) < limit, abs(moved.y) < limit else {
            return begin(camera, scale: scale)
        }
        // The camera's centre moved by the fractions: the held centre lands `moved` rounded from the optical centre.
        let fraction = ScreenPoint(
            x: (moved.x - moved.x.rounded()) / scale, y: (moved.y - moved.y.rounded()) / scale)
        guard fraction.x != 0 || fraction.y != 0,
            let center = transform.worldPoint(for: ScreenPoint(x: origin.x + fraction.x, y: origin.y + fraction.y))
        else { return camera }
        var placed = camera
        placed.center = WebMercator.latLng(center)
        return placed
    }

    /// Begins the hold at `camera` (or ends it, for a camera it cannot hold) and returns `camera`.
    private mutating func begin(_ camera: CameraState, scale: Double) -> CameraState {
        last = camera.center
        held =
            camera.pitch == 0 && scale.isFinite && scale > 0
            ? (camera, scale, WebMercator.worldPoint(camera.center)) : nil
        return camera
    }
}
