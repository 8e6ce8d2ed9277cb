import Foundation
import LinuxUIKit
import MapGeometry

/// The seam between `GMSMapView` and whatever draws the map under the overlays.
///
/// `GMSMapView` calls ``draw(camera:in:scale:)`` once per rendered frame, first, before markers and info windows.
/// The context's user space is the view's bounds in points (origin top-left, y down); `scale` is device pixels per
/// point (the context is already scaled by it). The implementation must cover the whole `camera.size` rectangle.
/// ``needsFrames`` asks the host for a frame (a tile arrived); ``isLoading`` says tiles are still being made (the
/// host may sleep meanwhile: the basemap's arrival callback wakes it).
/// - Thread rules: main actor, called from the map's rendering.
@MainActor protocol BasemapRenderer: AnyObject {
    /// Draws the basemap for `camera` (size and padding included) into `context`.
    func draw(camera: CameraState, in context: CGContext, scale: CGFloat)
    /// `true` while a later frame for the same camera will look different and should be drawn now (tiles arrived).
    var needsFrames: Bool { get }
    /// `true` while the last frame lacked tiles still being made, or made tiles wait to be drawn (§2.10:
    /// `mapViewDidFinishTileRendering` waits for it to clear).
    var isLoading: Bool { get }
    /// The attribution line for the map's controls to draw inside the padding (nil: none; see `MapControls`).
    var attribution: String? { get }
    /// The base-map point of interest drawn under `point` (view points) in the last frame, top-most first, or nil
    /// (D7: below markers and overlays, above the bare map). `placeID` is stable for the same feature.
    func poi(at point: CGPoint) -> (placeID: String, name: String, location: CLLocationCoordinate2D)?
}

extension BasemapRenderer {
    /// Synchronous basemaps never load.
    var isLoading: Bool { false }

    /// No points of interest (plain basemaps).
    func poi(at point: CGPoint) -> (placeID: String, name: String, location: CLLocationCoordinate2D)? { nil }
}

/// The stand-in basemap until the vector-tile pipeline is plugged in: a plain land colour (#f2efe9) with a faint
/// Web Mercator grid (lines every 1/2^k of the world, k chosen so they are 128–256 pt apart at pitch 0) that turns,
/// pans and tilts with the camera.
@MainActor final class PlainBasemapRenderer: BasemapRenderer {
    /// The land colour, #f2efe9.
    static let landColor = UIColor(red: 242 / 255, green: 239 / 255, blue: 233 / 255, alpha: 1)
    /// The grid colour: 8 % black.
    static let gridColor = UIColor(white: 0, alpha: 0.08)

    var needsFrames: Bool { false }

    func draw(camera: CameraState, in context: CGContext, scale: CGFloat) {
        let size = CGSize(width: camera.size.width, height: camera.size.height)
        context.setFillColor(Self.landColor.cgColor)
        context.fill(CGRect(origin: .zero, size: size))
        guard size.width > 0, size.height > 0 else { return }
        let t = camera.transform
        // World bounding box of the visible ground (screen corners clamped below the horizon).
        let corners = [
            ScreenPoint(x: 0, y: 0), ScreenPoint(x: size.width, y: 0), ScreenPoint(x: 0, y: size.height),
            ScreenPoint(x: size.width, y: size.height),
        ].map { t.worldPointClampedToHorizon(for: $0) }
        let xs = corners.map { $0.x }
        let ys = corners.map { $0.y }
        guard let minX = xs.min(), let maxX = xs.max(), let minY0 = ys.min(), let maxY0 = ys.max() else { return }
        let minY = max(0, minY0)
        let maxY = min(1, maxY0)
        guard minY < maxY else { return }
        let level = max(0, floor(camera.zoom))
        let step = 1 / pow(2, level)
        let maxLines = 400.0
        guard (maxX - minX) / step < maxLines, (maxY - minY) / step < maxLines else { return }
        context.setStrokeColor(Self.gridColor.cgColor)
        context.setLineWidth(1 / scale)
        context.beginPath()
        func point(_ x: Double, _ y: Double) -> CGPoint {
            let s = t.screenPoint(forUnwrapped: WorldPoint(x: x, y: y))
            return CGPoint(x: s.x, y: s.y)
        }
        var x = (minX / step).rounded(.up) * step
        while x <= maxX {
            context.move(to: point(x, minY))
            context.addLine(to: point(x, maxY))
            x += step
        }
        var y = (minY / step).rounded(.up) * step
        while y <= maxY {
            context.move(to: point(minX, y))
            context.addLine(to: point(maxX, y))
            y += step
        }
        context.strokePath()
    }
}
