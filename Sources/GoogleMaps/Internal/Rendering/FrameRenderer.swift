import Foundation
import LinuxUIKit
import MapGeometry

/// Draws one frame of a map: basemap, markers bottom to top (`drawMarkers`, Internal/Markers/MarkerDrawing.swift),
/// then the info window.
@MainActor enum FrameRenderer {
    /// The marker pop animation's scale at `t` in [0, 1]: grows from 0, overshoots to about 1.1, settles at 1.
    static func popScale(_ t: Double) -> CGFloat {
        let x = min(max(t, 0), 1)
        let c = 1.70158 * 1.2
        let u = x - 1
        return CGFloat(1 + (c + 1) * u * u * u + c * u * u)
    }

    static func render(map: GMSMapView, into context: CGContext, scale: CGFloat) {
        map.renderScale = scale
        let camera = map.cameraState
        // The stages a host's `--stats` reports (`FrameStages`; one flag test each otherwise).
        if let basemap = map.activeBasemap {
            FrameStages.measure("map.basemap") {
                context.saveGState()
                basemap.draw(camera: camera, in: context, scale: scale)
                context.restoreGState()
            }
        }
        FrameStages.measure("map.overlays") {
            map.overlayStage.draw(camera: camera, in: context, scale: scale)
            ControlsRenderer.drawUnderMarkers(map: map, context: context)
        }
        FrameStages.measure("map.markers") { drawMarkers(map: map, camera: camera, context: context, scale: scale) }
        FrameStages.measure("map.controls") {
            drawInfoWindow(map: map, camera: camera, context: context, scale: scale)
            ControlsRenderer.drawOverlays(map: map, context: context)
        }
    }

    /// The presented (animated) values of a marker, or its model values when nothing animates it.
    struct Presented {
        var position: CLLocationCoordinate2D
        var rotation: Double
        var opacity: Float
        var groundAnchor: CGPoint
        var infoWindowAnchor: CGPoint
    }

    static func presented(_ marker: GMSMarker) -> Presented {
        var p = Presented(
            position: marker.position, rotation: marker.rotation, opacity: marker.opacity,
            groundAnchor: marker.groundAnchor, infoWindowAnchor: marker.infoWindowAnchor)
        guard let layer = marker.layerIfCreated, layer.animationKeys() != nil else { return p }
        p.position.latitude = layer.presentedNumber(kGMSMarkerLayerLatitude, model: p.position.latitude)
        p.position.longitude = layer.presentedNumber(kGMSMarkerLayerLongitude, model: p.position.longitude)
        p.rotation = layer.presentedNumber(kGMSMarkerLayerRotation, model: p.rotation)
        p.opacity = Float(layer.presentedNumber(kGMSMarkerLayerOpacity, model: Double(p.opacity)))
        p.groundAnchor = layer.presentedPoint("groundAnchor", model: p.groundAnchor)
        p.infoWindowAnchor = layer.presentedPoint("infoWindowAnchor", model: p.infoWindowAnchor)
        return p
    }

    /// The image a marker draws now: its icon view's snapshot (re-taken while it tracks changes), the frame of its
    /// icon for the current time, or the default pin at `scale`.
    static func image(for marker: GMSMarker, scale: CGFloat, now: Double) -> UIImage {
        if let view = marker.iconView {
            if marker.tracksViewChanges || marker.iconViewSnapshot == nil {
                marker.iconViewSnapshot = view.renderImage(scale: scale)
            }
            if let snapshot = marker.iconViewSnapshot { return snapshot }
        }
        return iconImage(marker.icon, scale: scale)
    }

    /// The placement of `marker` for `camera` (model values unless `presented` is given), or nil when its position is
    /// invalid or beyond the horizon.
    static func placement(
        of marker: GMSMarker, values: Presented, camera: CameraTransform, size: CGSize, insets: UIEdgeInsets,
        appearScale: CGFloat = 1
    ) -> MarkerPlacement? {
        guard isValidPosition(values.position) else { return nil }
        let w = WebMercator.worldPoint(LatLng(values.position))
        guard camera.depth(of: camera.nearestWorldCopy(of: w)) > camera.distance * 1e-3 else { return nil }
        let s = camera.screenPoint(for: w)
        return MarkerPlacement(
            screenPoint: CGPoint(x: s.x, y: s.y), imageSize: size, insets: insets, groundAnchor: values.groundAnchor,
            rotation: values.rotation, flat: marker.isFlat, bearing: camera.state.bearing, pitch: camera.state.pitch,
            appearScale: appearScale)
    }

    /// Where the selected marker's window goes: its image and its origin in view points, or nil.
    static func infoWindowFrame(map: GMSMapView) -> (UIImage, CGRect)? {
        guard let window = map.infoWindow, let image = window.image else { return nil }
        let marker = window.marker
        let values = presented(marker)
        let (size, insets) = IconMetrics.of(marker)
        guard
            let placement = placement(
                of: marker, values: values, camera: map.cameraState.transform, size: size, insets: insets)
        else { return nil }
        let c = placement.contentRect
        let anchor = placement.viewPoint(
            CGPoint(x: c.minX + values.infoWindowAnchor.x * c.width, y: c.minY + values.infoWindowAnchor.y * c.height))
        let s = map.renderScale
        let origin = CGPoint(
            x: ((anchor.x - window.tip.x) * s).rounded() / s, y: ((anchor.y - window.tip.y) * s).rounded() / s)
        return (image, CGRect(origin: origin, size: image.size))
    }

    private static func drawInfoWindow(map: GMSMapView, camera: CameraState, context: CGContext, scale: CGFloat) {
        guard var window = map.infoWindow else { return }
        let dark = map.controls.isDark
        // Re-rendered when asked, while tracking, in a new appearance, and (the default bubble) at a new scale.
        if window.needsRefresh || window.marker.tracksInfoWindowChanges || window.renderedDark != dark
            || (window.isDefault && window.image?.scale != scale)
        {
            window.render(scale: scale, dark: dark)
            map.infoWindow = window
        }
        guard let (image, frame) = infoWindowFrame(map: map) else { return }
        let placement = MarkerPlacement(
            screenPoint: frame.origin, imageSize: image.size, insets: .zero, groundAnchor: .zero, rotation: 0,
            flat: false, bearing: 0, pitch: 0)
        context.drawImage(
            image, transform: placement.transform, snapToPixels: placement.isAxisAligned, deviceScale: scale, alpha: 1)
    }
}

extension InfoWindowState {
    /// A custom window of a marker that ``GMSMarker/tracksInfoWindowChanges`` whose view changed since it was last
    /// drawn (asked for display or layout): the next frame re-renders it.
    var trackedViewChanged: Bool {
        guard marker.tracksInfoWindowChanges else { return false }
        switch source {
        case .window(let view), .contents(let view): return view.needsRedrawInTree
        case .standard, .none: return false
        }
    }

    /// The default bubble (re-rendered at a new scale freely; custom views keep their selection-time snapshot).
    var isDefault: Bool {
        if case .standard = source { return true }
        return false
    }
}
