import Foundation
import MapGeometry
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

@MainActor @Suite struct MarkerTests {
    @Test func defaultsMatchGoogle() {
        _ = installMapClock()
        let m = GMSMarker()
        #expect(m.position.latitude == 0 && m.position.longitude == 0)
        #expect(m.title == nil && m.snippet == nil && m.icon == nil && m.iconView == nil)
        #expect(m.tracksViewChanges && !m.tracksInfoWindowChanges)
        #expect(m.groundAnchor == CGPoint(x: 0.5, y: 1) && m.infoWindowAnchor == CGPoint(x: 0.5, y: 0))
        #expect(m.appearAnimation == .none && !m.isDraggable && !m.isFlat)
        #expect(m.rotation == 0 && m.opacity == 1 && m.zIndex == 0 && m.isTappable && m.userData == nil)
        #expect(m.map == nil)
        #expect(GMSMarkerAnimation.pop.rawValue == 1 && GMSMarkerAnimation.fadeIn.rawValue == 2)
    }

    @Test func opacityIsClamped() {
        let m = GMSMarker()
        m.opacity = 1.7
        #expect(m.opacity == 1)
        m.opacity = -3
        #expect(m.opacity == 0)
        m.opacity = .nan
        #expect(m.opacity == 1)
        m.opacity = 0.6
        #expect(m.opacity == 0.6)
    }

    @Test func ownershipAddRemoveMove() {
        _ = installMapClock()
        let a = makeMap()
        let b = makeMap()
        weak var weakMarker: GMSMarker?
        do {
            let m = GMSMarker(position: CLLocationCoordinate2D(latitude: 51.5, longitude: -0.127))
            weakMarker = m
            m.map = a
            #expect(m.map === a && a.store.count == 1)
            m.map = b
            #expect(m.map === b && a.store.count == 0 && b.store.count == 1)
        }
        // The map keeps its markers alive.
        #expect(weakMarker != nil)
        weakMarker?.map = nil
        #expect(weakMarker == nil)
        #expect(b.store.count == 0)
    }

    @Test func defaultPinIsCrispAtEveryScale() {
        _ = installMapClock()
        for scale in [1.0, 2.0, 3.0] {
            let pin = DefaultPin.image(color: DefaultPin.defaultColor, scale: scale)
            #expect(pin.size == CGSize(width: 26, height: 37))
            #expect(Double(pin.scale) == scale)
            let s = Int(scale)
            // Body colour #EA4335 between the dot and the border; dark dot #B31412 at the head's centre.
            #expect(isColor(pixelAt(pin, 13 * s, 21 * s), 234, 67, 53))
            #expect(isColor(pixelAt(pin, 13 * s, 13 * s), 179, 20, 18))
            // Border #C5221F on the left edge of the head; transparent corners.
            #expect(isColor(pixelAt(pin, s / 2, 13 * s), 197, 34, 31, tolerance: 40))
            #expect(pixelAt(pin, 0, 36 * s).a == 0)
            // The tip: opaque just above the bottom centre.
            #expect(pixelAt(pin, 13 * s, 35 * s).a > 0)
        }
        // Cached: one instance per colour and scale.
        #expect(DefaultPin.image(color: .blue, scale: 2) === DefaultPin.image(color: .blue, scale: 2))
    }

    @Test func markerImageIsTinted() {
        _ = installMapClock()
        let black = GMSMarker.markerImage(with: .black)
        #expect(black.size == CGSize(width: 26, height: 37))
        let s = Int(black.scale)
        #expect(isColor(pixelAt(black, 13 * s, 21 * s), 0, 0, 0))
        let green = GMSMarker.markerImage(with: .green)
        let p = pixelAt(green, 13 * s, 21 * s)
        #expect(isColor(p, 0, 255, 0))
        #expect(GMSMarker.markerImage(with: nil) === GMSMarker.markerImage(with: DefaultPin.defaultColor))
    }

