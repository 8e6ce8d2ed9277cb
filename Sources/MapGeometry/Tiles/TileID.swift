/// A map tile in the XYZ ("slippy map") scheme, with an optional world copy.
///
/// - `z`: zoom level, 0…30. The world is `2^z × 2^z` tiles.
/// - `x`: column, 0…`2^z − 1`, growing east from longitude −180 (canonical, always inside the world).
/// - `y`: row, 0…`2^z − 1`, growing south from latitude 85.0511 (the XYZ scheme, not TMS).
/// - `wrap`: which copy of the world the tile belongs to when the view crosses the antimeridian: 0 is the primary
///   world, −1 the copy to the west, +1 the copy to the east. Tiles with different `wrap` share the same data.
///
/// Source: `maplibre-native:include/mbgl/tile/tile_id.hpp` (`CanonicalTileID`, `UnwrappedTileID`).
public struct TileID: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// Zoom level, 0…30.
    public let z: Int
    /// Canonical column, 0…`2^z − 1`.
    public let x: Int
    /// Row, 0…`2^z − 1`, north to south.
    public let y: Int
    /// World copy: 0 for the primary world, negative west, positive east.
    public let wrap: Int

    /// Creates a tile from canonical coordinates.
    /// - Precondition: `0 ≤ z ≤ 30`, `0 ≤ x, y < 2^z` (programmer error otherwise).
    public init(z: Int, x: Int, y: Int, wrap: Int = 0) {
        precondition(z >= 0 && z <= 30, "TileID zoom must be in 0…30, got \(z)")
        let n = 1 << z
        precondition(x >= 0 && x < n && y >= 0 && y < n, "TileID \(z)/\(x)/\(y) is outside the \(n)×\(n) grid")
        self.z = z
        self.x = x
        self.y = y
        self.wrap = wrap
    }

    /// Creates a tile from an unwrapped column (any integer): `x` becomes the column modulo `2^z`, `wrap` the
    /// number of whole worlds east (negative west).
    /// - Precondition: `0 ≤ z ≤ 30`, `0 ≤ y < 2^z`.
    public init(z: Int, unwrappedX: Int, y: Int) {
        precondition(z >= 0 && z <= 30, "TileID zoom must be in 0…30, got \(z)")
        let n = 1 << z
        let w = unwrappedX >= 0 ? unwrappedX / n : -((-unwrappedX + n - 1) / n)
        self.init(z: z, x: unwrappedX - w * n, y: y, wrap: w)
    }

    /// The tile at `z/x/y` when it lies on the grid (`0 ≤ z ≤ 30`, `0 ≤ x, y < 2^z`), otherwise `nil`: for
    /// coordinates read from files, URLs or the command line, which must not trap.
    public static func valid(z: Int, x: Int, y: Int) -> TileID? {
        guard z >= 0 && z <= 30 && x >= 0 && y >= 0 && x < (1 << z) && y < (1 << z) else { return nil }
        return TileID(z: z, x: x, y: y)
    }

    /// The column counted across world copies: `x + wrap · 2^z`.
    public var unwrappedX: Int { x + wrap * (1 << z) }

    /// The same tile in the primary world (`wrap` 0).
    public var canonical: TileID { TileID(z: z, x: x, y: y) }

    /// The tile one zoom level up that contains this one (same `wrap`), or `nil` at zoom 0.
    public var parent: TileID? {
        z == 0 ? nil : TileID(z: z - 1, x: x >> 1, y: y >> 1, wrap: wrap)
    }

    /// The tile at zoom `zoom` that contains this one (same `wrap`): `x` and `y` shifted right by `z − zoom`.
    /// - Precondition: `0 ≤ zoom ≤ z`.
    public func ancestor(atZoom zoom: Int) -> TileID {
        precondition(zoom >= 0 && zoom <= z, "ancestor zoom \(zoom) outside 0...\(z)")
        let d = z - zoom
        return TileID(z: zoom, x: x >> d, y: y >> d, wrap: wrap)
    }

    /// The four tiles one zoom level down, in the order NW, NE, SW, SE (same `wrap`).
    /// - Precondition: `z < 30`.
    public var children: [TileID] {
        precondition(z < 30, "TileID at zoom 30 has no children")
        let cx = x << 1
        let cy = y << 1
        return [
            TileID(z: z + 1, x: cx, y: cy, wrap: wrap), TileID(z: z + 1, x: cx + 1, y: cy, wrap: wrap),
            TileID(z: z + 1, x: cx, y: cy + 1, wrap: wrap), TileID(z: z + 1, x: cx + 1, y: cy + 1, wrap: wrap),
        ]
    }

    /// The tile's north-west corner in world units (including the `wrap` offset).
    public var northWest: WorldPoint {
        let n = Double(1 << z)
        return WorldPoint(x: Double(unwrappedX) / n, y: Double(y) / n)
    }

    /// The tile's side in world units, `1 / 2^z`.
    public var worldSize: Double { 1 / Double(1 << z) }

    /// The tile at zoom `z` containing a world point (x unwrapped, y clamped into the world).
    /// - Precondition: `0 ≤ z ≤ 30`; `point` finite.
    public static func containing(_ point: WorldPoint, zoom z: Int) -> TileID {
        precondition(point.x.isFinite && point.y.isFinite, "TileID.containing needs a finite point, got \(point)")
        let n = Double(1 << z)
        let ux = Int((point.x * n).rounded(.down))
        let y = Int(clamp((point.y * n).rounded(.down), 0, n - 1))
        return TileID(z: z, unwrappedX: ux, y: y)
    }

    /// `"z/x/y"` plus `@wrap` when not in the primary world.
    public var description: String { wrap == 0 ? "\(z)/\(x)/\(y)" : "\(z)/\(x)/\(y)@\(wrap)" }

    /// Orders by zoom, then wrap, then row, then column.
    public static func < (a: TileID, b: TileID) -> Bool {
        (a.z, a.wrap, a.y, a.x) < (b.z, b.wrap, b.y, b.x)
    }
}
