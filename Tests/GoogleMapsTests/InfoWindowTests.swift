import Foundation
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// The Info windows guide (seed 002) and the default window of D15.
@MainActor @Suite struct InfoWindowTests {
    static let london = CLLocationCoordinate2D(latitude: 51.5, longitude: -0.127)

    /// A 320 × 240 map; the marker at London stands at (160, 200) (the target is drawn at the centre, so London is
    /// placed 80 pt below it).
    func setUp() -> (GMSMapView, RecordingDelegate, GMSMarker) {
        _ = installMapClock()
        let map = GMSMapView.map(
            withFrame: CGRect(x: 0, y: 0, width: 320, height: 240),
            camera: GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14))
        map.camera = GMSCameraPosition(
            target: map.projection.coordinate(for: CGPoint(x: 160, y: 40)), zoom: 14)
        let delegate = RecordingDelegate()
        map.delegate = delegate
        let london = GMSMarker(position: Self.london)
        london.title = "London"
        london.map = map
        return (map, delegate, london)
    }

    @Test func defaultWindowGeometry() throws {
        let (map, _, london) = setUp()
        london.snippet = "Population: 8,174,100"
        map.selectedMarker = london
        let (image, frame) = try #require(FrameRenderer.infoWindowFrame(map: map))
        let window = try #require(map.infoWindow)
        // The arrow tip sits on the info window anchor: the pin's top centre, 37 pt above the position.
        #expect(abs(frame.minX + window.tip.x - 160) < 0.51)
        #expect(abs(frame.minY + window.tip.y - (200 - 37)) < 0.51)
        // Bubble: content ≤ 240 + 2 × 12 padding + 2 × 6 shadow margin.
        #expect(image.size.width <= 240 + 24 + 12)
        // Title (bold 15) and snippet (13) on one line each: height ≈ 12 + ~18 + 2 + ~16 + 12 + 8 arrow + 12 margin.
        #expect(image.size.height > 70 && image.size.height < 95)
        let frameImage = map.renderFrame(scale: 1)
        // White just above the arrow tip, land just below it; the pin under the tip.
        #expect(isColor(pixelAt(frameImage, 160, 200 - 37 - 3), 255, 255, 255, tolerance: 4))
        #expect(isColor(pixelAt(frameImage, 160, 200 - 37 + 6), 234, 67, 53, tolerance: 60))
    }

    /// The default bubble follows the map's appearance, as the controls do: Google's dark surface with light text
    /// when the map view is dark, white again when it is light.
    @Test func theDefaultWindowFollowsTheAppearance() throws {
        let (map, _, london) = setUp()
        map.selectedMarker = london
        /// A pixel inside the bubble, left of the text: the bubble starts 6 pt in (the shadow margin), text 12 pt
        /// further.
        func bubblePixel() throws -> (r: Int, g: Int, b: Int, a: Int) {
            let image = map.renderFrame(scale: 1)
            let (_, frame) = try #require(FrameRenderer.infoWindowFrame(map: map))
            return pixelAt(image, Int(frame.minX) + 6 + 6, Int(frame.minY) + 6 + 12)
        }
        #expect(isColor(try bubblePixel(), 255, 255, 255, tolerance: 3))
        map.overrideUserInterfaceStyle = .dark
        #expect(isColor(try bubblePixel(), 32, 33, 36, tolerance: 3))
        map.overrideUserInterfaceStyle = .light
        #expect(isColor(try bubblePixel(), 255, 255, 255, tolerance: 3))
    }

    @Test func longTextWrapsAndIsCut() throws {
        let (map, _, london) = setUp()
        london.title = String(repeating: "A very long title ", count: 20)
        london.snippet = String(repeating: "Snippet words that wrap. ", count: 60)
        map.selectedMarker = london
        let image = try #require(map.infoWindow?.image)
        let title = UIFont.boldSystemFont(ofSize: 15).lineHeight
        let snippet = UIFont.systemFont(ofSize: 13).lineHeight
        // At most 2 title lines and 8 snippet lines (D15), at most 240 pt wide.
        #expect(image.size.height <= 6 + 12 + 2 * title + 2 + 8 * snippet + 12 + 8 + 6 + 4)
        #expect(image.size.height >= 6 + 12 + 2 * title + 2 + 7 * snippet + 12 + 8 + 6 - 4)
        #expect(image.size.width <= 240 + 24 + 12 + 1)
    }

    @Test func snippetLineBreaks() throws {
        let (map, _, london) = setUp()
        london.snippet = "one"
        map.selectedMarker = london
        let one = try #require(map.infoWindow?.image).size.height
        map.selectedMarker = nil
        london.snippet = "one\ntwo\nthree"
        map.selectedMarker = london
        let three = try #require(map.infoWindow?.image).size.height
        let line = UIFont.systemFont(ofSize: 13).lineHeight
        #expect(abs((three - one) - 2 * line) < 3)
    }

    @Test func defaultWindowWithALongWrappedSnippetGolden() {
        let (map, _, london) = setUp()
        london.snippet =
            "Capital of England and the United Kingdom, on the River Thames; population 8,174,100 at the 2011 census."
        map.selectedMarker = london
        expectGolden(map.renderFrame(scale: 2), "default-info-window-long-snippet")
    }

    @Test func showAndHideProgrammatically() {
        let (map, delegate, london) = setUp()
        london.snippet = "Population: 8,174,100"
        #expect(!isColor(pixelAt(map.renderFrame(scale: 1), 160, 140), 255, 255, 255, tolerance: 3))
        map.selectedMarker = london
        #expect(isColor(pixelAt(map.renderFrame(scale: 1), 160, 140), 255, 255, 255, tolerance: 3))
        map.selectedMarker = nil
        #expect(!isColor(pixelAt(map.renderFrame(scale: 1), 160, 140), 255, 255, 255, tolerance: 3))
        #expect(delegate.log.last == "didClose(London)")
    }

    @Test func tracksInfoWindowChanges() throws {
        let (map, _, london) = setUp()
        london.snippet = "short"
        map.selectedMarker = london
        _ = map.renderFrame(scale: 1)
        let before = try #require(map.infoWindow?.image).size
        // The default window follows the selected marker's title and snippet (issue 29), tracking or not.
        london.snippet = "a much longer snippet than before"
        _ = map.renderFrame(scale: 1)
        let longer = try #require(map.infoWindow?.image).size
        #expect(longer.width > before.width)
        london.tracksInfoWindowChanges = true
        _ = map.renderFrame(scale: 1)
        #expect(try #require(map.infoWindow?.image).size == longer)
        london.snippet = "x"
        _ = map.renderFrame(scale: 1)
        #expect(try #require(map.infoWindow?.image).size.width < longer.width)
    }

    @Test func infoWindowAnchorAtTheIconCentre() throws {
        let (map, _, london) = setUp()
        london.snippet = "Population: 8,174,100"
        london.infoWindowAnchor = CGPoint(x: 0.5, y: 0.5)
        london.icon = houseImage()
        map.selectedMarker = london
        let (_, frame) = try #require(FrameRenderer.infoWindowFrame(map: map))
        let tip = try #require(map.infoWindow).tip
        // The house is 24 pt tall, anchored centre-bottom: its centre is 12 pt above the position.
        #expect(abs(frame.minX + tip.x - 160) < 0.51)
        #expect(abs(frame.minY + tip.y - 188) < 0.51)
    }

    @Test func anchorRotatesWithTheIcon() throws {
        let (map, _, london) = setUp()
        london.rotation = 90
        // The rotation animates briefly (implicit marker animation); let it finish.
        (UIAnimator.shared.clock as? ManualClock)?.advance(by: 1)
        map.selectedMarker = london
        let (_, frame) = try #require(FrameRenderer.infoWindowFrame(map: map))
        let tip = try #require(map.infoWindow).tip
        // Rotated 90° clockwise about the tip, the pin's top centre (37 pt up) lands 37 pt to the right.
        #expect(abs(frame.minX + tip.x - 197) < 0.51)
        #expect(abs(frame.minY + tip.y - 200) < 0.51)
    }

    /// A whole custom window and custom contents, as the guide's sample (Sydney: window, Brisbane: contents).
    @Test func customWindowGolden() throws {
        let (map, delegate, london) = setUp()
        let custom = UIView(frame: CGRect(x: 0, y: 0, width: 120, height: 60))
        custom.backgroundColor = UIColor(red: 0.1, green: 0.45, blue: 0.3, alpha: 1)
        custom.layer.cornerRadius = 10
        let label = UILabel(frame: CGRect(x: 8, y: 8, width: 104, height: 44))
        label.text = "Custom"
        label.textColor = .white
        label.font = .boldSystemFont(ofSize: 18)
        label.textAlignment = .center
        custom.addSubview(label)
        delegate.infoWindowView = custom
        // Snapshots are taken at the scale of the last frame drawn.
        _ = map.renderFrame(scale: 2)
        delegate.log = []
        map.selectedMarker = london
        #expect(delegate.log == ["markerInfoWindow(London)"])
        let image = map.renderFrame(scale: 2)
        // The view's bottom centre is on the anchor; no bubble around it.
        let (_, frame) = try #require(FrameRenderer.infoWindowFrame(map: map))
        #expect(frame.size == CGSize(width: 120, height: 60))
        #expect(abs(frame.midX - 160) < 0.51 && abs(frame.maxY - 163) < 0.51)
        expectGolden(image, "custom-info-window")
    }

    @Test func customContentsSitInTheBubble() throws {
        let (map, delegate, london) = setUp()
        let contents = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 30))
        contents.backgroundColor = .blue
        delegate.infoContentsView = contents
        map.selectedMarker = london
        #expect(delegate.log == ["markerInfoWindow(London)", "markerInfoContents(London)"])
        let image = try #require(map.infoWindow?.image)
        // 50 × 30 + 12 pt padding + 6 pt shadow margins + 8 pt arrow.
        #expect(image.size == CGSize(width: 50 + 24 + 12, height: 30 + 24 + 12 + 8))
        let frameImage = map.renderFrame(scale: 1)
        #expect(isColor(pixelAt(frameImage, 160, 163 - 8 - 12 - 15), 0, 0, 255))
        #expect(isColor(pixelAt(frameImage, 160, 163 - 8 - 5), 255, 255, 255, tolerance: 4))
    }

    @Test func reusedViewKeepsEachWindowsSnapshot() throws {
        let (map, delegate, london) = setUp()
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        view.backgroundColor = .red
        delegate.infoWindowView = view
        map.selectedMarker = london
        // The app reuses and recolours the view (for another marker); the open window is a snapshot.
        view.backgroundColor = .green
        let image = map.renderFrame(scale: 1)
        #expect(isColor(pixelAt(image, 160, 163 - 20), 255, 0, 0))
    }

    @Test func oversizedCustomViewsAreClipped() throws {
        let (map, delegate, london) = setUp()
        delegate.infoWindowView = UIView(frame: CGRect(x: 0, y: 0, width: 800, height: 100))
        map.selectedMarker = london
        #expect(try #require(map.infoWindow?.image).size == CGSize(width: 500, height: 100))
        #expect(GMSLog.messages.contains { $0.contains("500") })
    }
}
