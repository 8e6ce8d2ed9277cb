extension CameraState {
    /// The camera a fraction of the way from `self` to `target`, for animation frames.
    ///
    /// - The centre moves in world space along the straight line, crossing the antimeridian when that is shorter
    ///   (shortest longitude difference); the result's longitude is wrapped into [−180, 180).
    /// - Zoom is linear (zoom is already the logarithm of scale, so the scale changes geometrically).
    /// - Bearing turns along the shorter arc (350 → 10 passes through 0); the result is wrapped into [0, 360).
    /// - Pitch, size and padding are linear.
    /// - Parameters:
    ///   - target: the camera at the end of the animation.
    ///   - fraction: 0 gives `self`, 1 gives `target` exactly (with the longitude and bearing wrapped); values are
    ///     clamped into [0, 1], and NaN counts as 1.
    /// - Returns: the in-between camera; `self` unchanged at a fraction of 0 or less.
    public func interpolated(to target: CameraState, fraction: Double) -> CameraState {
        let t = fraction.isNaN ? 1 : clamp(fraction, 0, 1)
        if t <= 0 { return self }
        if t >= 1 {
            var end = target
            end.center = target.center.wrapped
            end.bearing = target.bearing.isFinite ? wrap(target.bearing, minimum: 0, maximum: 360) : target.bearing
            return end
        }
        func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        let a = centerWorldPoint
        let b = target.centerWorldPoint
        var dx = b.x - a.x
        if dx.isFinite { dx -= dx.rounded() }  // shortest way round: |dx| ≤ 0.5
        let w = WorldPoint(x: a.x + dx * t, y: lerp(a.y, b.y))
        var result = self
        result.center = WebMercator.latLng(w).wrapped
        result.zoom = lerp(zoom, target.zoom)
        var db = target.bearing - bearing
        if db.isFinite { db = wrap(db, minimum: -180, maximum: 180) }
        let bearingNow = bearing + db * t
        result.bearing = bearingNow.isFinite ? wrap(bearingNow, minimum: 0, maximum: 360) : bearingNow
        result.pitch = lerp(pitch, target.pitch)
        result.size = ScreenSize(
            width: lerp(size.width, target.size.width), height: lerp(size.height, target.size.height))
        result.padding = EdgeInsets(
            top: lerp(padding.top, target.padding.top), left: lerp(padding.left, target.padding.left),
            bottom: lerp(padding.bottom, target.padding.bottom), right: lerp(padding.right, target.padding.right))
        return result
    }

    /// How far a move from `self` to `target` travels on screen, in screen heights-or-widths ("screens"):
    /// the centre's travel measured at the lower of the two zooms divided by the view diagonal, plus half the
    /// zoom change, plus bearing change / 180 and pitch change / 90. Used to pick a default animation duration.
    /// Non-finite fields give +infinity.
    public func screenDistance(to target: CameraState) -> Double {
        let a = centerWorldPoint
        let b = target.centerWorldPoint
        var dx = b.x - a.x
        if dx.isFinite { dx -= dx.rounded() }
        let dy = b.y - a.y
        let world = WebMercator.worldSize(zoom: min(zoom, target.zoom))
        let diagonal = max(1, (size.width * size.width + size.height * size.height).squareRoot())
        var db = target.bearing - bearing
        if db.isFinite { db = wrap(db, minimum: -180, maximum: 180) }
        let d =
            (dx * dx + dy * dy).squareRoot() * world / diagonal + abs(target.zoom - zoom) / 2 + abs(db) / 180
            + abs(target.pitch - pitch) / 90
        return d.isNaN ? .infinity : d
    }
}
