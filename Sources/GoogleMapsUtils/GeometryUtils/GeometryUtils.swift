import GoogleMaps

// google-maps-ios-utils' Swift geometry helpers, written over GoogleMaps' geometry library (GMSGeometryUtils): the
// spherical maths lives there once. Radii other than kGMSEarthRadius scale the results (areas by the square of the
// ratio, distances by the ratio).

extension CLLocationCoordinate2D {
    /// The great-circle distance to `to` in metres on a sphere of ``kGMSEarthRadius`` (``GMSGeometryDistance(_:_:)``).
    public func distance(to: CLLocationCoordinate2D) -> CLLocationDistance {
        GMSGeometryDistance(self, to)
    }

    /// The initial heading towards `to`, degrees clockwise from north in [0, 360) (``GMSGeometryHeading(_:_:)``).
    public func heading(to: CLLocationCoordinate2D) -> CLLocationDirection {
        GMSGeometryHeading(self, to)
    }

    /// The coordinate `distance` metres away along the great circle starting at `heading` degrees
    /// (``GMSGeometryOffset(_:_:_:)``).
    public func offset(distance: CLLocationDistance, heading: CLLocationDirection) -> CLLocationCoordinate2D {
        GMSGeometryOffset(self, distance, heading)
    }

    /// The coordinate `fraction` of the way to `to` along the shortest great circle
    /// (``GMSGeometryInterpolate(_:_:_:)``).
    public func interpolate(to: CLLocationCoordinate2D, fraction: Double) -> CLLocationCoordinate2D {
        GMSGeometryInterpolate(self, to, fraction)
    }

    /// The coordinate's projected point (``GMSProject(_:)``).
    public var mapPoint: MapPoint {
        let p = GMSProject(self)
        return MapPoint(x: p.x, y: p.y)
    }
}

/// A point in the projected plane (google-maps-ios-utils' `MapPoint`, the same space as ``GMSMapPoint``): x in
/// [−1, 1] eastwards, y northwards, (0, 0) at latitude and longitude 0.
public struct MapPoint: Equatable, Sendable {
    /// The horizontal coordinate, [−1, 1].
    public var x: Double
    /// The vertical coordinate (1 at 85.0511° N).
    public var y: Double

    /// The point (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The coordinate of the point (``GMSUnproject(_:)``).
    public var location: CLLocationCoordinate2D { GMSUnproject(GMSMapPoint(x: x, y: y)) }

    /// The length of the segment to `to`, the short way across the antimeridian (``GMSMapPointDistance(_:_:)``).
    public func distance(to: MapPoint) -> Double {
        GMSMapPointDistance(GMSMapPoint(x: x, y: y), GMSMapPoint(x: to.x, y: to.y))
    }

    /// The point `fraction` of the way from `from` to `to`, the short way across the antimeridian
    /// (``GMSMapPointInterpolate(_:_:_:)``).
    public static func interpolate(from: MapPoint, to: MapPoint, fraction: Double) -> MapPoint {
        let p = GMSMapPointInterpolate(GMSMapPoint(x: from.x, y: from.y), GMSMapPoint(x: to.x, y: to.y), fraction)
        return MapPoint(x: p.x, y: p.y)
    }
}

extension GMSPath {
    /// The tolerance of ``isOnPath(coordinate:geodesic:tolerance:)`` by default: 0.1 m.
    public static let defaultToleranceInMeters = 0.1

    /// The area of the closed path on a sphere of `radius` metres (``GMSGeometryArea(_:)`` scaled), m².
    public func area(radius: CLLocationDistance = kGMSEarthRadius) -> Double {
        abs(signedArea(radius: radius))
    }

    /// The signed area (positive counter-clockwise) on a sphere of `radius` metres (``GMSGeometrySignedArea(_:)``
    /// scaled); 0 for fewer than three coordinates.
    public func signedArea(radius: CLLocationDistance = kGMSEarthRadius) -> Double {
        let ratio = radius / kGMSEarthRadius
        return GMSGeometrySignedArea(self) * ratio * ratio
    }

    /// Whether `coordinate` is inside the closed path (``GMSGeometryContainsLocation(_:_:_:)``).
    public func contains(coordinate: CLLocationCoordinate2D, geodesic: Bool) -> Bool {
        GMSGeometryContainsLocation(coordinate, self, geodesic)
    }

    /// Whether `coordinate` lies within `tolerance` metres of the path
    /// (``GMSGeometryIsLocationOnPathTolerance(_:_:_:_:)``).
    public func isOnPath(
        coordinate: CLLocationCoordinate2D, geodesic: Bool, tolerance: Double = GMSPath.defaultToleranceInMeters
    ) -> Bool {
        GMSGeometryIsLocationOnPathTolerance(coordinate, self, geodesic, tolerance)
    }

    /// Style spans repeating `styles` over `lengths` along the path, skipping `offset` first
    /// (``GMSStyleSpansOffset(_:_:_:_:_:)``).
    public func styleSpans(
        styles: [GMSStrokeStyle], lengths: [Double], lengthKind: GMSLengthKind, offset: Double = 0
    ) -> [GMSStyleSpan] {
        guard !styles.isEmpty, !lengths.isEmpty else { return [] }
        return GMSStyleSpansOffset(self, styles, lengths.map { NSNumber(value: $0) }, lengthKind, offset)
    }
}

extension GMSPolygon {
    /// Whether `coordinate` is inside the polygon's path (holes not considered, as Google's); false without a path.
    public func contains(coordinate: CLLocationCoordinate2D) -> Bool {
        path?.contains(coordinate: coordinate, geodesic: geodesic) ?? false
    }

    /// The area of the polygon's path on a sphere of `radius` metres, or nil without a path.
    public func area(radius: CLLocationDistance = kGMSEarthRadius) -> Double? {
        path?.area(radius: radius)
    }

    /// The signed area of the polygon's path, or nil without a path.
    public func signedArea(radius: CLLocationDistance = kGMSEarthRadius) -> Double? {
        path?.signedArea(radius: radius)
    }
}

extension GMSPolyline {
    /// Whether `coordinate` lies within `tolerance` metres of the polyline's path; false without a path.
    public func isOnPolyline(
        coordinate: CLLocationCoordinate2D, tolerance: Double = GMSPath.defaultToleranceInMeters
    ) -> Bool {
        path?.isOnPath(coordinate: coordinate, geodesic: geodesic, tolerance: tolerance) ?? false
    }
}
