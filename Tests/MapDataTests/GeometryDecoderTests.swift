import Testing

@testable import MapData

@Suite struct GeometryDecoderTests {
    /// The worked examples of vector-tile-spec 2.1 §4.3.5, decoded by hand from the spec text.
    @Test func specExamplePoint() throws {
        let (g, d) = try decodeSingle(MVTTestEncoder.singleFeature(type: 1, geometry: [9, 50, 34]))
        #expect(g == .points([pt(25, 17)]))
        #expect(d.isEmpty)
    }

    @Test func specExampleMultiPoint() throws {
        let (g, _) = try decodeSingle(MVTTestEncoder.singleFeature(type: 1, geometry: [17, 10, 14, 3, 9]))
        #expect(g == .points([pt(5, 7), pt(3, 2)]))
    }

    @Test func specExampleLineStringAndMultiLineString() throws {
        let (a, _) = try decodeSingle(MVTTestEncoder.singleFeature(type: 2, geometry: [9, 4, 4, 18, 0, 16, 16, 0]))
        #expect(a == .lineStrings([[pt(2, 2), pt(2, 10), pt(10, 10)]]))
        let (b, _) = try decodeSingle(
            MVTTestEncoder.singleFeature(type: 2, geometry: [9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8]))
        #expect(b == .lineStrings([[pt(2, 2), pt(2, 10), pt(10, 10)], [pt(1, 1), pt(3, 5)]]))
    }

    @Test func specExamplePolygon() throws {
        let (g, d) = try decodeSingle(
            MVTTestEncoder.singleFeature(type: 3, geometry: [9, 6, 12, 18, 10, 12, 24, 44, 15]))
        #expect(g == .polygons([[[pt(3, 6), pt(8, 12), pt(20, 34), pt(3, 6)]]]))
        #expect(d.isEmpty)
    }

    /// §4.3.5.6: two polygons, the second with a hole; grouping by winding per §4.3.4.4.
    @Test func specExampleMultiPolygonGroupsHoles() throws {
        let geometry: [UInt32] = [
            9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 9, 22, 2, 26, 18, 0, 0, 18, 17, 0, 15, 9, 4, 13, 26, 0, 8, 8, 0, 0, 7,
            15,
        ]
        let (g, d) = try decodeSingle(MVTTestEncoder.singleFeature(type: 3, geometry: geometry))
        #expect(
            g
                == .polygons([
                    [[pt(0, 0), pt(10, 0), pt(10, 10), pt(0, 10), pt(0, 0)]],
                    [
                        [pt(11, 11), pt(20, 11), pt(20, 20), pt(11, 20), pt(11, 11)],
                        [pt(13, 13), pt(13, 17), pt(17, 17), pt(17, 13), pt(13, 13)],
                    ],
                ]))
        #expect(d.isEmpty)
    }

    /// Shoelace by hand: the spec polygon (3,6) (8,12) (20,34) gives −12 + 32 + 18 = 38 (> 0: exterior).
    @Test func signedAreaFollowsTheSpecConvention() {
        #expect(signedDoubleArea([pt(3, 6), pt(8, 12), pt(20, 34)]) == 38)
        #expect(signedDoubleArea([pt(3, 6), pt(8, 12), pt(20, 34), pt(3, 6)]) == 38)
        // Clockwise on screen (y down) → positive; the reverse → negative.
        #expect(signedDoubleArea([pt(0, 0), pt(10, 0), pt(10, 10), pt(0, 10)]) == 200)
        #expect(signedDoubleArea([pt(0, 0), pt(0, 10), pt(10, 10), pt(10, 0)]) == -200)
        #expect(signedDoubleArea([pt(0, 0), pt(5, 5), pt(10, 10)]) == 0)
    }

    @Test func leadingHoleAndZeroAreaRingsAreDroppedWithDiagnostics() throws {
        // Ring 1: counter-clockwise square (a hole with no exterior); ring 2: a flat ring.
        let geometry: [UInt32] = [9, 0, 0, 26, 0, 20, 20, 0, 0, 19, 15, 9, 0, 0, 18, 4, 4, 4, 4, 15]
        let (g, d) = try decodeSingle(MVTTestEncoder.singleFeature(type: 3, geometry: geometry))
        #expect(g == .polygons([]))
        #expect(d.count == 2)
    }

    @Test func repeatedPointsAreRemovedWithADiagnostic() throws {
        let (g, d) = try decodeSingle(
            MVTTestEncoder.singleFeature(type: 2, geometry: [9, 4, 4, 26, 0, 16, 0, 0, 2, 2]))
        #expect(g == .lineStrings([[pt(2, 2), pt(2, 10), pt(3, 11)]]))
        #expect(d.count == 1)
    }

    @Test func version1LineStringMayClose() throws {
        let tile = MVTTestEncoder.singleFeature(type: 2, geometry: [9, 4, 4, 18, 0, 16, 16, 0, 15], version: 1)
        let (g, _) = try decodeSingle(tile)
        #expect(g == .lineStrings([[pt(2, 2), pt(2, 10), pt(10, 10), pt(2, 2)]]))
        let v2 = MVTTestEncoder.singleFeature(type: 2, geometry: [9, 4, 4, 18, 0, 16, 16, 0, 15], version: 2)
        #expect(throws: VectorTileError.self) { try decodeSingle(v2) }
    }

    /// Structural errors throw; none may trap or allocate by the declared count.
    static let malformedGeometries: [(UInt64, [UInt32])] = [
        (1, [15, 50, 34]),  // ClosePath in a point
        (1, [17, 10]),  // count 2, one parameter
        (1, [4_294_967_289, 10, 10]),  // count 536870911 with one pair
        (1, [9, 50]),  // half a pair
        (1, [8]),  // MoveTo count 0
        (1, [12, 2, 2]),  // command id 4
        (2, [9, 0, 0, 4_294_967_290, 6, 10, 6, 18]),  // gigantic LineTo
        (2, [18, 2, 2, 2, 2]),  // LineTo before MoveTo
        (2, [17, 2, 2, 4, 4]),  // MoveTo count 2 in a line
        (3, [9, 6, 12, 18, 10, 12, 24, 44, 23]),  // ClosePath count 2
        (3, [9, 6, 12, 18, 10, 12, 24, 44, 7]),  // ClosePath count 0
        (3, [9, 6, 12, 18, 10, 12, 24, 44]),  // unclosed ring
        (3, [15]),  // ClosePath first
        (3, []),  // empty
    ]

    @Test(arguments: malformedGeometries)
    func malformedGeometryThrows(type: UInt64, geometry: [UInt32]) {
        #expect(throws: VectorTileError.self) {
            try decodeSingle(MVTTestEncoder.singleFeature(type: type, geometry: geometry))
        }
    }

    @Test func coordinatesWrapAtInt32() throws {
        // mvt-fixtures 049: x = 2147483647 then +1 wraps (documented), no trap.
        let (g, _) = try decodeSingle(MVTTestEncoder.singleFeature(type: 2, geometry: [9, 4_294_967_294, 0, 10, 2, 2]))
        #expect(g == .lineStrings([[pt(Int32.max, 0), pt(Int32.min, 1)]]))
    }
}
