import Foundation
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// Records a panorama view's delegate calls, in order.
@MainActor final class PanoramaEvents: GMSPanoramaViewDelegate {
    var log: [String] = []
    var cameras: [GMSPanoramaCamera] = []
    var errors: [NSError] = []

    func panoramaView(_ view: GMSPanoramaView, willMoveToPanoramaID panoramaID: String) {
        log.append("willMove \(panoramaID)")
    }
    func panoramaView(_ view: GMSPanoramaView, didMoveTo panorama: GMSPanorama?) { log.append("didMoveTo") }
    func panoramaView(
        _ view: GMSPanoramaView, didMoveTo panorama: GMSPanorama, nearCoordinate coordinate: CLLocationCoordinate2D
    ) { log.append("didMoveTo near") }
    func panoramaView(
        _ view: GMSPanoramaView, error: any Error, onMoveNearCoordinate coordinate: CLLocationCoordinate2D
    ) {
        log.append("error near \(coordinate.latitude),\(coordinate.longitude)")
        errors.append(error as NSError)
    }
    func panoramaView(_ view: GMSPanoramaView, error: any Error, onMoveToPanoramaID panoramaID: String) {
        log.append("error id \(panoramaID)")
        errors.append(error as NSError)
    }
    func panoramaView(_ panoramaView: GMSPanoramaView, didTap point: CGPoint) {
        log.append("didTap \(Int(point.x)),\(Int(point.y))")
    }
    func panoramaView(_ panoramaView: GMSPanoramaView, didMove camera: GMSPanoramaCamera) {
        log.append("didMoveCamera")
        cameras.append(camera)
    }
}

/// Issue 29: Street View's API, behaving as Google's where there is no imagery (everywhere, in Waymark).
@MainActor @Suite("Street View without imagery")
struct StreetViewTests {
    @Test("the service answers later, on the main queue, with no panorama and an error naming the coordinate")
    func serviceAnswersNoPanorama() async {
        var answers: [(GMSPanorama?, NSError?)] = []
        let service = GMSPanoramaService()
        service.requestPanoramaNearCoordinate(CLLocationCoordinate2D(latitude: 60.17, longitude: 24.94)) { p, e in
            answers.append((p, e as NSError?))
        }
        service.requestPanorama(withID: "abc") { p, e in answers.append((p, e as NSError?)) }
        #expect(answers.isEmpty, "the callbacks must not run before the requests return")
        await waitForMainQueue { answers.count == 2 }
        #expect(answers.count == 2)
        #expect(answers.allSatisfy { $0.0 == nil && $0.1 != nil })
        #expect(answers.first?.1?.localizedDescription.contains("60.17") == true)
        #expect(answers.last?.1?.localizedDescription.contains("abc") == true)
    }

    @Test("moveNearCoordinate reports an error with the coordinate; the panorama and camera do not move")
    func moveNearCoordinateFails() async {
        let view = GMSPanoramaView(frame: CGRect(x: 0, y: 0, width: 200, height: 120))
        let events = PanoramaEvents()
        view.delegate = events
        view.moveNearCoordinate(CLLocationCoordinate2D(latitude: -33.732, longitude: 150.312))
        #expect(events.log.isEmpty)
        await waitForMainQueue { !events.log.isEmpty }
        #expect(events.log == ["error near -33.732,150.312"])
        #expect(view.panorama == nil)
        #expect(events.errors.first?.domain == "com.google.GMSPanoramaService")

        events.log.removeAll()
        view.move(toPanoramaID: "pano-1")
        #expect(events.log == ["willMove pano-1"])
        await waitForMainQueue { events.log.count == 2 }
        #expect(events.log == ["willMove pano-1", "error id pano-1"])
    }

    @Test("panorama(withFrame:nearCoordinate:) makes the view and requests the panorama")
    func convenienceConstructor() async {
        let view = GMSPanoramaView.panorama(
            withFrame: CGRect(x: 0, y: 0, width: 100, height: 100),
            nearCoordinate: CLLocationCoordinate2D(latitude: 1, longitude: 2), radius: 20)
        let events = PanoramaEvents()
        view.delegate = events
        await waitForMainQueue { !events.log.isEmpty }
        #expect(events.log == ["error near 1.0,2.0"])
    }

