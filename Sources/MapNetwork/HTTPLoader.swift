// The HTTP loader: Foundation's URLSession (FoundationNetworking over Debian's libcurl on Linux) with a bounded
// number of requests in flight per host, priorities, cancellation, retries with exponential backoff and response
// size limits. This target is the only one that imports FoundationNetworking.
import Foundation
import MapData

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A finished HTTP exchange (any status; the caller decides what a status means).
public struct HTTPResponse: Sendable {
    /// The status code (`200`, `206`, `304`, `404`, …).
    public var status: Int
    /// The response headers, names lower-cased.
    public var headers: [String: String]
    /// The body as received (libcurl has undone any `Content-Encoding`).
    public var body: [UInt8]
    /// Whether the body came from the persistent cache rather than the network (``HTTPClient``).
    public var fromCache: Bool

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], fromCache: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.fromCache = fromCache
    }

    /// The header `name` (any case), or `nil`.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why a request failed, naming the URL.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL asked for.
    public var url: String
    /// What went wrong (transport error, status, size limit).
    public var message: String
    /// The HTTP status when the server answered, else `nil`.
    public var status: Int?

    /// Creates an error.
    public init(url: String, message: String, status: Int? = nil) {
        self.url = url
        self.message = message
        self.status = status
    }

    /// `url: message`.
    public var description: String { "\(url): \(message)" }
}

/// Settings of an ``HTTPLoader``.
public struct HTTPLoaderOptions: Sendable {
    /// Requests in flight per host (scheme, host and port); the rest wait in priority order. `1...64`, default 8.
    public var maxRequestsPerHost: Int
    /// Further attempts after a 5xx answer or a connection error (refused, reset, timed out, truncated body).
    /// `0...10`, default 3.
    public var maxRetries: Int
    /// Seconds before the first retry; each further retry waits twice as long, at most 8 s. Default 0.25.
    public var retryBaseDelay: Double
    /// Seconds a request may stay without data before it fails (URLSession's `timeoutIntervalForRequest`).
    /// Default 30.
    public var timeout: Double
    /// The largest body accepted, in bytes: a longer answer (by `Content-Length` or as it arrives) is cancelled and
    /// fails with "response larger than … bytes". Default 32 MiB (tiles are a few hundred KiB at most; MapLibre's
    /// own limit for a tile is far below this).
    public var maxResponseBytes: Int

    /// Creates the settings (values are clamped to their documented ranges).
    public init(
        maxRequestsPerHost: Int = 8, maxRetries: Int = 3, retryBaseDelay: Double = 0.25, timeout: Double = 30,
        maxResponseBytes: Int = 32 << 20
    ) {
        self.maxRequestsPerHost = min(max(maxRequestsPerHost, 1), 64)
        self.maxRetries = min(max(maxRetries, 0), 10)
        self.retryBaseDelay = retryBaseDelay.isFinite ? min(max(retryBaseDelay, 0), 8) : 0.25
        self.timeout = timeout.isFinite && timeout > 0 ? timeout : 30
        self.maxResponseBytes = max(maxResponseBytes, 1)
    }
}

/// Fetches URLs over HTTP(S) with URLSession: at most ``HTTPLoaderOptions/maxRequestsPerHost`` requests in flight
/// per host, the waiting ones started most urgent first (smallest priority), cancellable, retried with exponential
/// backoff after 5xx answers and connection errors (``HTTPLoaderOptions/maxRetries``), bodies bounded by
/// ``HTTPLoaderOptions/maxResponseBytes``. Any status is a success at this level (404, 304 and 206 included);
/// failures are transport errors, the size limit, and 5xx answers still failing after the retries.
///
/// Thread rules: every method may be called from any thread; completions run on URLSession's delegate queue or a
/// timer thread, never the caller's, and must not block.
public final class HTTPLoader: NSObject, @unchecked Sendable {
    /// The settings.
    public let options: HTTPLoaderOptions

    private var session: URLSession!
    private let lock = NSLock()
    private var hosts: [String: HostQueue] = [:]
    private var byTask: [Int: Job] = [:]
    private var sequence = 0
    private var started = 0

    /// Requests sent to the network so far, retries included (for tests and benchmarks).
    public var requestsStarted: Int {
        lock.lock()
        defer { lock.unlock() }
        return started
    }

    /// The most requests that were in flight at once for any host (for tests of the per-host bound).
    public var peakInFlightPerHost: Int {
        lock.lock()
        defer { lock.unlock() }
        return peak
    }
    private var peak = 0

