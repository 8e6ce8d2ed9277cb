/// Fast decimal text to `Double`, for KML coordinates.
enum DecimalText {
    private static let powersOf10: [Double] = (0...22).map { k in
        var p = 1.0
        for _ in 0..<k { p *= 10 }
        return p
    }

    /// The value of `bytes` as Swift's `Double(_: String)` reads it, or nil. Plain decimals (`-12.345`, `1e-3`) with
    /// up to 19 significant digits are converted here exactly (Clinger's fast path); anything else goes through
    /// `Double(_: String)`.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let n = bytes.count
        var i = 0
        var negative = false
        if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var sawDigit = false
        while i < n, bytes[i] &- UInt8(ascii: "0") < 10 {
            let d = bytes[i] &- UInt8(ascii: "0")
            if mantissa != 0 || d != 0 { digits += 1 }
            if digits <= 19 { mantissa = mantissa &* 10 &+ UInt64(d) } else { exponent += 1 }
            sawDigit = true
            i += 1
        }
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, bytes[i] &- UInt8(ascii: "0") < 10 {
                let d = bytes[i] &- UInt8(ascii: "0")
                if mantissa != 0 || d != 0 { digits += 1 }
                if digits <= 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    exponent -= 1
                }
                sawDigit = true
                i += 1
            }
        }
        var plain = sawDigit && digits <= 19
        if plain, i < n, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var expNegative = false
            if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                expNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var e = 0
            var expDigits = 0
            while i < n, bytes[i] &- UInt8(ascii: "0") < 10, expDigits < 6 {
                e = e * 10 + Int(bytes[i] &- UInt8(ascii: "0"))
                expDigits += 1
                i += 1
            }
            if expDigits == 0 { plain = false }
            exponent += expNegative ? -e : e
        }
        if plain, i == n, mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            var v = Double(mantissa)
            if exponent < 0 { v /= powersOf10[-exponent] } else { v *= powersOf10[exponent] }
            return negative ? -v : v
        }
        return Double(String(decoding: bytes, as: UTF8.self))
    }
}
