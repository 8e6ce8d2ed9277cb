// MERGE NOTE (shapes branch): stand-ins for declarations the `geometry` branch owns (GMSLengthKind, and the
// great-circle helpers behind GMSGeometryInterpolate/GMSGeometryOffset). When both branches are merged, delete
// `GMSLengthKind` below and point `ShapeGeometry.interpolate`/`offset`/`segmentLengths` at the geometry library's
// functions (GMSGeometryInterpolate, GMSGeometryOffset, GMSPath.length(of:) per segment).

/// How a length along a path is measured (Maps SDK for iOS `GMSLengthKind`).
public enum GMSLengthKind: Int, Sendable {
    /// Metres along great circles (the shortest path on the sphere).
    case geodesic = 0
    /// Metres along rhumb lines (constant heading).
    case rhumb = 1
    /// Mercator map units: the equator is 2 long (GMSMapPoint units).
    case projected = 2
}
