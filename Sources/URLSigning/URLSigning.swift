// The adapter over Nettle (Debian's nettle-dev): the only target that imports CNettle. HMAC-SHA1 and SHA-1 for the
// static maps server's URL signatures and ETags.
import CNettle

/// Google's URL signing (HMAC-SHA1 over the path and query, keyed by the URL-safe base64 secret, written as URL-safe
/// base64) and the digests around it. Waymark's own. Thread-safe (no shared state).
public enum URLSigning {
    /// HMAC-SHA1 of `message` under `key`: 20 bytes.
    public static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var context = hmac_sha1_ctx()
        var digest = [UInt8](repeating: 0, count: Int(SHA1_DIGEST_SIZE))
        key.withUnsafeBufferPointer { k in nettle_hmac_sha1_set_key(&context, k.count, k.baseAddress) }
        message.withUnsafeBufferPointer { m in nettle_hmac_sha1_update(&context, m.count, m.baseAddress) }
        digest.withUnsafeMutableBufferPointer { d in nettle_hmac_sha1_digest(&context, d.count, d.baseAddress) }
        return digest
    }

    /// SHA-1 of `bytes`: 20 bytes.
    public static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        var context = sha1_ctx()
        var digest = [UInt8](repeating: 0, count: Int(SHA1_DIGEST_SIZE))
        nettle_sha1_init(&context)
        bytes.withUnsafeBufferPointer { b in nettle_sha1_update(&context, b.count, b.baseAddress) }
        digest.withUnsafeMutableBufferPointer { d in nettle_sha1_digest(&context, d.count, d.baseAddress) }
        return digest
    }

    /// The signature Google's servers expect for `pathAndQuery` (for example
    /// `/maps/api/staticmap?center=…&key=…`, as sent, without `&signature=`): HMAC-SHA1 keyed by the decoded
    /// `secret`, in URL-safe base64 (`-` and `_`, with `=` padding).
    /// - Returns: `nil` when `secret` is not URL-safe (or standard) base64.
    public static func signature(pathAndQuery: String, secret: String) -> String? {
        guard let key = base64Decode(secret) else { return nil }
        return base64Encode(hmacSHA1(key: key, message: Array(pathAndQuery.utf8)), urlSafe: true)
    }

    /// Whether `signature` signs `pathAndQuery` under `secret` (compared in constant time over the decoded bytes).
    public static func verify(pathAndQuery: String, signature: String, secret: String) -> Bool {
        guard let key = base64Decode(secret), let given = base64Decode(signature) else { return false }
        let expected = hmacSHA1(key: key, message: Array(pathAndQuery.utf8))
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<expected.count { difference |= given[i] ^ expected[i] }
        return difference == 0
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Base64 with `=` padding; `urlSafe` writes `-` and `_` for `+` and `/`.
    public static func base64Encode(_ bytes: [UInt8], urlSafe: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i]
            let b1 = i + 1 < bytes.count ? bytes[i + 1] : 0
            let b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 3) << 4 | b1 >> 4)])
            out.append(i + 1 < bytes.count ? alphabet[Int((b1 & 15) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? alphabet[Int(b2 & 63)] : UInt8(ascii: "="))
            i += 3
        }
        if urlSafe {
            for k in out.indices {
                if out[k] == UInt8(ascii: "+") { out[k] = UInt8(ascii: "-") }
                if out[k] == UInt8(ascii: "/") { out[k] = UInt8(ascii: "_") }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes standard or URL-safe base64, padding optional; `nil` for any other character.
    public static func base64Decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(c - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(c - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"), UInt8(ascii: "-"): values.append(62)
            case UInt8(ascii: "/"), UInt8(ascii: "_"): values.append(63)
            case UInt8(ascii: "="): continue
            default: return nil
            }
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i + 1 < values.count {
            out.append(values[i] << 2 | values[i + 1] >> 4)
            if i + 2 < values.count { out.append((values[i + 1] & 15) << 4 | values[i + 2] >> 2) }
            if i + 3 < values.count { out.append((values[i + 2] & 3) << 6 | values[i + 3]) }
            i += 4
        }
        return out
    }
}
