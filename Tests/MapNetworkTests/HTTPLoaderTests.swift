import Foundation
import MapData
import MapGeometry
import MapNetwork
import MapStorage
import MapStyle
import Testing

/// The loader and the tile source against the repo's test server: faults, retries, limits, cancellation, ranges.
@Suite(.enabled(if: TestServer.available, "python3 is needed for the test HTTP server"), .serialized)
struct HTTPLoaderTests {
    let folder: URL
    let server: TestServer

    init() throws {
        folder = try temporaryFolder("loader")
        try Data("0123456789abcdefghij".utf8).write(to: folder.appendingPathComponent("file.bin"))
        try Data("replacement-content".utf8).write(to: folder.appendingPathComponent("other.bin"))
        let tiles = folder.appendingPathComponent("tiles")
        _ = try exportHelsinki(into: tiles)
        server = try TestServer(root: folder)
    }

    static let fast = HTTPLoaderOptions(maxRetries: 2, retryBaseDelay: 0.01, timeout: 5)

    func source(_ query: String = "", log: ProblemLog, options: HTTPLoaderOptions = fast) -> HTTPTileSource {
        HTTPTileSource(
            id: "test", templates: [server.url("tiles/{z}/{x}/{y}.pbf") + query], maxZoom: 14,
            client: HTTPClient(loader: HTTPLoader(options: options), cache: nil), onProblem: log.add)
    }

    /// A Helsinki tile that exists in the export.
    static let tile = TileID(z: 14, x: 9327, y: 4742)

    @Test func tileArrivesInflatedAndDecodes() throws {
        let log = ProblemLog()
        let bytes = try #require(try source(log: log).tileData(at: Self.tile))
        #expect(bytes.first != 0x1F, "gzip payloads are inflated")
        #expect(try !VectorTile(bytes: bytes).layers().isEmpty)
        #expect(log.problems.isEmpty)
    }

    @Test func missingTilesAndFault404AreNoTileNotErrors() throws {
        let log = ProblemLog()
        #expect(try source(log: log).tileData(at: TileID(z: 14, x: 0, y: 0)) == nil)
        #expect(try source("?fault=404", log: log).tileData(at: Self.tile) == nil)
        #expect(log.problems.isEmpty)
    }

    @Test func serverErrorOnceIsRetriedThenServed() throws {
        let log = ProblemLog()
        let tiles = source("?fault=500once", log: log)
        #expect(try tiles.tileData(at: Self.tile) != nil)
        #expect(try server.requests(containing: "/9327/4742.pbf").count == 2)
        #expect(log.problems.isEmpty)
        #expect(tiles.client.loader.requestsStarted == 2)
    }

    @Test(arguments: ["500", "reset", "truncated", "badgzip"])
    func failuresAreReportedOncePerSourceWithTheURL(fault: String) throws {
        let log = ProblemLog()
        let tiles = source("?fault=\(fault)", log: log)
        for (x, y) in [(9326, 4742), (9327, 4742), (9326, 4741)] {
            #expect(throws: HTTPError.self) { try tiles.tileData(at: TileID(z: 14, x: x, y: y)) }
        }
        #expect(log.problems.count == 1)
        let problem = try #require(log.problems.first)
        #expect(problem.source == "test")
        #expect(problem.url.hasPrefix("http://127.0.0.1:\(server.port)/files/tiles/14/"))
        if fault == "500" {
            // Bounded retries: 1 + 2 attempts per tile.
            #expect(try server.requests(containing: "/files/tiles/14/").count == 9)
        }
    }

    @Test func responsesOverTheSizeLimitFail() throws {
        let loader = HTTPLoader(options: HTTPLoaderOptions(maxRetries: 0, maxResponseBytes: 8))
        let result = waitFor { done in loader.fetch(URL(string: server.url("file.bin"))!) { done($0) } }
        guard case .failure(let error)? = result else {
            Issue.record("expected a failure, got \(String(describing: result))")
            return
        }
        #expect(error.message.contains("larger than 8 bytes"))
    }

