import Foundation
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// The frame's marker compositing: markers drawn straight from the store into the frame's pixels (sprites, hidden
/// pixels skipped) give the bytes of drawing every marker through Cairo, whatever mix of icons, anchors, rotation,
/// flatness, opacity, layers and z-order the map holds, and follow changes made after the markers were added.
@MainActor @Suite struct MarkerCompositingTests {
    /// Renders `map` into a fresh image, directly (the pixel fast path) or under a negligible translation (no direct
    /// pixel access: every marker through Cairo).
    func render(_ map: GMSMapView, scale: CGFloat, throughCairo: Bool) -> UIImage {
        map.tick()
        let format = UIGraphicsImageRendererFormat()
        format.scale = scale
        let size = map.bounds.size
        return UIGraphicsImageRenderer(size: size, format: format).image { r in
            let c = r.cgContext
            if throughCairo {
                // A translation too small to move anything (Cairo's fixed point rounds it away) still rules out
                // writing device pixels directly.
                c.translateBy(x: 1e-300, y: 0)
                #expect(c.withPixelTarget(deviceScale: scale) { $0 == nil })
            } else {
                #expect(c.withPixelTarget(deviceScale: scale) { $0 != nil })
            }
            FrameRenderer.render(map: map, into: c, scale: scale)
        }
    }

    /// 400 markers piled up over a 400 × 300 map (and past its edges): default pins, tinted pins, a translucent
    /// icon of another scale, moved anchors, rotated, flat and half-transparent markers, markers with a layer, mixed
    /// zIndex.
    func crowdedMap() -> GMSMapView {
        let map = makeMap()
        let tinted = GMSMarker.markerImage(with: .blue)
        let house = houseImage(scale: 2, color: UIColor(red: 0.1, green: 0.2, blue: 0.8, alpha: 0.7))
        var state: UInt64 = 7
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        for i in 0..<400 {
            let p = CGPoint(x: next() * 440 - 20, y: next() * 340 - 20)
            let m = GMSMarker(position: map.projection.coordinate(for: p))
            switch i % 10 {
            case 1, 2: m.icon = tinted
            case 3: m.icon = house
            case 4: m.groundAnchor = CGPoint(x: 0.5, y: 0.5)
            case 5 where i % 20 == 5: m.rotation = 30
            case 6 where i % 20 == 6: m.isFlat = true
            case 7 where i % 20 == 7: m.opacity = 0.6
            case 8 where i % 40 == 8: _ = m.layer
            default: break
            }
            m.zIndex = Int32(i % 7 == 0 ? 1 : 0)
            m.map = map
        }
        return map
    }

    @Test(arguments: [1.0, 2.0])
    func crowdedFrameMatchesDrawingEveryMarkerThroughCairo(scale: Double) {
        _ = installMapClock()
        let map = crowdedMap()
        let fast = render(map, scale: CGFloat(scale), throughCairo: false)
        let cairo = render(map, scale: CGFloat(scale), throughCairo: true)
        #expect(fast.pngData() == cairo.pngData())
    }

    @Test func tiltedAndTurnedFrameMatchesDrawingEveryMarkerThroughCairo() {
        _ = installMapClock()
        let map = crowdedMap()
        map.camera = GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14, bearing: 30, viewingAngle: 45)
        let fast = render(map, scale: 1, throughCairo: false)
        let cairo = render(map, scale: 1, throughCairo: true)
        #expect(fast.pngData() == cairo.pngData())
    }

    /// Changes made after adding (opacity, rotation, icon, anchor, flatness, a layer, zIndex, removal) draw exactly
    /// as the same markers set up that way before adding.
    @Test func changesAfterAddingDrawAsIfMadeBefore() {
        let clock = installMapClock()
        let points = (0..<12).map { CGPoint(x: 60 + 25 * Double($0), y: 150 + Double($0 % 3) * 6) }
        func setUp(_ m: GMSMarker, _ i: Int) {
            switch i {
            case 0: m.opacity = 0.4
            case 1: m.rotation = 45
            case 2: m.icon = GMSMarker.markerImage(with: .green)
            case 3: m.groundAnchor = CGPoint(x: 0, y: 0)
            case 4: m.isFlat = true
            case 5: m.zIndex = 3
            default: break
            }
        }
        let before = makeMap()
        let after = makeMap()
        var late: [GMSMarker] = []
        for (i, p) in points.enumerated() where i != 6 {
            let m = GMSMarker(position: before.projection.coordinate(for: p))
            setUp(m, i)
            m.map = before
        }
        for (i, p) in points.enumerated() {
            let m = GMSMarker(position: after.projection.coordinate(for: p))
            m.map = after
            late.append(m)
            if i == 7 { _ = m.layer }
        }
        _ = render(after, scale: 1, throughCairo: false)
        for (i, m) in late.enumerated() { setUp(m, i) }
        late[6].map = nil
        // A rotation there and back again, and an opacity down and up, end where they started.
        late[8].rotation = 90
        late[8].rotation = 0
        late[9].opacity = 0.2
        late[9].opacity = 1
        // Implicit animations (the rotations) finish.
        clock.advance(by: 1)
        let changed = render(after, scale: 1, throughCairo: false)
        #expect(changed.pngData() == render(before, scale: 1, throughCairo: false).pngData())
    }
}
