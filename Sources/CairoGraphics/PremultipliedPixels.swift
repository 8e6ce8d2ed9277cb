// Premultiplied ARGB32 pixel arithmetic shared by the Swift blitters of both sides: LinuxUIKit's marker sprite
// batch (`PixelBlitter`) and MapDrawingCairo's projected images (`ProjectiveBlit`). Pixels are native-endian 32-bit
// words, alpha in the top byte, colour channels premultiplied (Cairo's `CAIRO_FORMAT_ARGB32`, the layout
// ``CairoSurface/withPixels(_:)`` hands out). Pure functions: safe on any thread.

/// ``over(_:_:)`` for four pixels at once, in 16-bit lanes (one lane a channel): the same rounding, bit for bit.
@inlinable @inline(__always) package func over4(_ s: SIMD4<UInt32>, _ d: SIMD4<UInt32>) -> SIMD4<UInt32> {
    let ia = SIMD4<UInt32>(repeating: 255) &- (s &>> 24)
    let ia4 = ia | (ia &<< 8) | (ia &<< 16) | (ia &<< 24)
    let d16 = SIMD16<UInt16>(truncatingIfNeeded: unsafeBitCast(d, to: SIMD16<UInt8>.self))
    let ia16 = SIMD16<UInt16>(truncatingIfNeeded: unsafeBitCast(ia4, to: SIMD16<UInt8>.self))
    let s16 = SIMD16<UInt16>(truncatingIfNeeded: unsafeBitCast(s, to: SIMD16<UInt8>.self))
    var t = d16 &* ia16 &+ SIMD16<UInt16>(repeating: 0x80)
    t = (t &+ (t &>> 8)) &>> 8
    let r = pointwiseMin(t &+ s16, SIMD16<UInt16>(repeating: 255))
    return unsafeBitCast(SIMD16<UInt8>(truncatingIfNeeded: r), to: SIMD4<UInt32>.self)
}

/// Premultiplied `source OVER destination` for one ARGB32 pixel, rounded as pixman does (x·a/255 rounded to nearest,
/// saturating add).
@inlinable @inline(__always) package func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
    let ia = 255 &- (s >> 24)
    var rb = (d & 0x00ff_00ff) &* ia &+ 0x0080_0080
    rb = ((rb &+ ((rb >> 8) & 0x00ff_00ff)) >> 8) & 0x00ff_00ff
    var ag = ((d >> 8) & 0x00ff_00ff) &* ia &+ 0x0080_0080
    ag = ((ag &+ ((ag >> 8) & 0x00ff_00ff)) >> 8) & 0x00ff_00ff
    rb = rb &+ (s & 0x00ff_00ff)
    rb = (rb | (0x1000_0100 &- ((rb >> 8) & 0x00ff_00ff))) & 0x00ff_00ff
    ag = ag &+ ((s >> 8) & 0x00ff_00ff)
    ag = (ag | (0x1000_0100 &- ((ag >> 8) & 0x00ff_00ff))) & 0x00ff_00ff
    return rb | (ag << 8)
}
