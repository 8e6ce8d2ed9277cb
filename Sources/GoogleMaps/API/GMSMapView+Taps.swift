import Foundation
import LinuxUIKit
import MapGeometry

/// What a tap or long press hit, top to bottom (D7; the map's buttons first).
package enum MapTapTarget: Equatable {
    /// The compass (spec §4.3).
    case compassButton
    /// The my-location button (spec §4.4).
    case myLocationButton
    /// A level row of the floor picker.
    case floorLevel(GMSIndoorLevel)
    /// The my-location dot, at the fix's coordinate (below markers).
    case myLocationDot(CLLocationCoordinate2D)
    /// The open info window of the marker.
    case infoWindow(GMSMarker)
    /// A tappable marker (the top-most).
    case marker(GMSMarker)
    /// A tappable non-marker overlay (the top-most: highest zIndex, the later added on ties).
    case overlay(GMSOverlay)
    /// A base-map point of interest: its place id, name and position (below markers, above the map; D7).
    case poi(placeID: String, name: String, location: CLLocationCoordinate2D)
    /// The map at a coordinate (nil beyond the horizon).
    case map(CLLocationCoordinate2D?)

    /// Same case and the same marker (identity) or the same coordinate.
    public static func == (a: MapTapTarget, b: MapTapTarget) -> Bool {
        switch (a, b) {
        case (.infoWindow(let x), .infoWindow(let y)), (.marker(let x), .marker(let y)): return x === y
        case (.overlay(let x), .overlay(let y)): return x === y
        case (.map(let x), .map(let y)):
            return x?.latitude == y?.latitude && x?.longitude == y?.longitude
        case (.poi(let x, _, _), .poi(let y, _, _)): return x == y
        case (.compassButton, .compassButton), (.myLocationButton, .myLocationButton): return true
        case (.floorLevel(let x), .floorLevel(let y)): return x === y
        case (.myLocationDot(let x), .myLocationDot(let y)):
            return x.latitude == y.latitude && x.longitude == y.longitude
        default: return false
        }
    }
}

extension GMSMapView {
    // MARK: Hit testing

    /// What lies under `point` (view points): a control button (compass, my-location button, floor level), else the
    /// info window, else the top-most tappable marker, else the my-location dot, else the top-most tappable shape or
    /// ground overlay, else a base-map POI of the last frame, else the map (D7).
    package func tapTarget(_ point: CGPoint) -> MapTapTarget {
        switch controlHit(at: point) {
        case .compass: return .compassButton
        case .myLocationButton: return .myLocationButton
        case .floorLevel(let level): return .floorLevel(level)
        case .myLocationDot, nil: break
        }
        if let window = infoWindow, let (_, frame) = FrameRenderer.infoWindowFrame(map: self), frame.contains(point) {
            return .infoWindow(window.marker)
        }
        if let marker = markerHit(at: point) { return .marker(marker) }
        if point.x.isFinite, point.y.isFinite, let fix = controls.dotHit(at: point, map: self) {
            return .myLocationDot(fix.coordinate)
        }
        if let overlay = overlayStage.hit(at: ScreenPoint(point), camera: cameraState, scale: Double(renderScale))
            as? GMSOverlay
        {
            return .overlay(overlay)
        }
        if showsBasemapPOIs, let poi = activeBasemap?.poi(at: point) {
            return .poi(placeID: poi.placeID, name: poi.name, location: poi.location)
        }
        return .map(coordinate(at: point))
    }

    private func coordinate(at point: CGPoint) -> CLLocationCoordinate2D? {
        guard point.x.isFinite, point.y.isFinite,
            let ll = cameraState.latLng(for: ScreenPoint(point))
        else { return nil }
        return CLLocationCoordinate2D(ll.wrapped)
    }

    /// The top-most tappable marker whose drawn icon (anchor, rotation, flatness, alignment insets applied; model
    /// values) contains `point`, or nil. Markers with invalid positions are never hit (D14); opacity 0 markers are
    /// (D13). Uses the marker quadtree (``MarkerStore/topmostHit(at:camera:)``).
    package func markerHit(at point: CGPoint) -> GMSMarker? {
        store.topmostHit(at: point, camera: cameraState.transform)
    }

    // MARK: Tap entry points (called by the gesture layer and by tests)

