import Foundation
import MapData
import MapStorage

/// How long a response may be used without asking the server again (RFC 9111 §4.2), from its headers.
public struct CachePolicy: Sendable, Equatable {
    /// `Cache-Control: no-store`: never stored.
    public var noStore: Bool
    /// Seconds since 1970 until which the body is fresh: `now + max-age`, else `Expires`, else a tenth of the
    /// time since `Last-Modified` (at most a day, RFC 9111 §4.2.2), else `now` (revalidate every time).
    /// `no-cache` makes it `0`: stored, but revalidated before every use.
    public var freshUntil: Double

    /// Reads `Cache-Control`, `Expires`, `Date` and `Last-Modified`.
    /// - Parameters:
    ///   - headers: response headers, names lower-cased.
    ///   - now: seconds since 1970.
    public init(headers: [String: String], now: Double) {
        let directives = (headers["cache-control"] ?? "").lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        noStore = directives.contains("no-store")
        if directives.contains("no-cache") {
            freshUntil = 0
            return
        }
        if let maxAge = directives.first(where: { $0.hasPrefix("max-age=") }) {
            let value = Double(String(maxAge.dropFirst("max-age=".count).filter { $0 != "\"" }))
            freshUntil = now + max(0, value ?? 0)
            return
        }
        if let expires = headers["expires"] {
            freshUntil = Self.httpDate(expires) ?? 0
            return
        }
        if let modified = headers["last-modified"].flatMap(Self.httpDate) {
            let date = headers["date"].flatMap(Self.httpDate) ?? now
            freshUntil = now + min(max(0, (date - modified) / 10), 86_400)
            return
        }
        freshUntil = now
    }

    /// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), seconds since 1970; `nil` when malformed.
    public static func httpDate(_ text: String) -> Double? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))?.timeIntervalSince1970
    }
}

/// GETs through the persistent ``HTTPCache`` and the ``HTTPLoader``: a fresh cached body is answered without the
/// network; a stale one is revalidated with `If-None-Match` / `If-Modified-Since` (a `304` keeps it and refreshes
/// its freshness); a `200` is stored per its `Cache-Control` / `Expires`, and a `404` is remembered (its own
/// freshness, at least ``notFoundFreshness``). With the network gone (transport error or 5xx after the retries), a
/// cached body or a remembered `404` is answered whatever its age, so cached tiles keep drawing offline and missing
/// ones are not failures.
/// `file://` URLs are read from disk (not cached). Waymark's own.
///
/// Thread rules: any thread; cache lookups run on a background queue, never the caller's thread; completions as
/// ``HTTPLoader``'s.
public final class HTTPClient: Sendable {
    /// The network side.
    public let loader: HTTPLoader
    /// The persistent cache, or `nil` for none. A cache given as an opener (``init(loader:openingCache:now:)``) is
    /// opened on the first use of this property (the first `http(s)` request), never before.
    public var cache: HTTPCache? { lazyCache.value }
    private let lazyCache: LazyCache
    let now: @Sendable () -> Double
    private let queue = DispatchQueue(label: "waymark.http.cache", attributes: .concurrent)

    /// Creates a client.
    /// - Parameters:
    ///   - loader: the loader. Defaults to a new one with default options.
    ///   - cache: the cache, or `nil`.
    ///   - now: the clock for freshness, seconds since 1970. Defaults to the system's.
    public init(
        loader: HTTPLoader = HTTPLoader(), cache: HTTPCache?,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.loader = loader
        lazyCache = LazyCache { cache }
        self.now = now
    }

    /// Creates a client whose cache is opened by `openCache` on first use (a run that fetches nothing over
    /// `http(s)` never opens it). Waymark's own.
    /// - Parameters:
    ///   - loader: the loader.
    ///   - openCache: opens the cache, or returns `nil` for none; called at most once, on the first thread that
    ///     needs the cache.
    ///   - now: the clock for freshness, seconds since 1970. Defaults to the system's.
    public init(
        loader: HTTPLoader, openingCache openCache: @escaping @Sendable () -> HTTPCache?,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.loader = loader
        lazyCache = LazyCache(openCache)
        self.now = now
    }

    /// How long a `404` without its own freshness (`Cache-Control`, `Expires`) is remembered before the server is
    /// asked again: 600 s (docs/BEHAVIOUR.md D21). Offline, a remembered `404` is answered whatever its age.
    public static let notFoundFreshness = 600.0

