import Foundation
import MapGeometry
import MapTestSupport
import Testing

/// A reference camera written independently of `CameraTransform`: an explicit eye position and ray casting onto the
/// ground plane in 3-D, in world points relative to the camera centre (x east, y south, z up).
private struct RayCaster {
    let state: CameraState
    let eye: (Double, Double, Double)
    let forward: (Double, Double, Double)
    let right: (Double, Double, Double)
    let down: (Double, Double, Double)
    let focal: Double
    let principal: (Double, Double)

    init(_ s: CameraState) {
        state = s
        let h = s.size.height
        let fovHalf = atan(0.75) / 2  // 36.87° / 2
        focal = 0.5 * h / tan(fovHalf)
        let b = s.bearing * .pi / 180
        let p = s.pitch * .pi / 180
        // Unit vectors on the ground: "ahead" is the bearing direction, "rightward" 90° clockwise of it.
        let ahead = (sin(b), -cos(b))
        let rightward = (cos(b), sin(b))
        // The eye is behind (opposite "ahead") and above the centre.
        eye = (-ahead.0 * focal * sin(p), -ahead.1 * focal * sin(p), focal * cos(p))
        forward = (-eye.0 / focal, -eye.1 / focal, -eye.2 / focal)
        right = (rightward.0, rightward.1, 0)
        // down = forward × right … computed directly: the ground "behind" direction tilted.
        down = (-ahead.0 * cos(p), -ahead.1 * cos(p), -sin(p))
        principal = (
            s.padding.left + (s.size.width - s.padding.left - s.padding.right) / 2,
            s.padding.top + (h - s.padding.top - s.padding.bottom) / 2
        )
    }

    /// Ground offset in world points from the centre under a screen point, or nil when the ray misses the ground.
    func ground(_ sp: ScreenPoint) -> (Double, Double)? {
        let u = (sp.x - principal.0) / focal
        let v = (sp.y - principal.1) / focal
        let d = (forward.0 + u * right.0 + v * down.0, forward.1 + u * right.1 + v * down.1, forward.2 + v * down.2)
        guard d.2 < 0 else { return nil }
        let t = -eye.2 / d.2
        return (eye.0 + t * d.0, eye.1 + t * d.1)
    }

    func latLng(_ sp: ScreenPoint) -> LatLng? {
        guard let g = ground(sp) else { return nil }
        let worldSize = 256 * pow(2, state.zoom)
        let c = WebMercator.worldPoint(state.center)
        return WebMercator.latLng(WorldPoint(x: c.x + g.0 / worldSize, y: c.y + g.1 / worldSize)).wrapped
    }
}

private func lonDifference(_ a: Double, _ b: Double) -> Double {
    var d = (a - b).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 }
    if d < -180 { d += 360 }
    return abs(d)
}

@Suite struct CameraProjectionTests {
    static let centers: [LatLng] = [
        LatLng(latitude: 0, longitude: 0), LatLng(latitude: 84.9, longitude: 10),
        LatLng(latitude: -84.9, longitude: -30), LatLng(latitude: 10, longitude: 179.95),
        LatLng(latitude: -20, longitude: -179.99), LatLng(latitude: 60.17, longitude: 24.94),
    ]
    static let bearings: [Double] = [0, 1, 45, 90, 137.5, 180, 270, 359]
    static let pitches: [Double] = [0, 10, 30, 45, 60, 65]
    static let zooms: [Double] = [2, 5.5, 10, 15, 18.25, 21]

    static func screenGrid(_ s: CameraState) -> [ScreenPoint] {
        var points: [ScreenPoint] = []
        for i in 0...4 {
            for j in 0...4 {
                points.append(ScreenPoint(x: s.size.width * Double(i) / 4, y: s.size.height * Double(j) / 4))
            }
        }
        return points
    }