    /// Creates a loader with its own URLSession (no URLCache: ``HTTPClient`` does the caching).
    /// - Parameter options: the settings. Defaults to ``HTTPLoaderOptions/init(maxRequestsPerHost:maxRetries:retryBaseDelay:timeout:maxResponseBytes:)``.
    public init(options: HTTPLoaderOptions = HTTPLoaderOptions()) {
        self.options = options
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = options.maxRequestsPerHost
        configuration.timeoutIntervalForRequest = options.timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "waymark.http"
        session = URLSession(configuration: configuration, delegate: Delegate(loader: self), delegateQueue: queue)
    }

    deinit { session.invalidateAndCancel() }

    /// Starts a GET of `url`.
    /// - Parameters:
    ///   - url: an `http` or `https` URL (anything else fails at once).
    ///   - headers: extra request headers (`Range`, `If-None-Match`, …).
    ///   - priority: smaller is started first among the host's waiting requests. Default 0.
    ///   - completion: called once with the response or the error, unless the request is cancelled first.
    /// - Returns: a handle that cancels the request (queued: removed; in flight: the transfer is cancelled; waiting
    ///   for a retry: not retried). A cancelled request never calls `completion`.
    @discardableResult
    public func fetch(
        _ url: URL, headers: [String: String] = [:], priority: Double = 0,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void
    ) -> TileRequestHandle {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host else {
            completion(.failure(HTTPError(url: url.absoluteString, message: "not an http(s) URL")))
            return .completed
        }
        let key = "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
        lock.lock()
        sequence += 1
        let job = Job(
            url: url, headers: headers, priority: priority.isFinite ? priority : .greatestFiniteMagnitude,
            sequence: sequence, host: key, completion: completion)
        lock.unlock()
        enqueue(job)
        return TileRequestHandle { [weak self, job] in self?.cancel(job) }
    }

    /// Fetches and waits (for callers off the frame thread: style and TileJSON loading, snapshots, range readers).
    /// - Parameters:
    ///   - url: an `http` or `https` URL.
    ///   - headers: extra request headers.
    /// - Returns: the response, any status.
    /// - Throws: ``HTTPError`` when the request failed.
    public func fetchAndWait(_ url: URL, headers: [String: String] = [:]) throws(HTTPError) -> HTTPResponse {
        let box = ResultBox<HTTPResponse>()
        fetch(url, headers: headers) { box.set($0) }
        return try box.wait()
    }

    // MARK: Scheduling

    private func enqueue(_ job: Job) {
        lock.lock()
        if job.cancelled {
            lock.unlock()
            return
        }
        hosts[job.host, default: HostQueue()].waiting.append(job)
        let toStart = takeStartable(host: job.host)
        lock.unlock()
        for task in toStart { task.resume() }
    }

    /// Under the lock: moves the host's most urgent waiting jobs into flight while there is room; returns their
    /// tasks to resume outside the lock.
    private func takeStartable(host: String) -> [URLSessionDataTask] {
        guard var queue = hosts[host] else { return [] }
        var tasks: [URLSessionDataTask] = []
        while queue.running < options.maxRequestsPerHost, !queue.waiting.isEmpty {
            var best = 0
            for i in queue.waiting.indices.dropFirst() where queue.waiting[i].isMoreUrgent(than: queue.waiting[best]) {
                best = i
            }
            let job = queue.waiting.remove(at: best)
            var request = URLRequest(url: job.url)
            request.cachePolicy = .reloadIgnoringLocalCacheData
            for (name, value) in job.headers { request.setValue(value, forHTTPHeaderField: name) }
            let task = session.dataTask(with: request)
            job.task = task
            job.body = []
            job.response = nil
            job.failure = nil
            byTask[task.taskIdentifier] = job
            queue.running += 1
            started += 1
            peak = max(peak, queue.running)
            tasks.append(task)
        }
        hosts[host] = queue
        return tasks
    }

    private func cancel(_ job: Job) {
        lock.lock()
        job.cancelled = true
        if var queue = hosts[job.host], let i = queue.waiting.firstIndex(where: { $0 === job }) {
            queue.waiting.remove(at: i)
            hosts[job.host] = queue
        }
        let task = job.task
        lock.unlock()
        task?.cancel()
    }

    // MARK: Delegate callbacks (serial delegate queue)

