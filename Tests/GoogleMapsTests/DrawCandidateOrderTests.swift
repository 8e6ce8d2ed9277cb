import MapTestSupport
import Testing

@testable import GoogleMaps

/// The frame's candidates sorted by drawing rank: the counting sort (dense ranks), the already sorted list and the
/// merge sort (sparse ranks) all give the order of a stable sort by rank.
@Suite struct DrawCandidateOrderTests {
    /// Candidates with `ranks`, each tagged with its input position in `slot`.
    static func candidates(_ ranks: [UInt32]) -> [DrawCandidate] {
        ranks.enumerated().map { DrawCandidate(rank: $1, slot: Int32($0), style: 0, x: Double($1), y: 0) }
    }

    static func order(_ list: [DrawCandidate]) -> [[Int]] { list.map { [Int($0.rank), Int($0.slot)] } }

    static func check(_ ranks: [UInt32]) {
        var list = candidates(ranks)
        MarkerStore.sortByRank(&list)
        let expected = candidates(ranks).enumerated().sorted {
            $0.element.rank != $1.element.rank ? $0.element.rank < $1.element.rank : $0.offset < $1.offset
        }.map(\.element)
        #expect(order(list) == order(expected))
    }

    @Test func denseRanksFromInterleavedLeaves() {
        // Runs of ascending ranks, as leaves of the quadtree hand them over: a counting sort.
        var ranks: [UInt32] = []
        for leaf in 0..<50 { for i in 0..<40 { ranks.append(UInt32(i * 50 + leaf)) } }
        Self.check(ranks)
    }

    @Test func denseRanksShuffledWithTies() {
        var generator = SeededRandom(seed: 7)
        let ranks = (0..<3000).map { _ in UInt32(generator.next() % 2000) }
        Self.check(ranks)
    }

    @Test func sparseRanksAmongManyMarkers() {
        // A few candidates with ranks far above their count: the merge sort.
        Self.check([900_000, 12, 450_000, 7, 999_999, 13])
    }

    @Test func sortedAndTinyLists() {
        Self.check([0, 1, 5, 9, 9, 20])
        Self.check([3])
        Self.check([])
    }
}
