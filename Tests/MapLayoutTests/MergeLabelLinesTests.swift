import MapGeometry
import Testing

@testable import MapLayout

/// MapLibre's `mergeLines` for line labels.
@Suite struct MergeLabelLinesTests {
    func p(_ x: Double) -> WorldPoint { WorldPoint(x: x, y: 0) }
    func xs(_ line: [WorldPoint]?) -> [Double]? { line?.map(\.x) }

    @Test func piecesMeetingEndToStartJoinInTheFirst() {
        let merged = mergeLabelLines([("A", [p(0), p(1)]), ("A", [p(1), p(2)]), ("A", [p(2), p(3)])])
        #expect(xs(merged[0]) == [0, 1, 2, 3])
        #expect(merged[1] == nil && merged[2] == nil)
    }

    @Test func aPieceEndingWhereAnEarlierStartsIsPrepended() {
        let merged = mergeLabelLines([("A", [p(1), p(2)]), ("A", [p(0), p(1)])])
        #expect(xs(merged[0]) == [0, 1, 2])
        #expect(merged[1] == nil)
    }

    @Test func aPieceBetweenTwoEarlierOnesJoinsAllThree() {
        let merged = mergeLabelLines([("A", [p(0), p(1)]), ("A", [p(2), p(3)]), ("A", [p(1), p(2)])])
        #expect(xs(merged[0]) == [0, 1, 2, 3])
        #expect(merged[1] == nil && merged[2] == nil)
        // The joined line's end takes a fourth piece.
        let four = mergeLabelLines([
            ("A", [p(0), p(1)]), ("A", [p(2), p(3)]), ("A", [p(1), p(2)]), ("A", [p(3), p(4)]),
        ])
        #expect(xs(four[0]) == [0, 1, 2, 3, 4])
        #expect(four[1] == nil && four[2] == nil && four[3] == nil)
    }

    @Test func otherTextsGapsAndNonItemsStayApart() {
        let merged = mergeLabelLines([("A", [p(0), p(1)]), ("B", [p(1), p(2)]), nil, ("A", [p(5), p(6)])])
        #expect(xs(merged[0]) == [0, 1])
        #expect(xs(merged[1]) == [1, 2])
        #expect(merged[2] == nil)
        #expect(xs(merged[3]) == [5, 6])
    }
}
