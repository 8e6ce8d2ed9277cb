#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension CameraState {
    /// This camera fitted to `bounds`, as Google's `GMSCameraUpdate.fit(_:with:)` and
    /// `GMSMapView.camera(for:insets:)` fit: bearing and pitch 0; the zoom at which the bounds' Mercator box
    /// (``LatLngBounds/worldBox``) fills the view shrunk by ``padding`` plus `insets`, clamped by `constraints`
    /// (their minimum when nothing is left of the view); the box's centre drawn at the centre of that shrunk
    /// rectangle. Centre and size are otherwise this camera's; nothing else is clamped.
    /// - Parameters:
    ///   - bounds: the region to show.
    ///   - insets: points kept free on each side, on top of ``padding``; pass them sanitised
    ///     (``EdgeInsets/sanitized``).
    ///   - constraints: the zoom range.
    /// - Returns: the fitted camera; this camera's size and padding.
    public func fitting(_ bounds: LatLngBounds, insets: EdgeInsets, constraints: CameraConstraints) -> CameraState {
        var s = self
        s.bearing = 0
        s.pitch = 0
        let (sw, ne) = bounds.worldBox
        let boxWidth = ne.x - sw.x
        let boxHeight = sw.y - ne.y
        let total = s.padding.sanitized + insets
        let availableWidth = s.size.width - total.left - total.right
        let availableHeight = s.size.height - total.top - total.bottom
        if availableWidth <= 0 || availableHeight <= 0 {
            s.zoom = constraints.minimumZoom
        } else {
            let zx = boxWidth > 0 ? log2(availableWidth / (256 * boxWidth)) : Double.infinity
            let zy = boxHeight > 0 ? log2(availableHeight / (256 * boxHeight)) : Double.infinity
            s.zoom = constraints.clampZoom(min(zx, zy))
        }
        // The box centre goes to the centre of the (padding + insets) rectangle; the target sits at the centre of
        // the padding-only rectangle, so shift by the difference (pitch 0, bearing 0: a plain scale).
        let worldSize = WebMercator.worldSize(zoom: s.zoom)
        let shiftX = (insets.left - insets.right) / 2
        let shiftY = (insets.top - insets.bottom) / 2
        let center = WorldPoint(
            x: sw.x + boxWidth / 2 - shiftX / worldSize, y: ne.y + boxHeight / 2 - shiftY / worldSize)
        s.center = WebMercator.latLng(center)
        return s
    }
}
