#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Thin wrappers so the rest of the module does not depend on which libc is present.
@inline(__always) func radiansCos(_ x: Double) -> Double { cos(x) }
@inline(__always) func radiansSin(_ x: Double) -> Double { sin(x) }
