import Foundation
import MapNetwork
import MapStorage
import Testing

/// A settable clock for freshness (seconds since 1970).
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Double

    init(_ start: Double = 1_800_000_000) { value = start }

    var now: Double {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func advance(_ seconds: Double) {
        lock.lock()
        value += seconds
        lock.unlock()
    }
}

/// The SQLite cache on its own: size bound, least recently used order, validators.
struct HTTPCacheStoreTests {
    @Test func theSizeBoundHoldsAndTheLeastRecentlyUsedGoFirst() throws {
        let cache = try HTTPCache(directory: temporaryFolder("lru").path, byteLimit: 1000)
        for i in 0..<3 {
            cache.store(.init(body: [UInt8](repeating: UInt8(i), count: 300), freshUntil: 0), for: "u\(i)")
        }
        #expect(cache.totalBytes == 900)
        _ = cache.entry(for: "u0")  // u0 is now the most recently used
        cache.store(.init(body: [UInt8](repeating: 9, count: 300), freshUntil: 0), for: "u3")
        #expect(cache.totalBytes <= 1000)
        #expect(cache.entry(for: "u1") == nil, "the least recently used entry went first")
        #expect(cache.entry(for: "u0")?.body.first == 0)
        #expect(cache.entry(for: "u3") != nil)
        cache.store(.init(body: [UInt8](repeating: 1, count: 1001), freshUntil: 0), for: "huge")
        #expect(cache.entry(for: "huge") == nil, "a body over the bound is not stored")
        #expect(cache.totalBytes <= 1000)
    }

    @Test func entriesSurviveReopeningAndRefreshKeepsTheBody() throws {
        let dir = try temporaryFolder("reopen").path
        do {
            let cache = try HTTPCache(directory: dir)
            cache.store(.init(body: [1, 2, 3], etag: "\"a\"", lastModified: nil, freshUntil: 5), for: "k")
            cache.store(.init(body: [], freshUntil: 5), for: "empty")
        }
        let again = try HTTPCache(directory: dir)
        again.refresh(url: "k", freshUntil: 99, etag: nil, lastModified: "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(
            again.entry(for: "k")
                == .init(body: [1, 2, 3], etag: "\"a\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT", freshUntil: 99))
        #expect(again.entry(for: "empty")?.body == [])
    }

    @Test func aCorruptFileIsMovedAsideWithOneWarningAndTheCacheWorks() throws {
        let dir = try temporaryFolder("corrupt").path
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: dir + "/cache.sqlite"))
        let warnings = WarningLog()
        let cache = try HTTPCache(directory: dir, onWarning: warnings.add)
        #expect(warnings.lines.count == 1, "\(warnings.lines)")
        #expect(warnings.lines.first?.contains(dir + "/cache.sqlite") == true, "\(warnings.lines)")
        #expect(warnings.lines.first?.contains("moved to") == true, "\(warnings.lines)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/cache.sqlite.corrupt")) == garbage, "kept aside")
        cache.store(.init(body: [1, 2], freshUntil: 5), for: "k")
        #expect(cache.entry(for: "k")?.body == [1, 2])
        // The next opening is quiet.
        let again = try HTTPCache(directory: dir, onWarning: warnings.add)
        #expect(again.entry(for: "k")?.body == [1, 2])
        #expect(warnings.lines.count == 1)
    }

    @Test func aHomeThatDoesNotExistGivesNoCacheAndCreatesNothing() throws {
        let home = try temporaryFolder("home").path + "/missing"
        #expect(TileNetwork.sharedCacheDirectory(environment: ["HOME": home]) == nil)
        #expect(!FileManager.default.fileExists(atPath: home))
        let existing = try temporaryFolder("home").path
        #expect(TileNetwork.sharedCacheDirectory(environment: ["HOME": existing]) == existing + "/.cache/waymark")
        #expect(TileNetwork.sharedCacheDirectory(environment: ["HOME": home, "WAYMARK_CACHE_DIR": "/c"]) == "/c")
        #expect(TileNetwork.sharedCacheDirectory(environment: ["HOME": home, "XDG_CACHE_HOME": "/x"]) == "/x/waymark")
    }

    @Test func theDefaultFolderFollowsXDG() {
        #expect(HTTPCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/c", "HOME": "/h"]) == "/x/c/waymark")
        #expect(HTTPCache.defaultDirectory(environment: ["HOME": "/h"]) == "/h/.cache/waymark")
        #expect(
            HTTPCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"]) == "/h/.cache/waymark")
    }

    @Test func cachePolicyReadsCacheControlExpiresAndLastModified() {
        let now = 1_000_000.0
        #expect(CachePolicy(headers: ["cache-control": "public, max-age=60"], now: now).freshUntil == now + 60)
        #expect(CachePolicy(headers: ["cache-control": "no-cache, max-age=60"], now: now).freshUntil == 0)
        #expect(CachePolicy(headers: ["cache-control": "no-store"], now: now).noStore)
        let expires = CachePolicy(headers: ["expires": "Sun, 06 Nov 1994 08:49:37 GMT"], now: now)
        #expect(expires.freshUntil == 784_111_777)
        #expect(CachePolicy(headers: ["expires": "0"], now: now).freshUntil == 0)
        let modified = CachePolicy(
            headers: ["last-modified": "Sun, 06 Nov 1994 08:49:37 GMT", "date": "Sun, 06 Nov 1994 09:06:17 GMT"],
            now: now)
        #expect(modified.freshUntil == now + 100)
        #expect(CachePolicy(headers: [:], now: now).freshUntil == now)
    }
}

