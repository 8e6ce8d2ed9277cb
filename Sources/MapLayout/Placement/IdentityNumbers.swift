/// Numbers for the ``SymbolIdentity`` values a ``SymbolPlacer`` has met, `0, 1, 2, …` in the order first met:
/// equal identities (``SymbolIdentity/==``) get one number. Placement looks labels up by number in arrays (the
/// frame's cross-tile dedup, the previous frame's labels) instead of hashing each identity into a dictionary each
/// frame; a symbol's number is worked out once per array it comes in (``PlacementInputMemo``). Numbers hold until
/// ``reset()``, which makes a new ``token``: a ``PlacementResult`` made with another token (another placer's, or
/// before the reset) is read by identity instead.
struct IdentityNumbers {
    /// Stands for one numbering: results made with the same token use the same numbers. Compared by identity.
    final class Token: Sendable {}

    /// The current numbering.
    private(set) var token = Token()
    private var numbers: [SymbolIdentity: Int32] = [:]

    /// Numbers given so far; every number is below it.
    var count: Int { numbers.count }

    /// The number of `identity`, given now when it has none.
    mutating func number(_ identity: SymbolIdentity) -> Int32 {
        if let known = numbers[identity] { return known }
        let number = Int32(truncatingIfNeeded: numbers.count)
        numbers[identity] = number
        return number
    }

    /// Forgets every number and starts a new numbering.
    mutating func reset() {
        numbers.removeAll(keepingCapacity: true)
        token = Token()
    }
}