    @Test func requestsPerHostAreBoundedAndAllComplete() throws {
        let loader = HTTPLoader(options: HTTPLoaderOptions(maxRequestsPerHost: 3, timeout: 10))
        let group = DispatchGroup()
        let ok = ProblemLog()
        for i in 0..<12 {
            group.enter()
            loader.fetch(URL(string: server.url("file.bin?fault=slow&delay=100&n=\(i)"))!, priority: Double(i)) { r in
                if case .success(let response) = r, response.status == 200 {
                    ok.add(SourceProblem(source: "\(i)", url: "", message: ""))
                }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 20) == .success)
        #expect(ok.problems.count == 12)
        #expect(loader.peakInFlightPerHost == 3)
    }

    @Test func cancelledRequestsNeverAnswer() throws {
        let loader = HTTPLoader(options: HTTPLoaderOptions(maxRequestsPerHost: 1, timeout: 10))
        let answered = ProblemLog()
        // The first occupies the only slot; the second is cancelled while queued, the first while in flight.
        let first = loader.fetch(URL(string: server.url("file.bin?fault=slow&delay=500&c=1"))!) { _ in
            answered.add(SourceProblem(source: "first", url: "", message: ""))
        }
        let second = loader.fetch(URL(string: server.url("file.bin?c=2"))!) { _ in
            answered.add(SourceProblem(source: "second", url: "", message: ""))
        }
        second.cancel()
        Thread.sleep(forTimeInterval: 0.1)
        first.cancel()
        let third = waitFor { done in loader.fetch(URL(string: server.url("file.bin?c=3"))!) { done($0) } }
        #expect((try? third?.get().status) == 200, "the loader keeps working after cancels")
        Thread.sleep(forTimeInterval: 0.6)
        #expect(answered.problems.isEmpty)
        #expect(try server.requests(containing: "file.bin").filter { ($0["query"] as? String) == "c=2" }.isEmpty)
    }

    @Test func rangeRequestsGive206AndTheETag() throws {
        let loader = HTTPLoader()
        let range = try loader.readRange(URL(string: server.url("file.bin"))!, offset: 10, length: 5)
        #expect(range.bytes == Array("abcde".utf8))
        #expect(!range.servedWholeFile)
        #expect(range.etag?.hasPrefix("\"") == true)
        #expect(try server.log().last?["range"] as? String == "bytes=10-14")
    }

    @Test func aRangeAnsweredWithTheWholeFileIsDetected() throws {
        let loader = HTTPLoader()
        let range = try loader.readRange(URL(string: server.url("file.bin?fault=norange"))!, offset: 10, length: 5)
        #expect(range.bytes == Array("abcde".utf8))
        #expect(range.servedWholeFile)
        #expect(range.wholeFile?.count == 20)
    }

    @Test func aFileReplacedMidSessionHasANewETag() throws {
        let loader = HTTPLoader()
        let url = URL(string: server.url("file.bin"))!
        let before = try loader.readRange(url, offset: 0, length: 4)
        try server.control("replace=file.bin&with=other.bin")
        let after = try loader.readRange(url, offset: 0, length: 4)
        #expect(before.etag != after.etag)
        #expect(after.bytes == Array("repl".utf8))
    }

    @Test func aRangeReaderNoticesAReplacedArchive() throws {
        try Data(repeating: 1, count: 40_000).write(to: folder.appendingPathComponent("big.bin"))
        try Data(repeating: 2, count: 40_000).write(to: folder.appendingPathComponent("big2.bin"))
        let reader = try HTTPRangeReader(url: URL(string: server.url("big.bin"))!, loader: HTTPLoader())
        #expect(reader.size == 40_000)
        #expect(try reader.read(offset: 20_000, length: 4) == [1, 1, 1, 1])
        try server.control("replace=big.bin&with=big2.bin")
        #expect(try reader.read(offset: 0, length: 2) == [1, 1], "the header region was read at open")
        #expect {
            try reader.read(offset: 30_000, length: 4)
        } throws: { error in
            (error as? PMTilesError)?.reason == .changed
        }
    }

    @Test func connectionRefusedIsRetriedThenReported() throws {
        server.stop()
        let log = ProblemLog()
        let tiles = source(log: log)
        #expect(throws: HTTPError.self) { try tiles.tileData(at: Self.tile) }
        #expect(log.problems.count == 1)
        #expect(tiles.client.loader.requestsStarted == 3)
    }
}

