import Foundation
import MapData
import MapNetwork
import MapStorage
import MapTestSupport
import Testing

/// A PMTiles archive over HTTP through the persistent cache (issue 34): every range read online is stored keyed by
/// URL and byte range and answered offline; `no-store` and the cache's size bound are respected
/// (docs/BEHAVIOUR.md D21).
@Suite(.enabled(if: TestServer.available, "python3 is needed for the test HTTP server"), .serialized)
struct RangeCacheTests {
    let folder: URL
    let server: TestServer
    static let fast = HTTPLoaderOptions(maxRetries: 1, retryBaseDelay: 0.01, timeout: 5)

    init() throws {
        folder = try temporaryFolder("range-cache")
        try FileManager.default.copyItem(
            at: Fixtures.local.appendingPathComponent("pmtiles/helsinki.pmtiles"),
            to: folder.appendingPathComponent("full.pmtiles"))
        server = try TestServer(root: folder)
    }

    /// Every tile of the archive read through `client`, in address order.
    func tiles(_ url: String, client: HTTPClient) throws -> [[UInt8]?] {
        let source = try PMTilesSource(reader: HTTPRangeReader(url: URL(string: url)!, client: client))
        let local = try PMTilesSource(path: folder.appendingPathComponent("full.pmtiles").path)
        return try local.tileAddresses().prefix(40).map { try source.tileData(at: $0) }
    }

    @Test func rangesReadOnlineAreAnsweredOffline() throws {
        let cache = try HTTPCache(directory: folder.appendingPathComponent("cache").path)
        let client = HTTPClient(loader: HTTPLoader(options: Self.fast), cache: cache)
        let url = server.url("full.pmtiles")
        let online = try tiles(url, client: client)
        #expect(online.contains { $0 != nil })
        #expect(cache.count > 1, "the header, directories and tiles are cached")
        server.stop()
        let offline = try tiles(url, client: HTTPClient(loader: HTTPLoader(options: Self.fast), cache: cache))
        #expect(offline == online)
    }

    @Test func noStoreRangesAreNotCachedAndBoundsHold() throws {
        let cache = try HTTPCache(directory: folder.appendingPathComponent("nostore").path)
        let client = HTTPClient(loader: HTTPLoader(options: Self.fast), cache: cache)
        _ = try tiles(server.url("full.pmtiles?cc=no-store"), client: client)
        #expect(cache.count == 0)
        let small = try HTTPCache(directory: folder.appendingPathComponent("small").path, byteLimit: 20_000)
        _ = try tiles(
            server.url("full.pmtiles"), client: HTTPClient(loader: HTTPLoader(options: Self.fast), cache: small))
        #expect(small.count > 0 && small.totalBytes <= 20_000, "\(small.totalBytes) bytes")
    }

    @Test func aCacheGivenAsAnOpenerIsOpenedOnFirstUse() throws {
        let directory = folder.appendingPathComponent("lazy")
        let client = HTTPClient(loader: HTTPLoader(options: Self.fast)) {
            try? HTTPCache(directory: directory.path)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        _ = try client.bytes(folder.appendingPathComponent("full.pmtiles"))
        #expect(!FileManager.default.fileExists(atPath: directory.path), "file:// reads do not open the cache")
        _ = try client.bytes(URL(string: server.url("full.pmtiles"))!)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("cache.sqlite").path))
    }

    @Test func withoutHOMETheSystemHomeIsUsedAndNamed() {
        var notices: [String] = []
        let folder = TileNetwork.sharedCacheDirectory(environment: [:]) { notices.append($0) }
        #expect(folder == NSHomeDirectory() + "/.cache/waymark")
        #expect(notices.count == 1 && notices.first?.contains("HOME is not set") == true, "\(notices)")
        #expect(notices.first?.contains(NSHomeDirectory() + "/.cache/waymark") == true)
        notices = []
        _ = TileNetwork.sharedCacheDirectory(environment: ["HOME": NSHomeDirectory()]) { notices.append($0) }
        #expect(notices.isEmpty)
    }
}
