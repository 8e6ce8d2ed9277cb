/// Google's Encoded Polyline Algorithm Format
/// (https://developers.google.com/maps/documentation/utilities/polylinealgorithm), the string form of
/// `GMSPath.encodedPath()` and `GMSPath(fromEncodedPath:)`.
///
/// Each coordinate is stored as the difference from the previous one (the first from (0, 0)), latitude then longitude,
/// in units of 1e−5 degrees: the value is rounded (halves away from zero), shifted left one bit and inverted when
/// negative (zig-zag), split into 5-bit chunks from the least significant, every chunk but the last OR-ed with 0x20,
/// and each chunk written as the character of code chunk + 63 (so only `?` … `~` occur).
/// - Thread rules: pure functions, safe from any thread.
public enum EncodedPolyline {
    /// The encoded string of `path`. Coordinates with a non-finite component, or a component beyond ±``limit``
    /// degrees, are not represented and are skipped. The empty path gives "".
    public static func encode(_ path: [LatLng]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.count * 8)
        var previous = (latitude: 0, longitude: 0)
        for p in path {
            guard let latitude = units(p.latitude), let longitude = units(p.longitude) else { continue }
            append(latitude - previous.latitude, to: &bytes)
            append(longitude - previous.longitude, to: &bytes)
            previous = (latitude, longitude)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The path of an encoded string, or nil when `encoded` is not a valid encoding: a character outside `?` … `~`,
    /// a value cut off before its last chunk, a latitude without its longitude, or a value beyond ±``limit``
    /// degrees. "" decodes to the empty path. Decoded values are not range-checked (a latitude beyond ±90 decodes
    /// as written), so every string ``encode(_:)`` makes decodes to its input at 1e−5 precision.
    public static func decode(_ encoded: String) -> [LatLng]? {
        var path: [LatLng] = []
        var latitude = 0
        var longitude = 0
        var pending: Int?  // the latitude delta waiting for its longitude
        var value = 0
        var shift = 0
        for byte in encoded.utf8 {
            guard byte >= 63 && byte <= 126 else { return nil }
            let chunk = Int(byte) - 63
            // 11 chunks hold 55 bits: more than any coordinate needs, and far from overflowing Int.
            guard shift <= 50 else { return nil }
            value |= (chunk & 0x1f) << shift
            shift += 5
            if chunk >= 0x20 { continue }
            let delta = value & 1 == 0 ? value >> 1 : ~(value >> 1)
            value = 0
            shift = 0
            if let latitudeDelta = pending {
                latitude += latitudeDelta
                longitude += delta
                guard abs(latitude) < 1 << 45, abs(longitude) < 1 << 45 else { return nil }
                path.append(LatLng(latitude: Double(latitude) / 1e5, longitude: Double(longitude) / 1e5))
                pending = nil
            } else {
                pending = delta
            }
        }
        guard shift == 0, pending == nil else { return nil }
        return path
    }

    /// The largest magnitude in degrees that encodes (2^45 units of 1e−5°, about 3.5e8°): far beyond any coordinate,
    /// and small enough that every encodable value decodes and re-encodes exactly.
    public static let limit: Double = 0x1p45 / 1e5

    /// `degrees` in rounded units of 1e−5 degrees, or nil when not representable.
    private static func units(_ degrees: Double) -> Int? {
        let scaled = (degrees * 1e5).rounded()
        guard scaled.isFinite, abs(scaled) < 0x1p45 else { return nil }
        return Int(scaled)
    }

    /// Appends the zig-zag, 5-bit-chunked form of `delta`.
    private static func append(_ delta: Int, to bytes: inout [UInt8]) {
        var v = delta < 0 ? ~(delta << 1) : delta << 1
        while v >= 0x20 {
            bytes.append(UInt8((0x20 | (v & 0x1f)) + 63))
            v >>= 5
        }
        bytes.append(UInt8(v + 63))
    }
}
