/// Approximate comparison with an explicit absolute tolerance. Never a substitute for `==` where exactness matters.
/// - Parameters:
///   - a: the value under test.
///   - b: the expected value.
///   - tolerance: the largest allowed `|a − b|`; must be ≥ 0.
/// - Returns: `true` when both are NaN, or when `|a − b| ≤ tolerance`.
public func isApproximatelyEqual(_ a: Double, _ b: Double, tolerance: Double) -> Bool {
    if a.isNaN && b.isNaN { return true }
    if a == b { return true }
    return abs(a - b) <= tolerance
}

/// A deterministic, seedable random number generator (SplitMix64) for fuzz and property tests.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    /// Creates a generator; the same seed always gives the same sequence.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
