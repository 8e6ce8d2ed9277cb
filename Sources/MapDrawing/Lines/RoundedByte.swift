// The byte rounding of the software rasterisers' blends (LineRasterizer, GlyphRunCommand): `⌊v + 0.5⌋` clamped to a
// byte without a checked floating-point → integer conversion, in the hot loops of every line and glyph pixel.

/// `v` (a channel's value in bytes, `0…255` give or take rounding error) rounded to the nearest byte: `⌊v + 0.5⌋`
/// clamped to `0…255`. The floor is found without a checked conversion: adding 2⁵² rounds the clamped value `x` to
/// the nearest integer `n`, held exactly in the sum's low bits, and `n − 1` is the floor when `n > x`.
@inline(__always) func roundedByte(_ v: Double) -> UInt8 {
    let x = min(max(v + 0.5, 0), 255)
    let sum = x + 0x1p52
    let nearest = UInt8(truncatingIfNeeded: sum.bitPattern)
    return sum - 0x1p52 > x ? nearest &- 1 : nearest
}

/// The `Double` `roundedByte(_:)` in single precision (2²³ added instead of 2⁵²), for the four-channel `SIMD4<Float>`
/// blends.
@inline(__always) func roundedByte(_ v: Float) -> UInt8 {
    let x = min(max(v + 0.5, 0), 255)
    let sum = x + 8_388_608
    let nearest = UInt8(truncatingIfNeeded: sum.bitPattern)
    return sum - 8_388_608 > x ? nearest &- 1 : nearest
}