    /// Hit area = the icon's rectangle placed by the anchor (centre-bottom by default): a 26 × 37 box above the tip.
    @Test func hitAreaFollowsAnchorRotationAndInsets() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 10))
        let m = GMSMarker(position: CLLocationCoordinate2D(latitude: 0, longitude: 0))
        m.map = map
        // Tip at (200, 150): box x 187…213, y 113…150.
        #expect(map.markerHit(at: CGPoint(x: 200, y: 149)) === m)
        #expect(map.markerHit(at: CGPoint(x: 187.5, y: 114)) === m)
        #expect(map.markerHit(at: CGPoint(x: 200, y: 152)) == nil)
        #expect(map.markerHit(at: CGPoint(x: 214, y: 130)) == nil)
        // Anchor (0.5, 0.5): the box is centred on the position: y 131.5…168.5.
        m.groundAnchor = CGPoint(x: 0.5, y: 0.5)
        #expect(map.markerHit(at: CGPoint(x: 200, y: 165)) === m)
        #expect(map.markerHit(at: CGPoint(x: 200, y: 120)) == nil)
        // Rotated 90° clockwise about the centre: the box is 37 wide and 26 tall.
        m.rotation = 90
        #expect(map.markerHit(at: CGPoint(x: 216, y: 150)) === m)
        #expect(map.markerHit(at: CGPoint(x: 200, y: 165)) == nil)
        // Alignment insets shrink the tap area (and the anchor space).
        m.rotation = 0
        m.groundAnchor = CGPoint(x: 0.5, y: 1)
        m.icon = houseImage().withAlignmentRectInsets(UIEdgeInsets(top: 0, left: 0, bottom: 10, right: 0))
        // Content rect 24 × 14, bottom at the position: y 136…150 holds content; the inset strip (150…160) does not.
        #expect(map.markerHit(at: CGPoint(x: 200, y: 140)) === m)
        #expect(map.markerHit(at: CGPoint(x: 200, y: 155)) == nil)
        // Non-tappable markers are skipped; opacity 0 markers stay tappable (D13).
        m.opacity = 0
        #expect(map.markerHit(at: CGPoint(x: 200, y: 140)) === m)
        m.isTappable = false
        #expect(map.markerHit(at: CGPoint(x: 200, y: 140)) == nil)
    }

    @Test func flatMarkersTurnWithBearing() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 10, bearing: 90, viewingAngle: 0))
        let m = GMSMarker(position: CLLocationCoordinate2D(latitude: 0, longitude: 0))
        m.map = map
        // Billboard: still above the tip.
        #expect(map.markerHit(at: CGPoint(x: 200, y: 130)) === m)
        m.isFlat = true
        // Flat, bearing 90: north points left on screen, so the pin (pointing north) lies to the left of the tip.
        #expect(map.markerHit(at: CGPoint(x: 200, y: 130)) == nil)
        #expect(map.markerHit(at: CGPoint(x: 180, y: 150)) === m)
    }

    @Test func topMostWinsAndTiesGoToTheLaterMarker() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 10))
        let a = GMSMarker(position: CLLocationCoordinate2D(latitude: 0, longitude: 0))
        let b = GMSMarker(position: CLLocationCoordinate2D(latitude: 0, longitude: 0))
        a.map = map
        b.map = map
        #expect(map.markerHit(at: CGPoint(x: 200, y: 140)) === b)
        a.zIndex = 1
        #expect(map.markerHit(at: CGPoint(x: 200, y: 140)) === a)
        #expect(map.store.drawOrder().map { $0 === a } == [false, true])
    }

    @Test func invalidPositionsAreNeitherDrawnNorTappable() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 10))
        let m = GMSMarker(position: CLLocationCoordinate2D(latitude: 0, longitude: 0))
        m.map = map
        for bad in [
            CLLocationCoordinate2D(latitude: .nan, longitude: 0),
            CLLocationCoordinate2D(latitude: 0, longitude: .infinity),
            CLLocationCoordinate2D(latitude: 91, longitude: 0), CLLocationCoordinate2D(latitude: 0, longitude: -181),
        ] {
            GMSLog.messages.removeAll()
            m.position = bad
            #expect(m.map === map)
            #expect(map.markerHit(at: CGPoint(x: 200, y: 140)) == nil)
            #expect(GMSLog.messages.count == 1)
            let image = map.renderImage(scale: 1)
            #expect(countPixels(image, in: (150..<250, 100..<200), where: { !isLand($0) }) < 40)
            m.position = CLLocationCoordinate2D(latitude: 0, longitude: 0)
            #expect(map.markerHit(at: CGPoint(x: 200, y: 140)) === m)
        }
    }

    @Test func layerAnimatesOpacityAndPosition() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 10))
        let m = GMSMarker(position: CLLocationCoordinate2D(latitude: 0, longitude: 0))
        m.map = map
        let fade = CABasicAnimation(keyPath: kGMSMarkerLayerOpacity)
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 2
        m.layer.add(fade, forKey: "fade")
        clock.advance(by: 1)
        let presented = FrameRenderer.presented(m)
        #expect(abs(presented.opacity - 0.5) < 0.01)
        #expect(m.opacity == 1)
        // Position changes on a map animate from the old value; the model (and hit testing) jumps at once.
        m.layer.removeAllAnimations()
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        m.position = CLLocationCoordinate2D(latitude: 0, longitude: 1)
        CATransaction.commit()
        clock.advance(by: 0.5)
        let midway = FrameRenderer.presented(m).position.longitude
        #expect(midway > 0.1 && midway < 0.9)
        #expect(m.layer.longitude == 1)
        run(map, clock, frames: 70)
        #expect(FrameRenderer.presented(m).position.longitude == 1)
        // Setting the layer's key sets the marker.
        m.layer.latitude = 5
        #expect(m.position.latitude == 5)
    }

    @Test func quadtreeFindsExactlyThePointsInABox() {
        var tree = PointQuadtree(bucketCapacity: 4)
        var rng = SystemRandomNumberGenerator()
        var points: [(Int32, Double, Double)] = []
        for i in 0..<2000 {
            let p = (Int32(i), Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng))
            points.append(p)
            let inserted = tree.insert(id: p.0, x: p.1, y: p.2)
            #expect(inserted)
        }
        // Many points at one spot never recurse forever.
        for i in 2000..<2100 { tree.insert(id: Int32(i), x: 0.25, y: 0.25) }
        points += (2000..<2100).map { (Int32($0), 0.25, 0.25) }
        let nanInserted = tree.insert(id: 9999, x: .nan, y: 0)
        #expect(!nanInserted)
        for _ in 0..<20 {
            let x0 = Double.random(in: 0...1)
            let y0 = Double.random(in: 0...1)
            let box = (x0, y0, x0 + 0.2, y0 + 0.3)
            var found = Set<Int32>()
            tree.forEach(inMinX: box.0, minY: box.1, maxX: box.2, maxY: box.3) { id, _, _ in found.insert(id) }
            let expected = Set(
                points.filter { $0.1 >= box.0 && $0.1 <= box.2 && $0.2 >= box.1 && $0.2 <= box.3 }.map(\.0))
            #expect(found == expected)
        }
        for p in points.prefix(1000) {
            let removed = tree.remove(id: p.0, x: p.1, y: p.2)
            #expect(removed)
        }
        #expect(tree.count == 1100)
        var all = 0
        tree.forEach(inMinX: 0, minY: 0, maxX: 1, maxY: 1) { _, _, _ in all += 1 }
        #expect(all == 1100)
    }

    @Test func hitTestAmongManyMarkersMatchesBruteForce() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12))
        var markers: [GMSMarker] = []
        for i in 0..<3000 {
            let m = GMSMarker(
                position: CLLocationCoordinate2D(
                    latitude: 60.17 + Double((i * 7919) % 1000) / 1000 * 0.1 - 0.05,
                    longitude: 24.94 + Double((i * 104729) % 1000) / 1000 * 0.2 - 0.1))
            m.zIndex = Int32(i % 3)
            m.map = map
            markers.append(m)
        }
        for k in 0..<200 {
            let p = CGPoint(x: Double((k * 37) % 400), y: Double((k * 53) % 300))
            let expected = markers.filter { m in
                let tip = map.projection.point(for: m.position)
                return p.x >= tip.x - 13 && p.x <= tip.x + 13 && p.y >= tip.y - 37 && p.y <= tip.y
            }.max { ($0.zIndex, $0.sequence) < ($1.zIndex, $1.sequence) }
            #expect(map.markerHit(at: p) === expected)
        }
    }
}

@MainActor @Suite struct MarkerOverlayOwnershipTests {
    @Test func clearRemovesEveryOverlay() {
        _ = installMapClock()
        let map = makeMap()
        weak var weakOverlay: GMSOverlay?
        do {
            let overlay = GMSOverlay()
            weakOverlay = overlay
            overlay.map = map
            #expect(!overlay.isTappable)  // non-marker overlays default to not tappable
        }
        #expect(weakOverlay?.map === map)
        let marker = GMSMarker()
        marker.map = map
        map.clear()
        #expect(weakOverlay == nil)
        #expect(marker.map == nil)
    }
}
