import LinuxUIKit
import MapGeometry

// Touch input for GMSMapView: touches go to the GestureManager, which moves the camera through the animator and
// reports taps, long presses and marker drags back here for routing (spec §2.2–2.7, §3; D7, D8, D10, D17).

extension GMSMapView {
    /// Builds the gesture manager with this map's animator, settings and clock, and connects its hit test and events.
    func makeGestureManager() -> GestureManager {
        let manager = GestureManager(animator: animator, settings: settings, clock: dependencies.clock)
        manager.cameraTargetBounds = cameraTargetBounds
        manager.hitTest = { [unowned self] point in self.gestureHitTarget(at: CGPoint(x: point.x, y: point.y)) }
        manager.onEvent = { [unowned self] event in self.route(event) }
        return manager
    }

    /// What lies under a touch-down: the map's buttons, the my-location dot, info windows and tappable markers fire
    /// at touch-up (D8); a draggable marker
    /// turns a long press into a drag (D10); everything else, base-map POIs included, is bare map (a map tap waits
    /// for a possible double tap).
    ///
    /// This is the one hit test of a touch: the target is kept with its touch-down point, and the tap that point
    /// ends in is routed to it without testing again (``route(_:)``).
    func gestureHitTarget(at point: CGPoint) -> GestureHitTarget {
        let target = tapTarget(point)
        touchDownTarget = (point, target)
        switch target {
        case .infoWindow, .compassButton, .myLocationButton, .floorLevel, .myLocationDot:
            return .element
        case .marker(let marker):
            return marker.isDraggable ? .draggable(marker) : .element
        case .map, .poi, .overlay:
            // A POI or a shape lies on the base map: a double tap on it still zooms, so its tap waits like a map tap.
            // A POI is part of the base map: a double tap on it still zooms, so its tap waits like a map tap.
            return .map
        }
    }

    /// Routes a recognised gesture event to the tap, long-press and drag handling of `GMSMapView+Taps.swift`.
    func route(_ event: GestureEvent) {
        switch event {
        case .tap(let p):
            // A tap is reported at its touch-down point: the target classified there.
            let point = CGPoint(x: p.x, y: p.y)
            let classified = touchDownTarget
            touchDownTarget = nil
            if let classified, classified.point == point {
                handleTap(on: classified.target)
            } else {
                handleTap(at: point)
            }
        case .longPress(let p):
            _ = handleLongPress(at: CGPoint(x: p.x, y: p.y))
        case .dragBegan(let object, let p):
            if let marker = object as? GMSMarker { dragMarker(marker, phase: .began, to: CGPoint(x: p.x, y: p.y)) }
        case .dragMoved(let object, let p):
            if let marker = object as? GMSMarker { dragMarker(marker, phase: .changed, to: CGPoint(x: p.x, y: p.y)) }
        case .dragEnded(let object, let p):
            if let marker = object as? GMSMarker { dragMarker(marker, phase: .ended, to: CGPoint(x: p.x, y: p.y)) }
        }
    }

    /// Fingers touched down on the map: fed to the gestures; passed on to the superview too when
    /// `settings.consumesGesturesInView` is false.
    public func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        gestures.touchesBegan(touches, with: event, in: self)
        if !settings.consumesGesturesInView { superview?.touchResponder?.touchesBegan(touches, with: event) }
    }

    /// Fingers moved; see ``touchesBegan(_:with:)``.
    public func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        gestures.touchesMoved(touches, with: event, in: self)
        if !settings.consumesGesturesInView { superview?.touchResponder?.touchesMoved(touches, with: event) }
    }

    /// Fingers lifted; see ``touchesBegan(_:with:)``.
    public func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        gestures.touchesEnded(touches, with: event, in: self)
        if !settings.consumesGesturesInView { superview?.touchResponder?.touchesEnded(touches, with: event) }
    }

    /// The host cancelled the touches; see ``touchesBegan(_:with:)``.
    public func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        gestures.touchesCancelled(touches, with: event, in: self)
        if !settings.consumesGesturesInView { superview?.touchResponder?.touchesCancelled(touches, with: event) }
    }
}
