#if !FUZZ_SINGLE_MODULE
    import MapStyle
#endif

/// libFuzzer entry point: parses `data` as a MapLibre style and as a TileJSON document (both arrive over HTTP, so
/// both are untrusted) and must never crash, trap, hang or allocate without bound. Build and run with
/// `scripts/fuzz/fuzz-style.sh [SECONDS]`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStyle(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let style = try? Style.parse(bytes: bytes, fileName: "fuzz.json", baseDirectory: "/fuzz") {
        var n = style.layers.count &+ style.diagnostics.count
        for (_, source) in style.sources {
            if case .vector(let v) = source { n &+= v.tiles.count &+ v.bounds.count }
        }
        if n == -1 { return 1 }
    }
    if let tileJSON = try? TileJSON(bytes: bytes, name: "fuzz.json"), tileJSON.tiles.isEmpty { return 1 }
    return 0
}