    /// GETs `url` through the cache.
    /// - Parameters:
    ///   - url: `http(s)://` or `file://`.
    ///   - extra: extra request headers (`User-Agent`, …), the `headers:` argument; not part of the cache key.
    ///     Default none.
    ///   - priority: smaller first (see ``HTTPLoader/fetch(_:headers:priority:completion:)``). Default 0.
    ///   - completion: the response (a cached body comes back as status 200 with ``HTTPResponse/fromCache``, a
    ///     missing `file://` as status 404) or the error, on a background thread; not called after a cancel, except
    ///     for `file://` reads, which cannot be cancelled.
    /// - Returns: the cancelling handle (``TileRequestHandle/completed`` for a `file://` URL).
    @discardableResult
    public func get(
        _ url: URL, headers extra: [String: String] = [:], priority: Double = 0,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void
    ) -> TileRequestHandle {
        if url.isFileURL {
            let limit = loader.options.maxResponseBytes
            queue.async {
                let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int ?? 0
                if size > limit {
                    completion(
                        .failure(HTTPError(url: url.absoluteString, message: "file larger than \(limit) bytes")))
                } else if let data = FileManager.default.contents(atPath: url.path) {
                    completion(.success(HTTPResponse(status: 200, body: [UInt8](data))))
                } else {
                    completion(.success(HTTPResponse(status: 404)))
                }
            }
            return .completed
        }
        let state = CancelState()
        queue.async { [self] in
            guard !state.isCancelled else { return }
            let key = url.absoluteString
            let cached = cache?.entry(for: key)
            let missing = cached == nil ? cache?.entry(for: Self.notFoundKey(key)) : nil
            let time = now()
            if let cached, cached.freshUntil > time {
                completion(.success(HTTPResponse(status: 200, body: cached.body, fromCache: true)))
                return
            }
            if let missing, missing.freshUntil > time {
                completion(.success(HTTPResponse(status: 404, fromCache: true)))
                return
            }
            var headers = extra
            if let etag = cached?.etag { headers["If-None-Match"] = etag }
            if let modified = cached?.lastModified { headers["If-Modified-Since"] = modified }
            let handle = loader.fetch(url, headers: headers, priority: priority) { [self] result in
                completion(self.settle(result, key: key, cached: cached, missing: missing != nil))
            }
            state.set(handle)
        }
        return TileRequestHandle { state.cancel() }
    }

    /// GETs and waits (off the frame thread: styles, TileJSON, sprites, glyphs, snapshots).
    /// - Throws: ``HTTPError``.
    public func getAndWait(_ url: URL) throws(HTTPError) -> HTTPResponse {
        let box = ResultBox<HTTPResponse>()
        get(url) { box.set($0) }
        return try box.wait()
    }

    /// GETs `url` and returns the body of a 2xx answer.
    /// - Throws: ``HTTPError`` for a failure or any other status (naming it).
    public func bytes(_ url: URL) throws(HTTPError) -> [UInt8] {
        let response = try getAndWait(url)
        guard (200..<300).contains(response.status) else {
            throw HTTPError(
                url: url.absoluteString, message: response.status == 404 ? "not found" : "HTTP \(response.status)",
                status: response.status)
        }
        return response.body
    }

    /// The cache key of a remembered `404` for the URL `key` (a space never appears in a URL).
    static func notFoundKey(_ key: String) -> String { "404 " + key }

    /// What the caller gets for a network answer, updating the cache on the way. `missing`: a `404` for the URL
    /// was remembered.
    private func settle(
        _ result: Result<HTTPResponse, HTTPError>, key: String, cached: HTTPCache.Entry?, missing: Bool
    ) -> Result<HTTPResponse, HTTPError> {
        switch result {
        case .success(let response) where response.status == 304:
            guard let cached else { return .success(response) }
            let policy = CachePolicy(headers: response.headers, now: now())
            cache?.refresh(
                url: key, freshUntil: policy.freshUntil, etag: response.header("etag"),
                lastModified: response.header("last-modified"))
            return .success(HTTPResponse(status: 200, headers: response.headers, body: cached.body, fromCache: true))
        case .success(let response) where response.status == 200:
            let policy = CachePolicy(headers: response.headers, now: now())
            if policy.noStore {
                cache?.remove(url: key)
            } else {
                cache?.store(
                    HTTPCache.Entry(
                        body: response.body, etag: response.header("etag"),
                        lastModified: response.header("last-modified"), freshUntil: policy.freshUntil), for: key)
            }
            if missing { cache?.remove(url: Self.notFoundKey(key)) }
            return .success(response)
        case .success(let response) where response.status == 404:
            // Remembered (a missing tile of a sparse tileset), so an offline run does not count it as a failure
            // and a fresh one is not asked for again; freshness as for a body.
            let policy = CachePolicy(headers: response.headers, now: now())
            if !policy.noStore {
                cache?.store(
                    HTTPCache.Entry(body: [], freshUntil: max(policy.freshUntil, now() + Self.notFoundFreshness)),
                    for: Self.notFoundKey(key))
            }
            return .success(response)
        case .success(let response):
            return .success(response)
        case .failure(let error):
            // Offline (or the server failing): what the cache holds, whatever its age.
            if let cached, error.status == nil || error.status! >= 500 {
                return .success(HTTPResponse(status: 200, body: cached.body, fromCache: true))
            }
            if missing, error.status == nil || error.status! >= 500 {
                return .success(HTTPResponse(status: 404, fromCache: true))
            }
            return .failure(error)
        }
    }
}

/// A value made on first use, once, under a lock.
final class LazyCache: @unchecked Sendable {
    private let lock = NSLock()
    private var open: (@Sendable () -> HTTPCache?)?
    private var opened: HTTPCache?

    init(_ open: @escaping @Sendable () -> HTTPCache?) { self.open = open }

    var value: HTTPCache? {
        lock.lock()
        defer { lock.unlock() }
        if let open {
            opened = open()
            self.open = nil
        }
        return opened
    }
}

/// A cancel flag and the inner request's handle, set once it exists.
final class CancelState: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var handle: TileRequestHandle?

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    func set(_ h: TileRequestHandle) {
        lock.lock()
        handle = h
        let c = cancelled
        lock.unlock()
        if c { h.cancel() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let h = handle
        lock.unlock()
        h?.cancel()
    }
}
