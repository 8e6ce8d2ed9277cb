#if !FUZZ_SINGLE_MODULE
    import MapData
#endif

/// libFuzzer entry point for the glyph PBF decoder: decodes `data` as a MapLibre/Mapbox glyph PBF, reads every
/// glyph's fields and range, and must never crash, trap or allocate without bound (``GlyphPBFLimits``). Build and run
/// with `scripts/fuzz/fuzz-glyphs.sh [SECONDS]`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGlyphs(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let pbf = try? GlyphPBF(bytes: bytes) else { return 0 }
    var sum = pbf.skippedGlyphs
    for stack in pbf.stacks {
        sum &+= GlyphPBF.codepoints(ofRange: stack.range)?.count ?? 0
        for glyph in stack.glyphs {
            sum &+= glyph.bitmap.count &+ glyph.left &+ glyph.top &+ glyph.advance
            precondition(glyph.bitmap.isEmpty || glyph.bitmap.count == (glyph.width + 6) * (glyph.height + 6))
        }
    }
    return sum == Int.min ? 1 : 0
}