/// URL templates, schemes and bounds (no server: URLs only).
struct HTTPTileSourceURLTests {
    let client = HTTPClient(loader: HTTPLoader(), cache: nil)

    @Test func templatesFillZXYPrefixAndTMS() throws {
        let xyz = HTTPTileSource(id: "a", templates: ["http://h/{prefix}/{z}/{x}/{y}.pbf"], client: client)
        #expect(xyz.url(for: TileID(z: 3, x: 5, y: 2))?.absoluteString == "http://h/52/3/5/2.pbf")
        #expect(xyz.url(for: TileID(z: 5, x: 17, y: 30))?.absoluteString == "http://h/1e/5/17/30.pbf")
        let tms = HTTPTileSource(id: "b", templates: ["http://h/{z}/{x}/{y}"], scheme: "tms", client: client)
        #expect(tms.url(for: TileID(z: 3, x: 5, y: 2))?.absoluteString == "http://h/3/5/5")
        let two = HTTPTileSource(id: "c", templates: ["http://a/{z}", "http://b/{z}"], client: client)
        #expect(two.url(for: TileID(z: 1, x: 0, y: 0))?.host == "a")
        #expect(two.url(for: TileID(z: 1, x: 1, y: 0))?.host == "b")
    }

    @Test func noURLOutsideBoundsOrZooms() throws {
        // Helsinki's extract bounds.
        let s = HTTPTileSource(
            id: "a", templates: ["http://h/{z}/{x}/{y}"], minZoom: 2, maxZoom: 14, bounds: [24.9, 60.15, 25.0, 60.2],
            client: client)
        #expect(s.url(for: TileID(z: 14, x: 9327, y: 4742)) != nil)
        #expect(s.url(for: TileID(z: 14, x: 9000, y: 4742)) == nil)
        #expect(s.url(for: TileID(z: 1, x: 1, y: 0)) == nil)
        #expect(s.url(for: TileID(z: 15, x: 18654, y: 9484)) == nil)
        #expect(s.url(for: TileID(z: 0, x: 0, y: 0)) == nil)
    }

    @Test func requestsOutsideBoundsAnswerNoTileAtOnce() {
        let s = HTTPTileSource(
            id: "a", templates: ["http://127.0.0.1:9/{z}/{x}/{y}"], bounds: [24.9, 60.15, 25.0, 60.2], client: client)
        let result = waitFor { done in _ = s.requestTile(at: TileID(z: 5, x: 0, y: 0), priority: 0) { done($0) } }
        #expect((try? result?.get()) == .some(nil))
        #expect(client.loader.requestsStarted == 0)
    }
}

/// TileJSON documents.
struct TileJSONTests {
    @Test func readsTheFieldsAndDefaults() throws {
        let doc = try TileJSON(
            bytes: Array(
                #"{"tilejson":"2.2.0","tiles":["a/{z}/{x}/{y}"],"minzoom":2,"maxzoom":40,"scheme":"tms"}"#.utf8),
            name: "t.json")
        #expect(doc.tiles == ["a/{z}/{x}/{y}"])
        #expect(doc.minzoom == 2 && doc.maxzoom == 30 && doc.scheme == "tms")
        #expect(doc.bounds == TileJSON.worldBounds)
        #expect(throws: StyleLoadError.self) { try TileJSON(bytes: Array(#"{"tiles":[]}"#.utf8), name: "t.json") }
        #expect(throws: StyleLoadError.self) { try TileJSON(bytes: Array("[1".utf8), name: "t.json") }
    }

    @Test func relativeTileURLsResolveAgainstTheDocument() {
        let base = URL(string: "http://h:8/files/set/tiles.json?key=1")!
        #expect(TileNetwork.resolve("t/{z}/{x}/{y}.pbf", against: base) == "http://h:8/files/set/t/{z}/{x}/{y}.pbf")
        #expect(TileNetwork.resolve("/t/{z}.pbf", against: base) == "http://h:8/t/{z}.pbf")
        #expect(TileNetwork.resolve("https://o/{z}", against: base) == "https://o/{z}")
        let file = URL(fileURLWithPath: "/data/set/tiles.json")
        #expect(TileNetwork.resolve("{z}/{x}/{y}.pbf", against: file) == "file:///data/set/{z}/{x}/{y}.pbf")
    }
}
