#if canImport(Glibc)
    import Glibc
#endif

@inline(__always) func cosine(_ x: Double) -> Double { cos(x) }
@inline(__always) func sine(_ x: Double) -> Double { sin(x) }
