import Testing

@testable import MapData

@Suite struct VectorTileTests {
    typealias E = MVTTestEncoder

    @Test func emptyInputHasNoLayers() throws {
        #expect(try VectorTile(bytes: []).layers().isEmpty)
    }

    @Test func layerIndexIsBuiltOnceAndFeaturesLazily() throws {
        let tile = VectorTile(
            bytes: E.tile([
                E.layer(
                    name: "roads", extent: 512, keys: ["class"], values: [E.bytes(1, Array("primary".utf8))],
                    features: [
                        E.feature(id: 42, type: 2, tags: [0, 0], geometry: [9, 4, 4, 10, 2, 2]),
                        E.feature(id: 43, type: 2, tags: [0, 5], geometry: [9, 4, 4, 10, 2, 2]),
                    ])
            ]))
        let layer = try #require(try tile.layer(named: "roads"))
        #expect(layer.extent == 512)
        #expect(layer.featureCount == 2)
        let first = try layer.feature(at: 0)
        #expect(first.id == 42)
        #expect(first.properties == ["class": .string("primary")])
        var diagnostics: [VectorTileDiagnostic] = []
        let features = layer.decodeFeatures(diagnostics: &diagnostics)
        #expect(features.map(\.id) == [42])
        #expect(diagnostics.count == 1 && diagnostics[0].featureIndex == 1)
    }

    @Test func propertyLookupKeepsTheLastOfARepeatedKey() throws {
        let tile = VectorTile(
            bytes: E.tile([
                E.layer(
                    name: "roads", keys: ["class", "layer", "name", "clas", "ñame"],
                    values: [
                        E.bytes(1, Array("primary".utf8)), E.bytes(1, Array("bridge".utf8)), E.uint(5, 2),
                        E.bytes(1, Array("x".utf8)),
                    ],
                    features: [
                        E.feature(type: 2, tags: [0, 0, 1, 2, 0, 1, 3, 3, 4, 3], geometry: [9, 4, 4, 10, 2, 2])
                    ])
            ]))
        let feature = try #require(try tile.layer(named: "roads")).feature(at: 0)
        // "class" twice: the later pair wins, as in `properties`.
        #expect(feature.value(forKey: "class") == .string("bridge"))
        #expect(feature.properties["class"] == .string("bridge"))
        #expect(feature.value(forKey: "layer") == .uint(2))
        // Same length as a present key, or a prefix of one: absent.
        #expect(feature.value(forKey: "cla") == nil)
        #expect(feature.value(forKey: "clasS") == nil)
        #expect(feature.value(forKey: "name") == nil)
        #expect(feature.value(forKey: "clas") == .string("x"))
        #expect(feature.value(forKey: "ñame") == .string("x"))
        #expect(feature.propertyCount == 5)
    }

    static let fatalTiles: [(String, [UInt8])] = [
        ("no name", E.tile([E.uint(15, 2) + E.packed(2, [])])),
        ("no version", E.tile([E.layer(version: nil, features: [])])),
        ("version 3", E.tile([E.layer(version: 3, features: [])])),
        ("extent 0", E.tile([E.layer(extent: 0, features: [])])),
        ("unknown value field", E.tile([E.layer(values: [E.uint(8, 1)], features: [])])),
        ("two value fields", E.tile([E.layer(values: [E.uint(4, 1) + E.uint(5, 1)], features: [])])),
        ("string value as varint", E.tile([E.layer(values: [E.uint(1, 1)], features: [])])),
        ("truncated", Array(E.tile([E.layer(features: [])]).dropLast())),
        ("huge length", [0x1A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00]),
        ("group wire type", [0x1B, 0x00]),
        ("layer as varint", [0x18, 0x01]),
    ]

    @Test(arguments: fatalTiles)
    func fatalTileErrors(_ label: String, bytes: [UInt8]) {
        #expect(throws: VectorTileError.self, "\(label)") { try VectorTile(bytes: bytes).layers() }
    }

    static let badFeatures: [(String, [UInt8])] = [
        ("odd tags", E.feature(type: 1, tags: [0], geometry: [9, 2, 2])),
        ("key out of range", E.feature(type: 1, tags: [3, 0], geometry: [9, 2, 2])),
        ("value out of range", E.feature(type: 1, tags: [0, 3], geometry: [9, 2, 2])),
        ("no type", E.feature(type: nil, geometry: [9, 2, 2])),
        ("type 4", E.feature(type: 4, geometry: [9, 2, 2])),
        ("no geometry", E.uint(3, 1)),
        ("two geometries", E.feature(type: 1, geometry: [9, 2, 2]) + E.packed(4, [9, 2, 2])),
    ]

    @Test(arguments: badFeatures)
    func badFeaturesAreSkipped(_ label: String, feature: [UInt8]) throws {
        let tile = VectorTile(
            bytes: E.tile([
                E.layer(
                    keys: ["k"], values: [E.key(7, 0) + [1]],
                    features: [feature, E.feature(id: 9, type: 1, geometry: [9, 2, 2])])
            ]))
        var diagnostics: [VectorTileDiagnostic] = []
        let features = try #require(try tile.layers().first).decodeFeatures(diagnostics: &diagnostics)
        #expect(features.map(\.id) == [9], "\(label)")
        #expect(diagnostics.count == 1, "\(label)")
    }

    /// A tile declaring a billion features in a few bytes only allocates what the bytes hold.
    @Test func countsAreBoundedByBytes() throws {
        // A packed tags field claiming 2^32 bytes is a framing error, not an allocation.
        let bogus = E.key(2, 2) + E.varint(1 << 32)
        #expect(throws: VectorTileError.self) {
            var d: [VectorTileDiagnostic] = []
            _ = try VectorTile(bytes: E.tile([E.layer(features: [bogus])])).layers().first?.decodeFeatures(
                diagnostics: &d)
            if !d.isEmpty { throw VectorTileError.malformed("reported") }
        }
    }

    @Test func unknownTypeIsNotInterpreted() throws {
        let (g, d) = try decodeSingle(E.singleFeature(type: 0, geometry: [9, 50, 34]))
        #expect(g == .unknown)
        #expect(d.isEmpty)
    }
}

@Suite struct VectorTileConcurrencyTests {
    /// Many tasks index the same tile at once; all see the same layers (the index is built once under a mutex).
    @Test func concurrentIndexing() async throws {
        let tile = VectorTile(
            bytes: MVTTestEncoder.tile([
                MVTTestEncoder.layer(name: "a", features: [MVTTestEncoder.feature(id: 1, geometry: [9, 2, 2])]),
                MVTTestEncoder.layer(name: "b", features: []),
            ]))
        let names = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<32 { group.addTask { (try? tile.layers().map(\.name)) ?? [] } }
            var all: [[String]] = []
            for await n in group { all.append(n) }
            return all
        }
        #expect(names.count == 32 && names.allSatisfy { $0 == ["a", "b"] })
    }
}
