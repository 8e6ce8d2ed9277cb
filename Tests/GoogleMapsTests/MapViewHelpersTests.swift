import Foundation
import MapTestSupport
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// Pins fonts before the first Pango call (the Makefile exports the same variable).
let pinMapFonts: Void = Fixtures.pinFonts()

/// A fresh `ManualClock` installed as the shared animator clock (the map's camera animator reads the same clock).
@MainActor func installMapClock(start: Double = 1000) -> ManualClock {
    GMSMapView.makeDefaultBasemap = { _ in PlainBasemapRenderer() }
    _ = pinMapFonts
    UIAnimator.shared.reset()
    let clock = ManualClock(start: start)
    UIAnimator.shared.clock = clock
    GMSLog.messages.removeAll()
    return clock
}

/// A 400 × 300 pt map at `camera` (London at zoom 14 by default).
@MainActor func makeMap(
    _ camera: GMSCameraPosition = GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14),
    size: CGSize = CGSize(width: 400, height: 300)
) -> GMSMapView {
    GMSMapView.map(withFrame: CGRect(origin: .zero, size: size), camera: camera)
}

/// Ticks the map `frames` times, advancing the clock by `step` seconds before each tick.
@MainActor func run(_ map: GMSMapView, _ clock: ManualClock, frames: Int, step: Double = 1.0 / 60) {
    for _ in 0..<frames {
        clock.advance(by: step)
        map.tick()
    }
}

/// Records every delegate callback as a line.
@MainActor final class RecordingDelegate: GMSMapViewDelegate {
    var log: [String] = []
    var consumeMarkerTaps = false
    var infoWindowView: UIView?
    var infoContentsView: UIView?
    var onIdle: (() -> Void)?

    func mapView(_ mapView: GMSMapView, willMove gesture: Bool) { log.append("willMove(\(gesture))") }
    func mapView(_ mapView: GMSMapView, didChange position: GMSCameraPosition) { log.append("didChange") }
    func mapView(_ mapView: GMSMapView, idleAt position: GMSCameraPosition) {
        log.append("idle")
        onIdle?()
    }
    func mapView(_ mapView: GMSMapView, didTapAt coordinate: CLLocationCoordinate2D) {
        log.append("didTapAt(selected: \(mapView.selectedMarker?.title ?? "nil"))")
    }
    func mapView(_ mapView: GMSMapView, didLongPressAt coordinate: CLLocationCoordinate2D) {
        log.append("didLongPressAt")
    }
    func mapView(_ mapView: GMSMapView, didTap marker: GMSMarker) -> Bool {
        log.append("didTap(\(marker.title ?? "?"))")
        return consumeMarkerTaps
    }
    func mapView(_ mapView: GMSMapView, didTapInfoWindowOf marker: GMSMarker) {
        log.append("didTapInfoWindowOf(\(marker.title ?? "?"))")
    }
    func mapView(_ mapView: GMSMapView, didLongPressInfoWindowOf marker: GMSMarker) {
        log.append("didLongPressInfoWindowOf(\(marker.title ?? "?"))")
    }
    func mapView(_ mapView: GMSMapView, didCloseInfoWindowOf marker: GMSMarker) {
        log.append("didClose(\(marker.title ?? "?"))")
    }
    func mapView(_ mapView: GMSMapView, markerInfoWindow marker: GMSMarker) -> UIView? {
        log.append("markerInfoWindow(\(marker.title ?? "?"))")
        return infoWindowView
    }
    func mapView(_ mapView: GMSMapView, markerInfoContents marker: GMSMarker) -> UIView? {
        log.append("markerInfoContents(\(marker.title ?? "?"))")
        return infoContentsView
    }
}

/// Straight RGBA bytes of one pixel.
/// Makes new map views draw their MapLibre style with the vector basemap (the plain stand-in when the style cannot
/// load) instead of ``installMapClock(start:)``'s plain one; the returned closure restores the previous factory.
@MainActor func useVectorBasemap() -> () -> Void {
    let saved = GMSMapView.makeDefaultBasemap
    GMSMapView.makeDefaultBasemap = { (style: BasemapStyle) -> any BasemapRenderer in
        do {
            return try VectorBasemapRenderer(basemap: style)
        } catch {
            return PlainBasemapRenderer()
        }
    }
    return { GMSMapView.makeDefaultBasemap = saved }
}

func pixelAt(_ image: UIImage, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int, a: Int) {
    let p = image.bitmaps[0].pixel(x: x, y: y)
    return (Int(p.r), Int(p.g), Int(p.b), Int(p.a))
}

/// True when the pixel is close to the straight RGB colour given (alpha ignored).
func isColor(_ p: (r: Int, g: Int, b: Int, a: Int), _ r: Int, _ g: Int, _ b: Int, tolerance: Int = 12) -> Bool {
    abs(p.r - r) <= tolerance && abs(p.g - g) <= tolerance && abs(p.b - b) <= tolerance
}

/// The plain basemap's land colour.
let land = (r: 242, g: 239, b: 233)

/// True when the pixel shows bare land (or the faint grid over it).
func isLand(_ p: (r: Int, g: Int, b: Int, a: Int)) -> Bool {
    isColor(p, land.r, land.g, land.b, tolerance: 24) && p.r >= p.b
}

/// Counts pixels in a rectangle satisfying `test`.
func countPixels(
    _ image: UIImage, in rect: (x: Range<Int>, y: Range<Int>), where test: ((r: Int, g: Int, b: Int, a: Int)) -> Bool
) -> Int {
    var n = 0
    for y in rect.y { for x in rect.x where test(pixelAt(image, x, y)) { n += 1 } }
    return n
}

/// A 24 × 24 pt "house": black square body and roof on transparent.
@MainActor func houseImage(scale: CGFloat = 2, color: UIColor = .black) -> UIImage {
    makeHouseImage(scale: scale, color: color)
}

/// Compares with `Tests/GoogleMapsTests/Goldens/<name>.png` (`UPDATE=1` rewrites and fails).
@MainActor func expectGolden(
    _ image: UIImage, _ name: String, channelTolerance: Int = 12,
    maxDifferingFraction: Double = 0.004, sourceLocation: SourceLocation = #_sourceLocation
) {
    expectImage(
        image, matchesGolden: name, channelTolerance: channelTolerance,
        maxDifferingFraction: maxDifferingFraction, sourceLocation: sourceLocation)
}