    fileprivate func received(response: URLResponse, task: URLSessionDataTask) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let job = byTask[task.taskIdentifier] else { return false }
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let n = name as? String, let v = value as? String { headers[n.lowercased()] = v }
        }
        job.response = HTTPResponse(status: http?.statusCode ?? 0, headers: headers)
        if response.expectedContentLength > Int64(options.maxResponseBytes) {
            job.failure = "response larger than \(options.maxResponseBytes) bytes"
            return false
        }
        return true
    }

    fileprivate func received(data: Data, task: URLSessionDataTask) {
        lock.lock()
        guard let job = byTask[task.taskIdentifier] else {
            lock.unlock()
            return
        }
        job.body.append(contentsOf: data)
        let tooLarge = job.body.count > options.maxResponseBytes
        if tooLarge { job.failure = "response larger than \(options.maxResponseBytes) bytes" }
        lock.unlock()
        if tooLarge { task.cancel() }
    }

    fileprivate func completed(task: URLSessionTask, error: (any Error)?) {
        lock.lock()
        guard let job = byTask.removeValue(forKey: task.taskIdentifier) else {
            lock.unlock()
            return
        }
        hosts[job.host]?.running -= 1
        job.task = nil
        var outcome: Result<HTTPResponse, HTTPError>?
        var retryDelay: Double?
        let url = job.url.absoluteString
        if job.cancelled {
            outcome = nil
        } else if let failure = job.failure {
            outcome = .failure(HTTPError(url: url, message: failure, status: job.response?.status))
        } else if let error {
            let message = "\((error as? URLError).map { Self.describe($0) } ?? "\(error)")"
            if job.attempt < options.maxRetries {
                retryDelay = delay(afterAttempt: job.attempt)
            } else {
                outcome = .failure(HTTPError(url: url, message: message))
            }
        } else if var response = job.response {
            if response.status >= 500 && job.attempt < options.maxRetries {
                retryDelay = delay(afterAttempt: job.attempt)
            } else if response.status >= 500 {
                outcome = .failure(HTTPError(url: url, message: "HTTP \(response.status)", status: response.status))
            } else {
                response.body = job.body
                outcome = .success(response)
            }
        } else {
            outcome = .failure(HTTPError(url: url, message: "no response"))
        }
        let toStart = takeStartable(host: job.host)
        lock.unlock()
        for task in toStart { task.resume() }
        if let retryDelay {
            job.attempt += 1
            DispatchQueue.global().asyncAfter(deadline: .now() + retryDelay) { [weak self] in self?.enqueue(job) }
        } else if let outcome {
            job.completion(outcome)
        }
    }

    private func delay(afterAttempt attempt: Int) -> Double {
        min(options.retryBaseDelay * Double(1 << min(attempt, 16)), 8)
    }

    private static func describe(_ error: URLError) -> String {
        switch error.code {
        case .cannotConnectToHost: return "cannot connect to the server"
        case .networkConnectionLost: return "connection lost (reset or truncated body)"
        case .timedOut: return "timed out"
        case .cannotFindHost: return "unknown host"
        case .notConnectedToInternet: return "no network"
        default: return error.localizedDescription
        }
    }
}

/// One request through its attempts (guarded by the loader's lock).
private final class Job: @unchecked Sendable {
    let url: URL
    let headers: [String: String]
    let priority: Double
    let sequence: Int
    let host: String
    let completion: @Sendable (Result<HTTPResponse, HTTPError>) -> Void
    var attempt = 0
    var cancelled = false
    var task: URLSessionDataTask?
    var response: HTTPResponse?
    var body: [UInt8] = []
    var failure: String?

    init(
        url: URL, headers: [String: String], priority: Double, sequence: Int, host: String,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void
    ) {
        self.url = url
        self.headers = headers
        self.priority = priority
        self.sequence = sequence
        self.host = host
        self.completion = completion
    }

    func isMoreUrgent(than other: Job) -> Bool {
        priority != other.priority ? priority < other.priority : sequence < other.sequence
    }
}

private struct HostQueue {
    var waiting: [Job] = []
    var running = 0
}

/// URLSession's delegate (it holds the session strongly, so the loader is held weakly).
private final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    weak var loader: HTTPLoader?

    init(loader: HTTPLoader) { self.loader = loader }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        completionHandler(loader?.received(response: response, task: dataTask) == true ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        loader?.received(data: data, task: dataTask)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        loader?.completed(task: task, error: error)
    }
}

/// A one-shot result a caller waits for.
final class ResultBox<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<Value, HTTPError>?

    func set(_ value: Result<Value, HTTPError>) {
        condition.lock()
        if result == nil { result = value }
        condition.broadcast()
        condition.unlock()
    }

    func wait() throws(HTTPError) -> Value {
        condition.lock()
        while result == nil { condition.wait() }
        let r = result!
        condition.unlock()
        return try r.get()
    }
}
