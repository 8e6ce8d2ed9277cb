import Foundation
import Testing
import UIKitTestSupport

@testable import GoogleMaps
@testable import LinuxUIKit

/// The calls of Google's "Shapes" and "Ground overlays" guides (Maps SDK for iOS), written as an app would, compile
/// against the package unchanged and behave as the guides say.
@MainActor @Suite struct ShapeGuideTests {
    @MainActor final class Delegate: NSObject, GMSMapViewDelegate {
        var tapped: [GMSOverlay] = []
        func mapView(_ mapView: GMSMapView, didTap overlay: GMSOverlay) { tapped.append(overlay) }
    }

    @Test func theShapesGuideCallsWork() {
        _ = installMapClock()
        let camera = GMSCameraPosition.camera(withLatitude: -33.8, longitude: 151.3, zoom: 10)
        let mapView = GMSMapView.map(withFrame: CGRect(x: 0, y: 0, width: 400, height: 300), camera: camera)
        let delegate = Delegate()
        mapView.delegate = delegate

        // Polylines.
        let path = GMSMutablePath()
        path.add(CLLocationCoordinate2D(latitude: -33.85, longitude: 151.20))
        path.add(CLLocationCoordinate2D(latitude: -33.70, longitude: 151.40))
        path.add(CLLocationCoordinate2D(latitude: -33.73, longitude: 151.41))
        let polyline = GMSPolyline(path: path)
        polyline.strokeColor = .blue
        polyline.strokeWidth = 5.0
        polyline.geodesic = true
        polyline.map = mapView
        polyline.spans = [GMSStyleSpan(color: .red)]
        let solidRed = GMSStrokeStyle.solidColor(.red)
        polyline.spans = [GMSStyleSpan(style: solidRed)]
        let redYellow = GMSStrokeStyle.gradient(from: .red, to: .yellow)
        polyline.spans = [GMSStyleSpan(style: redYellow)]
        polyline.spans = [
            GMSStyleSpan(style: solidRed), GMSStyleSpan(style: solidRed), GMSStyleSpan(style: redYellow),
        ]
        polyline.spans = [GMSStyleSpan(style: solidRed, segments: 2), GMSStyleSpan(style: redYellow, segments: 10)]
        polyline.spans = [GMSStyleSpan(style: solidRed, segments: 2.5), GMSStyleSpan(color: .gray)]
        let styles = [GMSStrokeStyle.solidColor(.white), GMSStrokeStyle.solidColor(.black)]
        let lengths: [NSNumber] = [100000, 50000]
        polyline.spans = GMSStyleSpans(polyline.path!, styles, lengths, GMSLengthKind.rhumb)
        // The path is about 28 km long: the first 100 km white span covers all of it.
        #expect(polyline.spans?.count == 1 && abs((polyline.spans?.first?.segments ?? 0) - 2) < 1e-9)
        let redWithStamp = GMSStrokeStyle.solidColor(.red)
        redWithStamp.stampStyle = GMSTextureStyle(image: makeHouseImage())
        polyline.spans = [GMSStyleSpan(style: redWithStamp)]
        let transparentStampStroke = GMSStrokeStyle.transparentStroke(
            withStamp: GMSSpriteStyle(image: makeHouseImage()))
        polyline.spans = [GMSStyleSpan(style: transparentStampStroke)]
        polyline.map = nil

        // Polygons.
        let rect = GMSMutablePath()
        rect.add(CLLocationCoordinate2D(latitude: -33.85, longitude: 151.20))
        rect.add(CLLocationCoordinate2D(latitude: -33.70, longitude: 151.20))
        rect.add(CLLocationCoordinate2D(latitude: -33.70, longitude: 151.40))
        rect.add(CLLocationCoordinate2D(latitude: -33.85, longitude: 151.40))
        let polygon = GMSPolygon(path: rect)
        polygon.fillColor = UIColor(red: 0.25, green: 0, blue: 0, alpha: 0.05)
        polygon.strokeColor = .black
        polygon.strokeWidth = 2
        polygon.map = mapView
        let hole = GMSMutablePath()
        hole.add(CLLocationCoordinate2D(latitude: -33.80, longitude: 151.28))
        hole.add(CLLocationCoordinate2D(latitude: -33.75, longitude: 151.28))
        hole.add(CLLocationCoordinate2D(latitude: -33.75, longitude: 151.32))
        hole.add(CLLocationCoordinate2D(latitude: -33.80, longitude: 151.32))
        polygon.holes = [hole]
        polygon.isTappable = true

        // Circles.
        let circleCenter = CLLocationCoordinate2D(latitude: 37.35, longitude: -122.0)
        let circle = GMSCircle(position: circleCenter, radius: 1000)
        circle.fillColor = UIColor(red: 0.35, green: 0, blue: 0, alpha: 0.05)
        circle.strokeColor = .red
        circle.strokeWidth = 5
        circle.map = mapView

        // Ground overlays.
        let southWest = CLLocationCoordinate2D(latitude: 40.712216, longitude: -74.22655)
        let northEast = CLLocationCoordinate2D(latitude: 40.773941, longitude: -74.12544)
        let overlayBounds = GMSCoordinateBounds(coordinate: southWest, coordinate: northEast)
        let icon = makeHouseImage()
        let overlay = GMSGroundOverlay(bounds: overlayBounds, icon: icon)
        overlay.bearing = 0
        overlay.map = mapView

        // A tap inside the polygon (not in the hole) reports it; clear() removes every overlay.
        let inside = mapView.projection.point(for: CLLocationCoordinate2D(latitude: -33.82, longitude: 151.22))
        mapView.handleTap(at: inside)
        #expect(delegate.tapped.count == 1 && delegate.tapped.first === polygon)
        let inHole = mapView.projection.point(for: CLLocationCoordinate2D(latitude: -33.775, longitude: 151.30))
        mapView.handleTap(at: inHole)
        #expect(delegate.tapped.count == 1)
        mapView.clear()
        #expect(polygon.map == nil && circle.map == nil && overlay.map == nil)
    }
}