    /// Screen → coordinate → screen → coordinate at many cameras: the coordinates agree to 1e-6 degrees and the
    /// screen points to 1e-6 points.
    @Test(arguments: centers, zooms)
    func roundTrip(center: LatLng, zoom: Double) {
        for bearing in Self.bearings {
            let maximum = CameraConstraints.maximumPitch(zoom: zoom)
            for pitch in Self.pitches.filter({ $0 < maximum }) + [maximum] {
                let s = CameraState(
                    center: center, zoom: zoom, bearing: bearing, pitch: pitch,
                    size: ScreenSize(width: 375, height: 667),
                    padding: EdgeInsets(top: 20, left: 0, bottom: 40, right: 10))
                let t = s.transform
                for sp in Self.screenGrid(s) {
                    guard let c = t.latLng(for: sp) else {
                        Issue.record("no ground under \(sp) at pitch \(pitch)")
                        continue
                    }
                    let sp2 = t.screenPoint(for: c)
                    // point(for:) uses the world copy nearest the centre; at zoom 2 a wide view shows more than one.
                    let sameCopy = abs(t.worldPoint(for: sp)!.x - t.centerWorld.x) < 0.5
                    #expect(
                        !sameCopy || (abs(sp2.x - sp.x) < 1e-6 && abs(sp2.y - sp.y) < 1e-6),
                        "\(s) \(sp) → \(c) → \(sp2)")
                    guard let c2 = t.latLng(for: sp2) else {
                        Issue.record("lost \(sp2)")
                        continue
                    }
                    #expect(abs(c2.latitude - c.latitude) < 1e-6 && lonDifference(c2.longitude, c.longitude) < 1e-6)
                }
            }
        }
    }

    /// The closed formulas agree with an independent 3-D ray caster.
    @Test(arguments: bearings, pitches)
    func matchesRayCasting(bearing: Double, pitch: Double) {
        for zoom in [3.0, 12.5, 20] {
            let s = CameraState(
                center: LatLng(latitude: 40.7, longitude: -74), zoom: zoom, bearing: bearing, pitch: pitch,
                size: ScreenSize(width: 800, height: 600), padding: EdgeInsets(top: 50, left: 30, bottom: 0, right: 0))
            let reference = RayCaster(s)
            for sp in Self.screenGrid(s) {
                let expected = reference.latLng(sp)!
                let actual = s.latLng(for: sp)!
                #expect(abs(actual.latitude - expected.latitude) < 1e-9)
                #expect(lonDifference(actual.longitude, expected.longitude) < 1e-9)
            }
        }
    }

    /// The nearest world copy (GL JS's `smartWrap`): over the antimeridian a point east of 180° is drawn west of the
    /// view's centre when that copy is nearer; points within half a world and non-finite ones stay.
    @Test func nearestWorldCopyIsWithinHalfAWorldOfTheCentre() {
        var s = CameraState(center: LatLng(latitude: 0, longitude: 179), zoom: 3)
        s.size = ScreenSize(width: 400, height: 300)
        let t = s.transform
        let fiji = WebMercator.worldPoint(LatLng(latitude: -17, longitude: -179))  // x near 0: a world to the west
        let near = t.nearestWorldCopy(of: fiji)
        #expect(isApproximatelyEqual(near.x, fiji.x + 1, tolerance: 1e-12) && near.y == fiji.y)
        #expect(abs(near.x - t.centerWorld.x) <= 0.5)
        let close = WorldPoint(x: t.centerWorld.x - 0.3, y: 0.5)
        #expect(t.nearestWorldCopy(of: close) == close)
        let far = WorldPoint(x: t.centerWorld.x - 7.25, y: 0.5)
        #expect(isApproximatelyEqual(t.nearestWorldCopy(of: far).x, t.centerWorld.x - 0.25, tolerance: 1e-9))
        #expect(t.nearestWorldCopy(of: WorldPoint(x: .nan, y: 0.5)).x.isNaN)
        #expect(t.nearestWorldCopy(of: WorldPoint(x: .infinity, y: 0.5)).x == .infinity)
    }

    @Test func centreIsAtTheOpticalCentre() {
        var s = CameraState(center: LatLng(latitude: 48.85, longitude: 2.35), zoom: 14, bearing: 30, pitch: 45)
        s.size = ScreenSize(width: 400, height: 300)
        let p = s.screenPoint(for: s.center)
        #expect(isApproximatelyEqual(p.x, 200, tolerance: 1e-9) && isApproximatelyEqual(p.y, 150, tolerance: 1e-9))
        s.padding = EdgeInsets(top: 100, left: 0, bottom: 0, right: 50)
        let q = s.screenPoint(for: s.center)
        #expect(isApproximatelyEqual(q.x, 175, tolerance: 1e-9) && isApproximatelyEqual(q.y, 200, tolerance: 1e-9))
        #expect(isApproximatelyEqual(s.cameraDistance, 450, tolerance: 1e-9))
        #expect(isApproximatelyEqual(CameraState.verticalFieldOfView, 36.869_897_645_844_02, tolerance: 1e-9))
    }

    /// Pitch 0, bearing 0: a longitude step of Δ degrees is `256 · 2^z · Δ/360` points to the right, and latitude
    /// follows the Mercator y.
    static let flatCases: [(Double, Double, Double)] = [(0, 3, 10), (0, 3, -45), (30, 7.5, 0.01), (-50, 12, 1)]

    @Test(arguments: flatCases)
    func flatOffsets(latitude: Double, zoom: Double, deltaLongitude: Double) {
        let s = CameraState(
            center: LatLng(latitude: latitude, longitude: 100), zoom: zoom, size: ScreenSize(width: 512, height: 512))
        let world = 256 * pow(2, zoom)
        let p = s.screenPoint(for: LatLng(latitude: latitude, longitude: 100 + deltaLongitude))
        #expect(isApproximatelyEqual(p.x, 256 + world * deltaLongitude / 360, tolerance: 1e-6))
        #expect(isApproximatelyEqual(p.y, 256, tolerance: 1e-6))
        let north = s.screenPoint(for: LatLng(latitude: latitude + 1, longitude: 100))
        let y0 = WebMercatorTests.referenceY(latitude)
        let y1 = WebMercatorTests.referenceY(latitude + 1)
        #expect(isApproximatelyEqual(north.y, 256 + (y1 - y0) * world, tolerance: 1e-6))
    }

    /// Bearing b: the direction b° clockwise from north points up. A point east of the centre is up at bearing 90,
    /// left at 180 and down at 270.
    static let bearingCases: [(Double, Double, Double)] = [
        (90, 0, -1), (180, -1, 0), (270, 0, 1), (0, 1, 0), (45, 0.5.squareRoot(), -(0.5.squareRoot())),
    ]

    @Test(arguments: bearingCases)
    func bearingTurnsTheMap(bearing: Double, ux: Double, uy: Double) {
        let s = CameraState(
            center: LatLng(latitude: 0, longitude: 0), zoom: 4, bearing: bearing,
            size: ScreenSize(width: 300, height: 300))
        let d = 256 * 16 * 1.0 / 360  // 1° east in points
        let p = s.screenPoint(for: LatLng(latitude: 0, longitude: 1))
        #expect(isApproximatelyEqual(p.x, 150 + ux * d, tolerance: 1e-6))
        #expect(isApproximatelyEqual(p.y, 150 + uy * d, tolerance: 1e-6))
    }

    /// Pitch 60, view 800 × 600 (D = 900): the top-centre point is
    /// `300 · 900 / (900 cos 60° − 300 sin 60°)` = 1419.615… world points north of the centre (hand computed).
    @Test func pitchedTopEdge() {
        let s = CameraState(
            center: LatLng(latitude: 0, longitude: 0), zoom: 10, pitch: 60, size: ScreenSize(width: 800, height: 600))
        let w = s.worldPoint(for: ScreenPoint(x: 400, y: 0))!
        let expected = 300.0 * 900 / (450 - 300 * 0.75.squareRoot())
        #expect(isApproximatelyEqual((0.5 - w.y) * 256 * 1024, expected, tolerance: 1e-6))
        #expect(isApproximatelyEqual(w.x, 0.5, tolerance: 1e-15))
        // The near edge is closer: 300 · 900 / (450 + 259.8…).
        let n = s.worldPoint(for: ScreenPoint(x: 400, y: 600))!
        #expect(
            isApproximatelyEqual(
                (n.y - 0.5) * 256 * 1024, 300.0 * 900 / (450 + 300 * 0.75.squareRoot()), tolerance: 1e-6))
        // The quadrilateral is a trapezoid: the far edge is wider than the near edge.
        let q = s.visibleQuad
        #expect(q.farRight.x - q.farLeft.x > q.nearRight.x - q.nearLeft.x)
        #expect(isApproximatelyEqual(q.farLeft.y, q.farRight.y, tolerance: 1e-15))
    }

    /// Above the horizon there is no ground: `nil`, and the clamped variant stays finite and ahead of the camera.
    @Test(arguments: [75.0, 80, 89.9])
    func aboveTheHorizon(pitch: Double) {
        let s = CameraState(
            center: LatLng(latitude: 10, longitude: 10), zoom: 12, bearing: 33, pitch: pitch,
            size: ScreenSize(width: 400, height: 400))
        let t = s.transform
        // Horizon offset −D·cot(p); the view top is at −200.
        let horizon = t.horizonOffset
        #expect(isApproximatelyEqual(horizon, -600 / tan(pitch * .pi / 180), tolerance: 1e-9))
        let top = ScreenPoint(x: 0, y: 0)
        #expect(horizon > -200)
        #expect(s.worldPoint(for: top) == nil)
        #expect(s.latLng(for: top) == nil)
        let clamped = s.worldPointClampedToHorizon(for: top)
        #expect(clamped.x.isFinite && clamped.y.isFinite)
        #expect(isApproximatelyEqual(t.depth(of: clamped), 600 * CameraTransform.maximumDepthFactor, tolerance: 1e-6))
        // Straight down never has a horizon.
        #expect(CameraState(center: s.center, zoom: 12).transform.horizonOffset == -.infinity)
    }

    @Test func nonFiniteCamerasDoNotTrap() {
        let bad: [CameraState] = [
            CameraState(center: LatLng(latitude: .nan, longitude: 0), zoom: 3),
            CameraState(center: LatLng(latitude: 0, longitude: .infinity), zoom: .nan, bearing: .infinity),
            CameraState(
                center: LatLng(latitude: 0, longitude: 0), zoom: 3, pitch: .nan,
                size: ScreenSize(width: .nan, height: 0)),
        ]
        for s in bad {
            _ = s.screenPoint(for: LatLng(latitude: 1, longitude: 1))
            _ = s.latLng(for: ScreenPoint(x: 1, y: 1))
            _ = s.visibleQuad
            #expect(s.coveringTiles(tileZoom: 3).isEmpty)
        }
        let ok = CameraState(center: LatLng(latitude: 0, longitude: 0), zoom: 3)
        let p = ok.screenPoint(for: LatLng(latitude: .nan, longitude: 0))
        #expect(p.y.isNaN)
        #expect(ok.latLng(for: ScreenPoint(x: .nan, y: 0)) == nil)
    }

    @Test func interpolation() {
        let a = CameraState(center: LatLng(latitude: 0, longitude: 170), zoom: 4, bearing: 350, pitch: 0)
        let b = CameraState(center: LatLng(latitude: 0, longitude: -170), zoom: 6, bearing: 10, pitch: 30)
        let m = a.interpolated(to: b, fraction: 0.5)
        #expect(isApproximatelyEqual(m.center.longitude, -180, tolerance: 1e-9))  // across the antimeridian
        #expect(isApproximatelyEqual(m.zoom, 5, tolerance: 1e-12))
        #expect(
            isApproximatelyEqual(m.bearing, 0, tolerance: 1e-9) || isApproximatelyEqual(m.bearing, 360, tolerance: 1e-9)
        )
        #expect(m.pitch == 15)
        let q = a.interpolated(to: b, fraction: 0.25)
        #expect(isApproximatelyEqual(q.bearing, 355, tolerance: 1e-9))
        #expect(isApproximatelyEqual(q.center.longitude, 175, tolerance: 1e-9))
        #expect(a.interpolated(to: b, fraction: 1) == b)
        #expect(a.interpolated(to: b, fraction: 0).center.longitude == 170)
        // Screen distance: 20° of longitude at zoom 4 = 4096 · 20/360 = 227.6 points over a 256 · √2 diagonal,
        // plus 2 zoom levels / 2, plus 20° bearing / 180, plus 30° pitch / 90.
        let expected = 4096.0 * 20 / 360 / (256 * 2.0.squareRoot()) + 1 + 20.0 / 180 + 30.0 / 90
        #expect(isApproximatelyEqual(a.screenDistance(to: b), expected, tolerance: 1e-9))
    }
}
