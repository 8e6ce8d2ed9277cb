import Foundation
import Synchronization
import Testing
import UIKitTestSupport

@testable import GoogleMaps
@testable import LinuxUIKit

/// Waits (boundedly: at most 2 s) until `condition` holds, letting main-queue blocks run in between.
@MainActor func waitForMainQueue(until condition: @MainActor () -> Bool) async {
    for _ in 0..<400 where !condition() {
        try? await Task.sleep(for: .milliseconds(5))
    }
}

/// Carries a model object to another thread in these tests (the classes are not `Sendable`, as on iOS; an app in
/// Swift 5 mode passes them freely).
struct Carried<Value>: @unchecked Sendable {
    let value: Value
}

/// Issue 29: the model classes come from Objective-C on iOS, with no actor annotation, so they are usable from
/// nonisolated code; only the views are main-actor. These tests call them from detached tasks and other threads (and
/// do not compile where the classes are `@MainActor`).
@Suite("Model classes from nonisolated code")
struct NonisolatedModelTests {
    @Test("GMSServices' class methods run on other threads; attribution IDs are all recorded")
    func servicesFromAnyThread() async {
        let before = GMSServices.internalUsageAttributionIDs.count
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            GMSServices.addInternalUsageAttributionID("thread-\(i)")
            _ = GMSServices.sdkVersion()
        }
        let version = await Task.detached { GMSServices.sdkVersion() }.value
        #expect(version == GMSServices.sdkVersion())
        let ids = GMSServices.internalUsageAttributionIDs
        #expect(ids.count - before == 64)
        #expect(Set(ids.suffix(64)).count == 64)
    }

    @Test("markers, shapes and tile layers are made and configured in a detached task")
    func overlaysInDetachedTask() async {
        let made = await Task.detached { () -> Carried<(GMSMarker, GMSPolyline, GMSURLTileLayer)> in
            let marker = GMSMarker(position: CLLocationCoordinate2D(latitude: 60.17, longitude: 24.94))
            marker.title = "Helsinki"
            marker.zIndex = 3
            let path = GMSMutablePath()
            path.addLatitude(60.17, longitude: 24.94)
            path.addLatitude(60.2, longitude: 24.66)
            let line = GMSPolyline(path: path)
            line.strokeWidth = 5
            let tiles = GMSURLTileLayer(urlConstructor: { _, _, _ in nil })
            tiles.zIndex = 2
            return Carried(value: (marker, line, tiles))
        }.value.value
        #expect(made.0.title == "Helsinki")
        #expect(made.0.position.latitude == 60.17)
        #expect(made.0.zIndex == 3)
        #expect(made.1.path?.count() == 2)
        #expect(made.1.strokeWidth == 5)
        #expect(made.2.zIndex == 2)
    }

    @Test("markerImage(with:) from many threads at once: one cached image per colour, the pin's size")
    func markerImageFromThreads() {
        let seen = Mutex<[ObjectIdentifier: Int]>([:])
        let colors: [UIColor] = [.green, .purple, .orange, .cyan]
        let sizes = Mutex<Set<String>>([])
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            let image = GMSMarker.markerImage(with: colors[i % colors.count])
            sizes.withLock { _ = $0.insert("\(image.size.width)x\(image.size.height)") }
            seen.withLock { $0[ObjectIdentifier(image), default: 0] += 1 }
        }
        #expect(sizes.withLock { $0 } == ["26.0x37.0"])
        let counts = seen.withLock { $0 }
        #expect(counts.count == colors.count, "distinct images: \(counts.count)")
        #expect(counts.values.allSatisfy { $0 == 16 })
    }

    @Test("a sync tile layer's tileFor runs off the main thread and may return marker images")
    func syncTileLayerReturnsMarkerImages() async {
        final class PinTiles: GMSSyncTileLayer {
            override func tileFor(x: UInt, y: UInt, zoom: UInt) -> UIImage? {
                GMSMarker.markerImage(with: x % 2 == 0 ? .blue : .red)
            }
        }
        final class Receiver: GMSTileReceiver {
            let images = Mutex<[UInt: UIImage]>([:])
            func receiveTileWith(x: UInt, y: UInt, zoom: UInt, image: UIImage?) {
                images.withLock { $0[x] = image }
            }
        }
        let layer = PinTiles()
        let receiver = Receiver()
        for x in UInt(0)..<4 { layer.requestTileFor(x: x, y: 0, zoom: 2, receiver: receiver) }
        for _ in 0..<400 where receiver.images.withLock({ $0.count }) < 4 {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let images = receiver.images.withLock { $0 }
        #expect(images.count == 4)
        #expect(images[0] === GMSMarker.markerImage(with: .blue))
        #expect(images[1] === GMSMarker.markerImage(with: .red))
    }

    @Test("an overlay added to a map from a detached task reaches the map on the main actor")
    @MainActor func mapSetOffMain() async {
        _ = installMapClock()
        let map = makeMap()
        let marker = await Task.detached { () -> Carried<GMSMarker> in
            let marker = GMSMarker(position: CLLocationCoordinate2D(latitude: 51.5, longitude: -0.127))
            marker.map = map
            return Carried(value: marker)
        }.value.value
        await waitForMainQueue { marker.map === map }
        #expect(marker.map === map)
        #expect(map.store.allMarkers().contains { $0 === marker })
        let line = GMSPolyline(path: GMSPath(fromEncodedPath: "_p~iF~ps|U_ulLnnqC"))
        let carried = Carried(value: (marker, line))
        await Task.detached { carried.value.1.map = map }.value
        await waitForMainQueue { line.map === map }
        #expect(line.map === map)
        await Task.detached {
            carried.value.0.map = nil
            carried.value.1.map = nil
        }.value
        await waitForMainQueue { marker.map == nil && line.map == nil }
        #expect(marker.map == nil)
        #expect(line.map == nil)
        #expect(map.store.allMarkers().isEmpty)
    }

    @Test("a zIndex set off the main actor re-sorts the map's markers")
    @MainActor func zIndexOffMain() async {
        _ = installMapClock()
        let map = makeMap()
        let low = GMSMarker(position: CLLocationCoordinate2D(latitude: 51.5, longitude: -0.127))
        let high = GMSMarker(position: CLLocationCoordinate2D(latitude: 51.5, longitude: -0.127))
        high.zIndex = 1
        low.map = map
        high.map = map
        #expect(map.store.drawOrder().map { $0.zIndex } == [0, 1])
        let carried = Carried(value: low)
        await Task.detached { carried.value.zIndex = 5 }.value
        await waitForMainQueue { map.store.drawOrder().first === high }
        #expect(map.store.drawOrder().first === high)
        #expect(map.store.drawOrder().last === low)
    }
}
