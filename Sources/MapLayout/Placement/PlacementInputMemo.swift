import MapGeometry

/// What a ``SymbolPlacer`` keeps about the symbols it placed last, per symbol: the work of placement that depends on
/// the symbol alone and not on the camera (the text's measurements, a line label's anchors laid out in its tile).
/// It holds while a frame places the very same array (the same storage, so the same symbols in the same order: the
/// label stage hands the previous frame's array again while the frame's tiles and layers keep their candidates).
/// For another array joined from parts (``SymbolPlacer/place(_:parts:camera:previous:)``), the entries of every part
/// the last array held too are moved to the part's new place (a turned map offers its tiles in another order); the
/// rest starts over. Each frame then reuses what an earlier one made instead of hashing the text and style into the
/// measurement cache and laying the anchors out again; the results are the ones that frame got.
///
/// A line label's tile anchors depend on the anchors the same text got before it in its layer and tile (MapLibre's
/// repeat distance, ``SymbolPlacer``'s `tileRuns`), that is on the symbols of its layer and tile before it: in the
/// same array every frame asks for them in the same order whatever the camera, and a part's entries are moved only
/// when each part holds the symbols of one layer and one tile, and no other part holds that layer's and tile's.
struct PlacementInputMemo {
    /// The array the memo is about, kept so that its storage (its identity) stays alive.
    private var symbols: [SymbolFeature] = []
    /// The parts `symbols` was joined from, in order (kept alive likewise), when each holds one layer's symbols of one
    /// tile and no two the same; else empty.
    private var parts: [[SymbolFeature]] = []
    /// Per symbol: its text measured in its ``SymbolFeature/textStyle`` (without clusters unless measured so).
    var pointShapes: [SymbolPlacer.Shape?] = []
    /// Per symbol: its text as one line (newlines as spaces) measured with clusters, for a label along a line.
    var lineShapes: [SymbolPlacer.Shape?] = []
    /// Per symbol: its anchors laid out in its tile (`.some(nil)`: it has no layout tile).
    var tileRuns: [[AnchoredRun]??] = []
    /// Per symbol: the number of its ``SymbolFeature/identity`` in the placer's ``IdentityNumbers``.
    private(set) var identityNumbers: [Int32] = []
    /// Per symbol: whether it has an ``SymbolFeature/alternateTextStyle`` (asked so, placement does not copy the
    /// style to see whether there is one).
    private var alternateStyles: [Bool] = []

    /// Makes the memo about `input`, joined from `parts` in order when given: kept when it is the array the memo is
    /// about; else made anew, with the entries of the parts it shares with the last array moved over. The symbols'
    /// identities are numbered in `identities` (which must be the numbering the memo was made with since its last
    /// ``reset()``).
    mutating func begin(
        _ input: [SymbolFeature], parts newParts: [[SymbolFeature]]?, identities: inout IdentityNumbers
    ) {
        if input.sharesStorage(with: symbols) { return }
        var point = [SymbolPlacer.Shape?](repeating: nil, count: input.count)
        var line = [SymbolPlacer.Shape?](repeating: nil, count: input.count)
        var runs = [[AnchoredRun]??](repeating: nil, count: input.count)
        var numbers = [Int32](repeating: -1, count: input.count)
        var alternates = [Bool](repeating: false, count: input.count)
        var kept: [[SymbolFeature]] = []
        if let newParts, newParts.reduce(0, { $0 + $1.count }) == input.count, Self.eachPartOneLayerAndTile(newParts) {
            kept = newParts
            // Where each of the last array's parts began (by storage; those parts are held, so still distinct).
            var oldStart: [UnsafeRawPointer: (start: Int, count: Int)] = [:]
            var start = 0
            for part in parts {
                if let address = Self.address(part) { oldStart[address] = (start, part.count) }
                start += part.count
            }
            start = 0
            for part in newParts {
                defer { start += part.count }
                guard let address = Self.address(part), let old = oldStart[address], old.count == part.count else {
                    continue
                }
                for k in 0..<part.count {
                    point[start + k] = pointShapes[old.start + k]
                    line[start + k] = lineShapes[old.start + k]
                    runs[start + k] = tileRuns[old.start + k]
                    numbers[start + k] = identityNumbers[old.start + k]
                }
            }
        }
        input.withUnsafeBufferPointer { symbols in
            for i in symbols.indices { alternates[i] = (symbols.baseAddress! + i).pointee.alternateTextStyle != nil }
            for i in symbols.indices where numbers[i] < 0 {
                numbers[i] = identities.number((symbols.baseAddress! + i).pointee.identity)
            }
        }
        symbols = input
        parts = kept
        pointShapes = point
        lineShapes = line
        tileRuns = runs
        identityNumbers = numbers
        alternateStyles = alternates
    }

    /// Whether the `index`-th symbol has an ``SymbolFeature/alternateTextStyle``; `nil` for an index beyond the array.
    func hasAlternateStyle(_ index: Int) -> Bool? {
        index < alternateStyles.count ? alternateStyles[index] : nil
    }

    /// Forgets everything (the measurements it was made from were dropped).
    mutating func reset() {
        symbols = []
        parts = []
        pointShapes = []
        lineShapes = []
        tileRuns = []
        identityNumbers = []
        alternateStyles = []
    }

    /// Whether every part's symbols share one layer and one owner tile, and no two parts share both.
    private static func eachPartOneLayerAndTile(_ parts: [[SymbolFeature]]) -> Bool {
        struct Key: Hashable {
            var layer: Int
            var tile: TileID
        }
        var seen = Set<Key>()
        for part in parts where !part.isEmpty {
            // Field by field in place (a symbol's copy would retain each of its references).
            let oneKey = part.withUnsafeBufferPointer { symbols -> Key? in
                let first = symbols.baseAddress!
                guard let tile = first.pointee.ownerTile else { return nil }
                let layer = first.pointee.layerIndex
                for i in symbols.indices {
                    let symbol = first + i
                    guard symbol.pointee.layerIndex == layer, symbol.pointee.ownerTile == tile else { return nil }
                }
                return Key(layer: layer, tile: tile)
            }
            guard let key = oneKey, seen.insert(key).inserted else { return false }
        }
        return true
    }

    /// The address of `part`'s storage (`nil` when empty).
    private static func address(_ part: [SymbolFeature]) -> UnsafeRawPointer? {
        part.isEmpty ? nil : part.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
}

extension Array {
    /// Whether this array and `other` have the same count and one storage. While either is held, a storage at the
    /// same address is that very storage, unchanged (an array that shares storage copies it before any change), so
    /// they are the same array: the memos of placement (``PlacementInputMemo``) and of the label stage use it to
    /// know an input again without comparing its elements. Two empty arrays count as the same. O(1).
    package func sharesStorage(with other: [Element]) -> Bool {
        guard count == other.count else { return false }
        if isEmpty { return true }
        return withUnsafeBufferPointer { a in other.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }
}
