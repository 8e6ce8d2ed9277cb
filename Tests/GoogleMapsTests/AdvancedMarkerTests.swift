import Foundation
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// Advanced markers: Google's pin image options and collision behaviour (GMSAdvancedMarker.swift,
/// MarkerCollisions.swift).
@MainActor @Suite struct AdvancedMarkerTests {
    /// Straight RGBA bytes of an image's pixel at (x, y) points (scale 1 images).
    func rgba(_ image: UIImage, _ x: Int, _ y: Int) -> [Int] {
        let p = image.bitmaps[0].pixel(x: x, y: y)
        return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }

    func near(_ a: [Int], _ b: [Int], _ tolerance: Int = 3) -> Bool {
        zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test func pinImagesTakeTheirColoursAndGlyphs() {
        _ = installMapClock()
        // Unset options: the default pin, the same pixels as the legacy default marker image.
        let plain = GMSPinImage(options: GMSPinImageOptions())
        let legacy = GMSMarker.markerImage(with: nil)
        #expect(plain.size == CGSize(width: 26, height: 37))
        for (x, y) in [(13, 13), (13, 24), (1, 13), (13, 35), (4, 4)] {
            #expect(rgba(plain, x, y) == rgba(legacy, x, y), "(\(x), \(y))")
        }
        #expect(near(rgba(plain, 13, 24), [234, 67, 53, 255]))
        #expect(near(rgba(plain, 13, 13), [179, 20, 18, 255]))

        let options = GMSPinImageOptions()
        options.backgroundColor = .blue
        options.borderColor = .green
        options.glyph = GMSPinImageGlyph(glyphColor: .yellow)
        let coloured = GMSPinImage(options: options)
        #expect(near(rgba(coloured, 13, 24), [0, 0, 255, 255]))
        #expect(near(rgba(coloured, 13, 13), [255, 255, 0, 255]))
        #expect(near(rgba(coloured, 0, 13), [0, 255, 0, 255], 60))

        // An image glyph fills the head's middle.
        let magenta = UIGraphicsImageRenderer(size: CGSize(width: 4, height: 4)).image { context in
            UIColor.magenta.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        }
        options.glyph = GMSPinImageGlyph(image: magenta)
        #expect(near(rgba(GMSPinImage(options: options), 13, 13), [255, 0, 255, 255]))

        // A text glyph: white ink in the head, the body colour below it.
        options.glyph = GMSPinImageGlyph(text: "W", textColor: .white)
        let text = GMSPinImage(options: options)
        var white = 0
        for y in 6..<21 {
            for x in 6..<21 where rgba(text, x, y)[0] > 200 && rgba(text, x, y)[1] > 200 { white += 1 }
        }
        #expect(white > 8, "\(white) white pixels in the head")
        #expect(near(rgba(text, 13, 27), [0, 0, 255, 255]))
    }

    /// A map centred on (0, 0) at zoom 10, 400 × 300.
    func map() -> (GMSMapView, ManualClock) {
        let clock = installMapClock()
        return (makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 10)), clock)
    }

    /// An advanced marker at `dx`, `dy` points from the map's centre.
    func marker(
        _ title: String, _ dx: CGFloat, _ dy: CGFloat, _ behavior: GMSCollisionBehavior, zIndex: Int32 = 0,
        on map: GMSMapView
    ) -> GMSAdvancedMarker {
        let m = GMSAdvancedMarker(position: map.projection.coordinate(for: CGPoint(x: 200 + dx, y: 150 + dy)))
        m.title = title
        m.collisionBehavior = behavior
        m.zIndex = zIndex
        m.map = map
        return m
    }

    func drawnTitles(_ map: GMSMapView, _ clock: ManualClock) -> Set<String> {
        run(map, clock, frames: 1)
        map.layoutIfNeeded()
        _ = map.renderImage(scale: 1)
        let camera = map.cameraState
        let candidates = map.store.drawCandidates(
            camera: camera.transform, width: camera.size.width, height: camera.size.height)
        return Set(candidates.compactMap { map.store.marker(inSlot: $0.slot)?.title })
    }

    @Test func optionalMarkersHideBehindRequiredOnesAndHigherPriority() {
        let (map, clock) = map()
        let keeper = marker("keeper", 0, 0, .requiredAndHidesOptional, on: map)
        _ = marker("under keeper", 6, 4, .optionalAndHidesLowerPriority, zIndex: 9, on: map)
        _ = marker("high", -120, 0, .optionalAndHidesLowerPriority, zIndex: 5, on: map)
        _ = marker("low", -112, 6, .optionalAndHidesLowerPriority, zIndex: 1, on: map)
        // Equal zIndex: the one lower on the screen stays.
        _ = marker("upper", 120, -10, .optionalAndHidesLowerPriority, on: map)
        _ = marker("lower", 124, 10, .optionalAndHidesLowerPriority, on: map)
        // `.required` markers and plain markers take no part.
        _ = marker("required", -120, 60, .required, on: map)
        _ = marker("beside required", -116, 64, .optionalAndHidesLowerPriority, on: map)
        let plain = GMSMarker(position: map.projection.coordinate(for: CGPoint(x: 120, y: 260)))
        plain.title = "plain"
        plain.map = map
        _ = marker("beside plain", -76, 112, .optionalAndHidesLowerPriority, on: map)
        let drawn = drawnTitles(map, clock)
        #expect(
            drawn == ["keeper", "high", "lower", "required", "beside required", "plain", "beside plain"],
            "\(drawn.sorted())")
        // A hidden marker is not tapped: the tap goes to the marker drawn there.
        #expect(map.handleTap(at: CGPoint(x: 206, y: 140)) == .marker(keeper))

        // Made required, the hidden marker shows, and so does the one it no longer hides.
        keeper.collisionBehavior = .required
        #expect(drawnTitles(map, clock).contains("under keeper"))
        keeper.map = nil
        #expect(drawnTitles(map, clock).contains("under keeper"))
    }

    @Test func copiesKeepTheCollisionBehaviour() {
        let marker = GMSAdvancedMarker(position: CLLocationCoordinate2D(latitude: 1, longitude: 2))
        marker.collisionBehavior = .optionalAndHidesLowerPriority
        marker.title = "A"
        let copy = marker.copy() as? GMSAdvancedMarker
        #expect(copy?.collisionBehavior == .optionalAndHidesLowerPriority)
        #expect(copy?.title == "A" && copy?.position.longitude == 2)
        #expect(GMSAdvancedMarker().collisionBehavior == .required)
    }
}
