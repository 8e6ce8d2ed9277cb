import MapGeometry

/// PMTiles v3 tile ids: every tile of every zoom numbered along a Hilbert curve, zoom by zoom (PMTiles v3 spec,
/// "Tile IDs"). Zoom `z` starts at id `(4^z − 1) / 3`; inside a zoom, ids follow the Hilbert curve over the
/// `2^z × 2^z` grid in XYZ orientation (row 0 in the north).
public enum PMTilesTileID {
    /// The first tile id of zoom `z` (`(4^z − 1) / 3`), for `0...31`.
    static func firstID(ofZoom z: Int) -> UInt64 {
        ((UInt64(1) << UInt64(2 * z)) - 1) / 3
    }

    /// The tile id of an XYZ tile (its `wrap` is ignored).
    public static func id(of address: TileID) -> UInt64 {
        var x = UInt64(address.x)
        var y = UInt64(address.y)
        var position: UInt64 = 0
        var s = UInt64(1) << UInt64(max(address.z - 1, 0))
        while s > 0 && address.z > 0 {
            let rx: UInt64 = (x & s) > 0 ? 1 : 0
            let ry: UInt64 = (y & s) > 0 ? 1 : 0
            position += s * s * ((3 * rx) ^ ry)
            x &= s - 1
            y &= s - 1
            rotate(n: s, x: &x, y: &y, rx: rx, ry: ry)
            s >>= 1
        }
        return firstID(ofZoom: address.z) + position
    }

    /// The XYZ address of a tile id, or `nil` for ids beyond zoom 30 (where ``TileID`` ends).
    public static func address(of id: UInt64) -> TileID? {
        var z = 0
        while z < 30 && firstID(ofZoom: z + 1) <= id { z += 1 }
        let start = firstID(ofZoom: z)
        let count = UInt64(1) << UInt64(2 * z)
        guard id - start < count else { return nil }
        var t = id - start
        var x: UInt64 = 0
        var y: UInt64 = 0
        var s: UInt64 = 1
        let n = UInt64(1) << UInt64(z)
        while s < n {
            let rx = 1 & (t / 2)
            let ry = 1 & (t ^ rx)
            rotate(n: s, x: &x, y: &y, rx: rx, ry: ry)
            x += s * rx
            y += s * ry
            t /= 4
            s <<= 1
        }
        return TileID(z: z, x: Int(x), y: Int(y))
    }

    private static func rotate(n: UInt64, x: inout UInt64, y: inout UInt64, rx: UInt64, ry: UInt64) {
        guard ry == 0 else { return }
        if rx == 1 {
            x = n - 1 - x
            y = n - 1 - y
        }
        swap(&x, &y)
    }
}
