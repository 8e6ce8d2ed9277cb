import Foundation
import MapTestSupport
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// A path of `(latitude, longitude)` pairs.
@MainActor func shapePath(_ points: [(Double, Double)]) -> GMSMutablePath {
    let path = GMSMutablePath()
    for p in points { path.addLatitude(p.0, longitude: p.1) }
    return path
}

/// The bounding box (x0, y0, x1, y1, count) of the pixels satisfying `test`, or nil.
func pixelBox(_ image: UIImage, where test: ((r: Int, g: Int, b: Int, a: Int)) -> Bool)
    -> (x0: Int, y0: Int, x1: Int, y1: Int, count: Int)?
{
    let bitmap = image.bitmaps[0]
    var box: (x0: Int, y0: Int, x1: Int, y1: Int, count: Int)?
    for y in 0..<bitmap.height {
        for x in 0..<bitmap.width where test(pixelAt(image, x, y)) {
            if let b = box {
                box = (min(b.x0, x), min(b.y0, y), max(b.x1, x), max(b.y1, y), b.count + 1)
            } else {
                box = (x, y, x, y, 1)
            }
        }
    }
    return box
}

/// Shapes drawn through the overlay stage over the plain test basemap, compared with goldens in
/// `Tests/GoogleMapsTests/Goldens` (each looked at when made) and checked pixel by pixel where the geometry is known.
/// The pixel of `image` (rendered from `map`) at a coordinate.
@MainActor func pixel(_ image: UIImage, _ map: GMSMapView, _ lat: Double, _ lng: Double) -> (
    r: Int, g: Int, b: Int, a: Int
) {
    let s = map.projection.point(for: CLLocationCoordinate2D(latitude: lat, longitude: lng))
    return pixelAt(image, Int(s.x), Int(s.y))
}

@MainActor @Suite struct ShapeDrawingTests {
    static let london = CLLocationCoordinate2D(latitude: 51.5, longitude: -0.127)

    func golden(_ image: UIImage, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectGolden(image, name, sourceLocation: sourceLocation)
    }