    /// A single tap at `point` (view points), delivered at touch-up (D8). Exactly one callback fires (D7):
    /// - on the open info window: `didTapInfoWindowOf` (the window stays open);
    /// - on a tappable marker: `didTap(marker)`; when it returns false (or is not implemented) the marker is selected
    ///   (a different previous selection closes first with `didCloseInfoWindowOf`; re-tapping the selected marker
    ///   closes and reopens its window) and the camera animates its target to the marker (D9);
    /// - on a tappable overlay that is not a marker: `didTap(overlay)`, then the selection closes (D7);
    /// - on a base-map POI: `didTapPOIWithPlaceID` (no `didTapAt`), then the selection closes (D7);
    /// - elsewhere: `didTapAt(coordinate)`, then the selection (if any) closes with `didCloseInfoWindowOf` (§2.2).
    /// Returns what was hit.
    @discardableResult
    package func handleTap(at point: CGPoint) -> MapTapTarget {
        handleTap(on: tapTarget(point))
    }

    /// A single tap on `target` (classified once, at touch-down, by the gesture layer; see ``handleTap(at:)``).
    @discardableResult
    func handleTap(on target: MapTapTarget) -> MapTapTarget {
        switch target {
        case .infoWindow(let marker):
            delegate?.mapView(self, didTapInfoWindowOf: marker)
        case .marker(let marker):
            if delegate?.mapView(self, didTap: marker) == true { break }
            // The delegate may have removed the marker or changed the selection.
            guard marker.mapStorage === self else { break }
            if let current = selectedMarker { closeSelection(of: current) }
            open(marker)
            animate(toLocation: marker.position)
        case .overlay(let overlay):
            delegate?.mapView(self, didTap: overlay)
            if let current = selectedMarker { closeSelection(of: current) }
        case .poi(let placeID, let name, let location):
            delegate?.mapView(self, didTapPOIWithPlaceID: placeID, name: name, location: location)
            if let current = selectedMarker { closeSelection(of: current) }
        case .map(let coordinate):
            if let coordinate { delegate?.mapView(self, didTapAt: coordinate) }
            if let current = selectedMarker { closeSelection(of: current) }
        case .compassButton: handleControlTap(.compass)
        case .myLocationButton: handleControlTap(.myLocationButton)
        case .floorLevel(let level): handleControlTap(.floorLevel(level))
        case .myLocationDot(let coordinate):
            delegate?.mapView(self, didTapMyLocation: coordinate)
        }
        return target
    }

    /// A long press at `point` (view points; 0.5 s, 10 pt tolerance, D10). On the open info window:
    /// `didLongPressInfoWindowOf`. Elsewhere — including on a marker that is not draggable — `didLongPressAt` with the
    /// coordinate under the touch. On a draggable marker nothing is reported here: the gesture layer starts a drag
    /// (§2.7) instead, and the returned target tells it which marker.
    @discardableResult
    package func handleLongPress(at point: CGPoint) -> MapTapTarget {
        let target = tapTarget(point)
        switch target {
        case .infoWindow(let marker):
            delegate?.mapView(self, didLongPressInfoWindowOf: marker)
        case .marker(let marker) where marker.isDraggable:
            break
        case .marker, .map, .myLocationDot, .poi, .overlay:
            if let coordinate = coordinate(at: point) { delegate?.mapView(self, didLongPressAt: coordinate) }
        case .compassButton, .myLocationButton, .floorLevel:
            break
        }
        return target
    }
}

/// The phases of a marker drag (§2.7), driven by the gesture layer.
package enum MarkerDragPhase: Sendable {
    /// The long press on a draggable marker was recognised.
    case began
    /// The finger moved.
    case changed
    /// The finger lifted (or the gesture was cancelled).
    case ended
}

extension GMSMapView {
    /// Not API: moves a draggable `marker` so its ground anchor is under `point` (view points; a point beyond the
    /// horizon keeps the last position) and reports `didBeginDragging` / `didDrag` / `didEndDragging`, the position
    /// already updated (without animation) before each call. Ignored for markers that are not on this map or not
    /// draggable. Main thread.
    package func dragMarker(_ marker: GMSMarker, phase: MarkerDragPhase, to point: CGPoint) {
        guard marker.mapStorage === self, marker.isDraggable else { return }
        if point.x.isFinite, point.y.isFinite, let ll = cameraState.latLng(for: ScreenPoint(point)) {
            marker.withoutImplicitAnimation { marker.position = CLLocationCoordinate2D(ll.wrapped) }
        }
        switch phase {
        case .began: delegate?.mapView(self, didBeginDragging: marker)
        case .changed: delegate?.mapView(self, didDrag: marker)
        case .ended: delegate?.mapView(self, didEndDragging: marker)
        }
    }
}