    @Test("camera sets call didMoveCamera once; animations on every frame and for the final camera")
    func cameraEvents() {
        let clock = ManualClock(start: 100)
        UIAnimator.shared.reset()
        UIAnimator.shared.clock = clock
        let view = GMSPanoramaView(frame: CGRect(x: 0, y: 0, width: 200, height: 120))
        let events = PanoramaEvents()
        view.delegate = events
        view.camera = GMSPanoramaCamera(heading: 370, pitch: 100, zoom: 9)
        #expect(events.log == ["didMoveCamera"])
        #expect(view.camera.orientation.heading == 10)
        #expect(view.camera.orientation.pitch == 90)
        #expect(view.camera.zoom == 5)

        events.log.removeAll()
        view.animate(to: GMSPanoramaCamera(heading: 350, pitch: 0, zoom: 1), animationDuration: 0.5)
        for _ in 0..<40 {
            clock.advance(by: 1.0 / 60)
            CADisplayLink.fire(now: clock.now)
        }
        #expect(events.cameras.count > 10)
        #expect(events.cameras.last?.orientation.heading == 350)
        // The short way round: from 10° to 350° through north, never past 180°.
        #expect(events.cameras.dropFirst().allSatisfy { $0.orientation.heading <= 10 || $0.orientation.heading >= 350 })
        let count = events.cameras.count
        CADisplayLink.fire(now: clock.now + 1)
        #expect(events.cameras.count == count, "the animation ended")

        view.updateCamera(GMSPanoramaCameraUpdate.rotate(by: 20), animationDuration: 0)
        #expect(view.camera.orientation.heading == 10)
        view.layer.cameraPitch = -30
        #expect(view.camera.orientation.pitch == -30)
    }

    @Test("a tap reports didTap with the point; a drag turns the camera (didMoveCamera), no tap")
    func tapAndDrag() {
        let view = GMSPanoramaView(frame: CGRect(x: 0, y: 0, width: 200, height: 120))
        let events = PanoramaEvents()
        view.delegate = events
        let host = UIHeadlessHost(view: view)
        host.tap(at: CGPoint(x: 50, y: 40))
        host.runUntilIdle()
        #expect(events.log == ["didTap 50,40"])
        events.log.removeAll()
        host.drag(from: CGPoint(x: 150, y: 60), to: CGPoint(x: 50, y: 60))
        host.runUntilIdle()
        #expect(!events.log.contains { $0.hasPrefix("didTap") })
        #expect(events.log.contains("didMoveCamera"))
        // Dragging the view to the left looks to the right (east of north).
        let heading = view.camera.orientation.heading
        #expect(heading > 20 && heading < 90, "heading after the drag: \(heading)")
    }

    @Test("the view draws its background with a short 'no imagery' text")
    func drawsNoImageryText() throws {
        let view = GMSPanoramaView(frame: CGRect(x: 0, y: 0, width: 240, height: 120))
        view.backgroundColor = UIColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1)
        let image = view.renderImage(scale: 1)
        let pixels = try #require(image.premultipliedBGRA())
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            let i = (y * pixels.width + x) * 4
            return Array(pixels.pixels[i..<i + 4])
        }
        // The background colour (B, G, R, A premultiplied), within rounding.
        let background = pixel(2, 2)
        #expect(zip(background, [77, 51, 26, 255] as [Int]).allSatisfy { abs(Int($0) - $1) <= 1 }, "\(background)")
        #expect(pixel(2, 60) == background)
        var textPixels = 0
        for y in 50..<70 {
            for x in 20..<220 where pixel(x, y) != background { textPixels += 1 }
        }
        #expect(textPixels > 100, "text pixels in the middle band: \(textPixels)")
        #expect(GMSPanoramaView.noImageryText == "No Street View imagery here")
    }
}
