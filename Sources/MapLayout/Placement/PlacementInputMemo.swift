/// What a ``SymbolPlacer`` keeps about the symbols it placed last, per symbol: the work of placement that depends on
/// the symbol alone and not on the camera (the text's measurements, a line label's anchors laid out in its tile).
/// It holds while a frame places the very same array (the same storage, so the same symbols in the same order: the
/// label stage hands the previous frame's array again while the frame's tiles and layers keep their candidates), and
/// starts over for any other array. Each frame then reuses what the first one made instead of hashing the text and
/// style into the measurement cache and laying the anchors out again; the results are the ones the first frame got.
///
/// A line label's tile anchors depend on the anchors the same text got before it in the frame (MapLibre's repeat
/// distance, ``SymbolPlacer``'s `tileRuns`), that is on the symbols before it, which are the same in the same array:
/// every frame asks for them in the same order whatever the camera.
struct PlacementInputMemo {
    /// The array the memo is about, kept so that its storage (its identity) stays alive.
    private var symbols: [SymbolFeature] = []
    /// Per symbol: its text measured in its ``SymbolFeature/textStyle`` (without clusters unless measured so).
    var pointShapes: [SymbolPlacer.Shape?] = []
    /// Per symbol: its text as one line (newlines as spaces) measured with clusters, for a label along a line.
    var lineShapes: [SymbolPlacer.Shape?] = []
    /// Per symbol: its anchors laid out in its tile (`.some(nil)`: it has no layout tile).
    var tileRuns: [[AnchoredRun]??] = []

    /// Makes the memo about `input`: kept when it is the array the memo is about, else emptied for it.
    mutating func begin(_ input: [SymbolFeature]) {
        if input.count == symbols.count && Self.sameStorage(input, symbols) { return }
        symbols = input
        pointShapes = Array(repeating: nil, count: input.count)
        lineShapes = Array(repeating: nil, count: input.count)
        tileRuns = Array(repeating: nil, count: input.count)
    }

    /// Forgets everything (the measurements it was made from were dropped).
    mutating func reset() {
        symbols = []
        pointShapes = []
        lineShapes = []
        tileRuns = []
    }

    /// Whether `a` and `b` share one storage (equal counts assumed). `b` is held by the memo, so a storage at the
    /// same address is that very storage, unchanged (an array that shares storage copies it before any change).
    private static func sameStorage(_ a: [SymbolFeature], _ b: [SymbolFeature]) -> Bool {
        if a.isEmpty { return true }
        return a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in pa.baseAddress == pb.baseAddress } }
    }
}