/// The client's use of the cache against the test server.
@Suite(.enabled(if: TestServer.available, "python3 is needed for the test HTTP server"), .serialized)
struct HTTPClientCacheTests {
    let folder: URL
    let server: TestServer
    let clock = TestClock()

    init() throws {
        folder = try temporaryFolder("client")
        try Data("first version".utf8).write(to: folder.appendingPathComponent("a.bin"))
        try Data("second version".utf8).write(to: folder.appendingPathComponent("b.bin"))
        server = try TestServer(root: folder)
    }

    func client(_ directory: String) throws -> HTTPClient {
        let clock = self.clock
        return HTTPClient(
            loader: HTTPLoader(options: HTTPLoaderOptions(maxRetries: 1, retryBaseDelay: 0.01, timeout: 5)),
            cache: try HTTPCache(directory: directory), now: { clock.now })
    }

    @Test func aFreshEntryIsServedWithoutTheNetwork() throws {
        let c = try client(temporaryFolder("fresh").path)
        let url = URL(string: server.url("a.bin?cc=max-age=60"))!
        #expect(try c.getAndWait(url).fromCache == false)
        let second = try c.getAndWait(url)
        #expect(second.fromCache)
        #expect(second.body == Array("first version".utf8))
        #expect(try server.requests(containing: "a.bin").count == 1)
    }

    @Test func anExpiredEntryIsRevalidatedWithIfNoneMatchAndA304KeepsIt() throws {
        let dir = try temporaryFolder("revalidate").path
        let c = try client(dir)
        let url = URL(string: server.url("a.bin?cc=max-age=60"))!
        let first = try c.getAndWait(url)
        let etag = try #require(first.header("etag"))
        clock.advance(61)
        let second = try c.getAndWait(url)
        #expect(second.fromCache, "a 304 answers the cached body")
        #expect(second.body == first.body)
        let log = try server.requests(containing: "a.bin")
        #expect(log.count == 2)
        #expect(log.last?["if_none_match"] as? String == etag)
        #expect(log.last?["if_modified_since"] as? String != nil)
        // The 304 refreshed the entry: fresh for another minute, no request.
        let entry = try #require(try HTTPCache(directory: dir).entry(for: url.absoluteString))
        #expect(entry.freshUntil == clock.now + 60)
        _ = try c.getAndWait(url)
        #expect(try server.requests(containing: "a.bin").count == 2)
    }

    @Test func noStoreIsNotStoredAndNoCacheIsRevalidatedEveryTime() throws {
        let dir = try temporaryFolder("nostore").path
        let c = try client(dir)
        let noStore = URL(string: server.url("a.bin?cc=no-store"))!
        _ = try c.getAndWait(noStore)
        #expect(try HTTPCache(directory: dir).entry(for: noStore.absoluteString) == nil)
        let noCache = URL(string: server.url("a.bin?cc=no-cache"))!
        _ = try c.getAndWait(noCache)
        #expect(try c.getAndWait(noCache).fromCache)
        #expect(
            try server.requests(containing: "a.bin").filter { ($0["query"] as? String) == "cc=no-cache" }.count == 2)
    }

    @Test func aReplacedFileIsFetchedAgainWithItsNewETag() throws {
        let c = try client(temporaryFolder("replace").path)
        let url = URL(string: server.url("a.bin?cc=no-cache"))!
        let first = try c.getAndWait(url)
        try server.control("replace=a.bin&with=b.bin")
        let second = try c.getAndWait(url)
        #expect(second.body == Array("second version".utf8))
        #expect(!second.fromCache)
        #expect(second.header("etag") != first.header("etag"))
    }

    @Test func a404IsRememberedAndAnsweredOffline() throws {
        let dir = try temporaryFolder("notfound").path
        let c = try client(dir)
        let url = URL(string: server.url("missing.bin"))!
        #expect(try c.getAndWait(url).status == 404)
        #expect(try c.getAndWait(url).status == 404)
        #expect(try server.requests(containing: "missing.bin").count == 1, "a fresh 404 is not asked again")
        clock.advance(HTTPClient.notFoundFreshness + 1)
        server.stop()
        let offline = try c.getAndWait(url)
        #expect(offline.status == 404 && offline.fromCache, "offline, the remembered 404 answers")
    }

    @Test func withTheNetworkGoneCachedBodiesAreStillServed() throws {
        let c = try client(temporaryFolder("offline").path)
        let url = URL(string: server.url("a.bin?cc=no-cache"))!
        _ = try c.getAndWait(url)
        server.stop()
        let offline = try c.getAndWait(url)
        #expect(offline.fromCache)
        #expect(offline.body == Array("first version".utf8))
        #expect(throws: HTTPError.self) { try c.getAndWait(URL(string: server.url("b.bin"))!) }
    }
}

/// Collects the cache's warnings (thread-safe).
final class WarningLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    var lines: [String] { lock.withLock { items } }

    func add(_ line: String) { lock.withLock { items.append(line) } }
}