    @Test func polylineWithWidthColourAndGradientSpanUnderBearingAndPitch() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.london, zoom: 15, bearing: 30, viewingAngle: 45))
        let line = GMSPolyline(
            path: shapePath([(51.497, -0.135), (51.5, -0.13), (51.498, -0.124), (51.503, -0.12), (51.502, -0.116)]))
        line.strokeWidth = 8
        line.strokeColor = .blue
        line.spans = [
            GMSStyleSpan(color: .red),
            GMSStyleSpan(style: .gradient(from: .red, to: .yellow), segments: 2),
            GMSStyleSpan(color: UIColor(red: 0, green: 0.6, blue: 0, alpha: 1)),
        ]
        line.map = map
        let image = map.renderFrame(scale: 1)
        // All three paints show: red, yellow-ish (gradient end) and green; no blue (spans replace strokeColor).
        #expect(countPixels(image, in: (0..<400, 0..<300)) { isColor($0, 255, 0, 0, tolerance: 30) } > 50)
        #expect(countPixels(image, in: (0..<400, 0..<300)) { isColor($0, 0, 153, 0, tolerance: 30) } > 50)
        #expect(countPixels(image, in: (0..<400, 0..<300)) { $0.r > 200 && $0.g > 150 && $0.b < 80 } > 20)
        #expect(countPixels(image, in: (0..<400, 0..<300)) { isColor($0, 0, 0, 255, tolerance: 40) } == 0)
        golden(image, "polyline-spans-bearing30-pitch45")
    }

    @Test func geodesicPolylineHelsinkiToNewYorkCurvesNorthAtZoom2() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 52, longitude: -25, zoom: 2))
        let helsinki = CLLocationCoordinate2D(latitude: 60.1699, longitude: 24.9384)
        let newYork = CLLocationCoordinate2D(latitude: 40.7128, longitude: -74.006)
        let geodesic = GMSPolyline(
            path: shapePath([(helsinki.latitude, helsinki.longitude), (newYork.latitude, newYork.longitude)]))
        geodesic.geodesic = true
        geodesic.strokeWidth = 3
        geodesic.strokeColor = .red
        geodesic.map = map
        let straight = GMSPolyline(path: geodesic.path)
        straight.strokeWidth = 2
        straight.map = map
        let image = map.renderFrame(scale: 1)
        // The great circle runs north of the straight Mercator line: over the middle longitude it is higher.
        let projection = map.projection
        let midX = Int((projection.point(for: helsinki).x + projection.point(for: newYork).x) / 2)
        var redY: Int?
        var blueY: Int?
        for y in 0..<300 {
            let p = pixelAt(image, midX, y)
            if redY == nil, isColor(p, 255, 0, 0, tolerance: 60) { redY = y }
            if blueY == nil, isColor(p, 0, 0, 255, tolerance: 60) { blueY = y }
        }
        #expect(redY != nil && blueY != nil)
        if let redY, let blueY { #expect(redY + 10 < blueY, "geodesic at y \(redY), straight at y \(blueY)") }
        golden(image, "geodesic-helsinki-new-york-z2")
    }

    @Test func polygonWithTwoHolesLeavesTheHolesUnfilled() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.london, zoom: 13))
        let polygon = GMSPolygon(path: shapePath([(51.49, -0.15), (51.51, -0.15), (51.51, -0.10), (51.49, -0.10)]))
        // Holes wound both ways: the result must not depend on it.
        polygon.holes = [
            shapePath([(51.495, -0.145), (51.505, -0.145), (51.505, -0.135), (51.495, -0.135)]),
            shapePath([(51.495, -0.12), (51.495, -0.11), (51.505, -0.11), (51.505, -0.12)]),
        ]
        polygon.fillColor = UIColor(red: 0.2, green: 0.4, blue: 1, alpha: 0.6)
        polygon.strokeColor = .black
        polygon.strokeWidth = 2
        polygon.map = map
        let image = map.renderFrame(scale: 1)
        let at = { (lat: Double, lng: Double) in pixel(image, map, lat, lng) }
        #expect(isLand(at(51.5, -0.14)), "first hole")
        #expect(isLand(at(51.5, -0.115)), "second hole")
        #expect(!isLand(at(51.5, -0.127)), "between the holes is filled")
        #expect(isLand(at(51.5, -0.155)), "outside")
        golden(image, "polygon-two-holes")
    }

    @Test func selfIntersectingPolygonDrawsNonZeroWithoutCrashing() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.london, zoom: 14))
        // A pentagram: non-zero fills the centre too.
        var points: [(Double, Double)] = []
        for k in 0..<5 {
            let a = Double(k * 2) * 2 * .pi / 5 - .pi / 2
            points.append((51.5 - 0.012 * sin(a), -0.127 + 0.02 * cos(a)))
        }
        let star = GMSPolygon(path: shapePath(points))
        star.fillColor = .red
        star.map = map
        let image = map.renderFrame(scale: 1)
        #expect(isColor(pixelAt(image, 200, 150), 255, 0, 0, tolerance: 20), "the centre winds twice: filled")
    }

    @Test func circlesOf1kmAtTheEquatorAnd60NorthCompareAsMercatorSays() {
        _ = installMapClock()
        func circleImage(latitude: Double) -> UIImage {
            let center = CLLocationCoordinate2D(latitude: latitude, longitude: 10)
            let map = makeMap(GMSCameraPosition(target: center, zoom: 13))
            let circle = GMSCircle(position: center, radius: 1000)
            circle.fillColor = UIColor(red: 1, green: 0, blue: 0, alpha: 0.5)
            circle.strokeColor = .red
            circle.strokeWidth = 2
            circle.map = map
            return map.renderFrame(scale: 1)
        }
        let equator = circleImage(latitude: 0)
        let north = circleImage(latitude: 60)
        let red: ((r: Int, g: Int, b: Int, a: Int)) -> Bool = { $0.r > 200 && $0.g < 180 && $0.b < 180 }
        let e = pixelBox(equator, where: red)
        let n = pixelBox(north, where: red)
        #expect(e != nil && n != nil)
        if let e, let n {
            // 1 km at zoom 13 on the equator: 2000 m / 19.11 m per point ≈ 105 pt across (plus the stroke).
            let eh = Double(e.y1 - e.y0)
            let nh = Double(n.y1 - n.y0)
            #expect(abs(eh - 104.7) < 4, "equator height \(eh)")
            // At 60° N Mercator stretches by 1 / cos 60° = 2: twice as tall (and as wide).
            #expect(abs(nh / eh - 2) < 0.05, "ratio \(nh / eh)")
            #expect(abs(Double(n.x1 - n.x0) / Double(e.x1 - e.x0) - 2) < 0.05)
        }
        golden(equator, "circle-1km-equator")
        golden(north, "circle-1km-60n")
    }

    @Test func groundOverlayRotated30Degrees() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.london, zoom: 15))
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        let icon = UIGraphicsImageRenderer(size: CGSize(width: 64, height: 32), format: format).image { c in
            c.cgContext.setFillColor(UIColor(red: 0, green: 0.5, blue: 1, alpha: 1).cgColor)
            c.cgContext.fill(CGRect(x: 0, y: 0, width: 64, height: 32))
            c.cgContext.setFillColor(UIColor.red.cgColor)
            c.cgContext.fill(CGRect(x: 0, y: 0, width: 16, height: 16))
        }
        let overlay = GMSGroundOverlay(position: Self.london, icon: icon, zoomLevel: 14)
        overlay.bearing = 30
        overlay.map = map
        let image = map.renderFrame(scale: 1)
        // At zoom 15 the image (native at 14) is drawn twice its size: 128 × 64 points about the centre.
        let blue = pixelBox(image) { !isLand($0) }
        #expect(blue != nil)
        if let blue {
            // Turned 30°: the box of a 128 × 64 rectangle is 128 cos 30 + 64 sin 30 ≈ 143 wide, ≈ 119 tall.
            #expect(abs(Double(blue.x1 - blue.x0) - 142.9) < 4, "width \(blue.x1 - blue.x0)")
            #expect(abs(Double(blue.y1 - blue.y0) - 119.4) < 4, "height \(blue.y1 - blue.y0)")
        }
        // The red corner (the image's top-left) turned clockwise about the centre: left of and above the centre.
        let red = pixelBox(image) { isColor($0, 255, 0, 0, tolerance: 30) }
        #expect(red != nil)
        if let red { #expect(red.x1 < 200 && red.y1 < 150) }
        golden(image, "ground-overlay-bearing30")
    }

    @Test func zOrderAmongShapesAndMarkers() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.london, zoom: 15))
        func square(_ dLat: Double, _ dLng: Double, _ color: UIColor, z: Int32) -> GMSPolygon {
            let lat = Self.london.latitude + dLat
            let lng = Self.london.longitude + dLng
            let p = GMSPolygon(
                path: shapePath([
                    (lat - 0.002, lng - 0.003), (lat + 0.002, lng - 0.003), (lat + 0.002, lng + 0.003),
                    (lat - 0.002, lng + 0.003),
                ]))
            p.fillColor = color
            p.zIndex = z
            return p
        }
        // Added top first: zIndex, not order of addition, decides.
        let top = square(0.001, 0.001, .red, z: 3)
        let middle = square(0, 0, .green, z: 2)
        let bottom = square(-0.001, -0.001, .blue, z: 1)
        for p in [top, middle, bottom] { p.map = map }
        // Same zIndex: the later one is above.
        let a = GMSPolyline(path: shapePath([(51.5, -0.135), (51.5, -0.119)]))
        a.strokeWidth = 10
        a.strokeColor = .black
        a.zIndex = 5
        a.map = map
        let b = GMSPolyline(path: shapePath([(51.498, -0.127), (51.502, -0.127)]))
        b.strokeWidth = 10
        b.strokeColor = .yellow
        b.zIndex = 5
        b.map = map
        // A marker with a low zIndex is still above every shape.
        let marker = GMSMarker(position: CLLocationCoordinate2D(latitude: 51.4985, longitude: -0.13))
        marker.zIndex = -10
        marker.icon = houseImage(scale: 1, color: .magenta)
        marker.map = map
        let image = map.renderFrame(scale: 1)
        let at = { (lat: Double, lng: Double) in pixel(image, map, lat, lng) }
        #expect(isColor(at(51.5005, -0.1255), 255, 0, 0), "red (z 3) over green (z 2)")
        #expect(isColor(at(51.4985, -0.1275), 0, 255, 0), "green (z 2) over blue (z 1)")
        #expect(isColor(at(51.4975, -0.1305), 0, 0, 255), "blue alone")
        #expect(isColor(at(51.5, -0.127), 255, 255, 0), "the later of two equal zIndex lines on top")
        let m = map.projection.point(for: marker.position)
        #expect(isColor(pixelAt(image, Int(m.x), Int(m.y) - 6), 255, 0, 255), "the marker above all shapes")
        golden(image, "z-order-shapes-markers")
    }

    @Test func texturedStampsAreDrawnOverTheSpanColour() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.london, zoom: 15))
        let p = map.projection
        func line(_ y: CGFloat, _ style: GMSStrokeStyle) {
            let a = p.coordinate(for: CGPoint(x: 40, y: y))
            let b = p.coordinate(for: CGPoint(x: 360, y: y))
            let l = GMSPolyline(path: shapePath([(a.latitude, a.longitude), (b.latitude, b.longitude)]))
            l.strokeWidth = 24
            l.spans = [GMSStyleSpan(style: style)]
            l.map = map
        }
        let red = GMSStrokeStyle.solidColor(.red)
        red.stampStyle = GMSTextureStyle(image: houseImage(scale: 1))
        line(100, red)
        line(200, .transparentStroke(withStamp: GMSSpriteStyle(image: houseImage(scale: 1))))
        let image = map.renderFrame(scale: 1)
        // The red base shows through the stamps' transparent corners; the black houses cover it elsewhere.
        #expect(countPixels(image, in: (40..<360, 90..<110)) { isColor($0, 255, 0, 0, tolerance: 30) } > 200)
        #expect(countPixels(image, in: (40..<360, 90..<110)) { isColor($0, 0, 0, 0, tolerance: 40) } > 1000)
        // A transparent stroke shows only the stamps.
        #expect(countPixels(image, in: (40..<360, 190..<210)) { isColor($0, 255, 0, 0, tolerance: 60) } == 0)
        #expect(countPixels(image, in: (40..<360, 190..<210)) { isColor($0, 0, 0, 0, tolerance: 40) } > 1000)
        golden(image, "stamped-polylines")
    }

    @Test func clearRemovesEveryShapeFromTheFrame() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.london, zoom: 14))
        let polygon = GMSPolygon(path: shapePath([(51.49, -0.15), (51.51, -0.15), (51.51, -0.10)]))
        polygon.map = map
        let circle = GMSCircle(position: Self.london, radius: 300)
        circle.fillColor = .red
        circle.map = map
        #expect(!isLand(pixelAt(map.renderFrame(scale: 1), 200, 150)))
        map.clear()
        #expect(polygon.map == nil && circle.map == nil)
        #expect(map.overlayStage.count == 0)
        let image = map.renderFrame(scale: 1)
        #expect(countPixels(image, in: (0..<400, 0..<300)) { !isLand($0) } == 0)
        #expect(map.overlayStage.lastCommandCount == 0)
    }

    @Test func pathsAreCopiedOnAssignment() {
        _ = installMapClock()
        let path = shapePath([(51.49, -0.15), (51.51, -0.10)])
        let line = GMSPolyline(path: path)
        path.addLatitude(0, longitude: 0)
        #expect(line.path?.count() == 2)
        #expect(line.path !== path)
    }

    @Test func preparedGeometryIsCachedPerIntegerZoomAndDroppedOnEdit() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.london, zoom: 14))
        let line = GMSPolyline(path: shapePath([(51.49, -0.15), (51.51, -0.10)]))
        line.map = map
        _ = map.renderFrame(scale: 1)
        map.camera = GMSCameraPosition(target: CLLocationCoordinate2D(latitude: 51.501, longitude: -0.12), zoom: 14.5)
        _ = map.renderFrame(scale: 1)
        #expect(line.drawing.preparedLevelCount == 1, "pan and fractional zoom reuse level 14")
        map.camera = GMSCameraPosition(target: Self.london, zoom: 15.2)
        _ = map.renderFrame(scale: 1)
        #expect(line.drawing.preparedLevelCount == 2)
        line.strokeWidth = 3
        _ = map.renderFrame(scale: 1)
        #expect(line.drawing.preparedLevelCount == 1, "an edit drops the prepared levels")
    }

    @Test func defaultsFollowGooglesReference() {
        _ = installMapClock()
        let line = GMSPolyline()
        #expect(line.strokeWidth == 1 && line.strokeColor == .blue && !line.geodesic && line.spans == nil)
        #expect(!line.isTappable && line.zIndex == 0 && line.path == nil)
        let polygon = GMSPolygon()
        #expect(polygon.fillColor == .blue && polygon.strokeColor == nil && polygon.strokeWidth == 1)
        let circle = GMSCircle()
        #expect(circle.strokeColor == .black && circle.fillColor == nil && circle.strokeWidth == 1)
        let ground = GMSGroundOverlay()
        #expect(ground.anchor == CGPoint(x: 0.5, y: 0.5) && ground.opacity == 1 && ground.bearing == 0)
        #expect(ground.icon == nil && ground.bounds == nil)
        let span = GMSStyleSpan(color: .red)
        #expect(span.segments == 1)
        #expect(GMSStyleSpan(color: .red, segments: -2).segments == 1)
    }

    @Test func groundOverlayBoundsAndPositionFollowEachOther() {
        _ = installMapClock()
        let sw = CLLocationCoordinate2D(latitude: 40.712216, longitude: -74.22655)
        let ne = CLLocationCoordinate2D(latitude: 40.773941, longitude: -74.12544)
        let overlay = GMSGroundOverlay(bounds: GMSCoordinateBounds(coordinate: sw, coordinate: ne), icon: nil)
        let b = overlay.bounds
        #expect(b != nil)
        if let b {
            #expect(abs(b.southWest.latitude - sw.latitude) < 1e-9 && abs(b.northEast.longitude - ne.longitude) < 1e-9)
        }
        #expect(abs(overlay.position.longitude - (sw.longitude + ne.longitude) / 2) < 1e-9)
        overlay.position = CLLocationCoordinate2D(latitude: 0, longitude: 0)
        if let moved = overlay.bounds {
            #expect(abs(moved.southWest.longitude + moved.northEast.longitude) < 1e-9, "centred on 0")
        }
        overlay.anchor = CGPoint(x: 0, y: 1)
        #expect(abs(overlay.position.longitude - (overlay.bounds?.southWest.longitude ?? .nan)) < 1e-9)
    }

    @Test func styleSpansFollowLengthsAlongThePath() {
        let path = GMSMutablePath()
        path.addLatitude(0, longitude: 0)
        path.addLatitude(0, longitude: 1)
        path.addLatitude(0, longitude: 2)
        // One degree on the equator is 111,195 m on Google's sphere: 100 km spans cover 0.899 segment each.
        let white = GMSStrokeStyle.solidColor(.white)
        let black = GMSStrokeStyle.solidColor(.black)
        let spans = GMSStyleSpans(path, [white, black], [100_000, 50_000], .geodesic)
        let metresPerDegree = 6_371_009 * Double.pi / 180
        let expected = [100_000 / metresPerDegree, 50_000 / metresPerDegree, 2 - 150_000 / metresPerDegree]
        #expect(spans.count == 3)
        for (span, e) in zip(spans, expected) { #expect(abs(span.segments - e) < 1e-6) }
        #expect(spans.map(\.style) == [white, black, white])
        #expect(abs(spans.map(\.segments).reduce(0, +) - 2) < 1e-9)
        #expect(GMSStyleSpans(path, [], [1], .geodesic).isEmpty)
        #expect(GMSStyleSpans(path, [white], [0], .rhumb).isEmpty)
    }
}
