import Foundation
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

@MainActor @Suite struct MapViewLayerAndDragTests {
    @Test func mapLayerReadsAndSetsTheCamera() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 10, longitude: 20, zoom: 5))
        let delegate = RecordingDelegate()
        map.delegate = delegate
        #expect(map.layer === map.mapLayer)
        #expect(map.mapLayer.cameraLatitude == 10 && map.mapLayer.cameraLongitude == 20)
        #expect(map.mapLayer.value(forKey: kGMSLayerCameraZoomLevelKey) as? Float == 5)
        map.mapLayer.cameraZoomLevel = 30  // clamped (D3)
        #expect(map.camera.zoom == 21)
        map.mapLayer.setValue(200.0, forKey: kGMSLayerCameraLongitudeKey)  // wrapped
        #expect(abs(map.camera.target.longitude - -160) < 1e-9)
        map.mapLayer.cameraLatitude = 89  // clamped to 85
        #expect(map.camera.target.latitude == 85)
        run(map, clock, frames: 3)
        #expect(delegate.log == ["willMove(false)", "didChange", "idle"])
    }

    @Test func dragMovesTheMarkerBeforeEachCallback() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 10))
        final class DragDelegate: GMSMapViewDelegate {
            var log: [String] = []
            func mapView(_ mapView: GMSMapView, didBeginDragging marker: GMSMarker) {
                log.append("begin \(Int(mapView.projection.point(for: marker.position).x.rounded()))")
            }
            func mapView(_ mapView: GMSMapView, didDrag marker: GMSMarker) {
                log.append("drag \(Int(mapView.projection.point(for: marker.position).x.rounded()))")
            }
            func mapView(_ mapView: GMSMapView, didEndDragging marker: GMSMarker) {
                log.append("end \(Int(mapView.projection.point(for: marker.position).x.rounded()))")
            }
        }
        let delegate = DragDelegate()
        map.delegate = delegate
        let m = GMSMarker(position: CLLocationCoordinate2D(latitude: 0, longitude: 0))
        m.map = map
        // Not draggable: ignored.
        map._dragMarker(m, phase: .began, to: CGPoint(x: 250, y: 150))
        #expect(delegate.log.isEmpty)
        m.isDraggable = true
        map._dragMarker(m, phase: .began, to: CGPoint(x: 200, y: 150))
        map._dragMarker(m, phase: .changed, to: CGPoint(x: 230, y: 150))
        map._dragMarker(m, phase: .ended, to: CGPoint(x: 260, y: 150))
        #expect(delegate.log == ["begin 200", "drag 230", "end 260"])
        // The index follows: the marker is hit at its new place.
        #expect(map._markerHit(at: CGPoint(x: 260, y: 140)) === m)
        #expect(map._markerHit(at: CGPoint(x: 200, y: 140)) == nil)
    }
}
