// The HTTP loader over CurlTransport (Debian's libcurl): a bounded number of requests in flight per host,
// priorities, cancellation, retries with exponential backoff and Retry-After, and every response bounded in memory,
// rate and time while it arrives.
import CurlTransport
import Foundation
import MapData

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
    /// The URL asked for, cut to ``maxURLCharacters`` (its start and end kept) so a huge URL never floods a message.
    public var url: String
    /// What went wrong (transport error, status, size limit).
    public var message: String
    /// The HTTP status when the server answered, else `nil`.
    public var status: Int?

    /// Creates an error.
    public init(url: String, message: String, status: Int? = nil) {
        self.url = Self.shortened(url)
        self.message = message
        self.status = status
    }

    /// `url: message`.
    public var description: String { "\(url): \(message)" }

    /// The longest URL kept in an error, in characters: 300.
    public static let maxURLCharacters = 300

    /// `text` when it has at most ``maxURLCharacters`` characters, else its first 200 and last 80 characters around
    /// `…(N characters)…`.
    public static func shortened(_ text: String) -> String {
        guard text.count > maxURLCharacters else { return text }
        return "\(text.prefix(200))…(\(text.count - 280) characters)…\(text.suffix(80))"
    }
}

/// Settings of an ``HTTPLoader`` (the defaults are docs/BEHAVIOUR.md D19).
public struct HTTPLoaderOptions: Sendable {
    /// Requests in flight per host (scheme, host and port); the rest wait in priority order. `1...64`, default 8.
    public var maxRequestsPerHost: Int
    /// Further attempts after a 5xx or 429 answer or a connection error (refused, reset, truncated body). A stalled
    /// or overdue request is not retried (the deadline holds). `0...10`, default 3.
    public var maxRetries: Int
    /// Seconds before the first retry; each further retry waits twice as long, at most 8 s. A `Retry-After` header
    /// (seconds or an HTTP date) on a 429 or 503 answer is honoured instead when it asks for at most
    /// ``maxRetryAfter`` seconds; a longer one fails the request at once, naming the wait. Default 0.25.
    public var retryBaseDelay: Double
    /// Stall detection: seconds a request may move fewer than ``minimumBytesPerSecond`` (waiting for the answer
    /// included) before it fails as stalled. Default 30.
    public var timeout: Double
    /// Stall detection's rate in bytes per second: a server dripping slower than this for ``timeout`` seconds is
    /// cut off. `1...`, default 64.
    public var minimumBytesPerSecond: Int
    /// The overall deadline of one attempt, in seconds from its start to the last byte, whatever the rate.
    /// Default 60.
    public var deadline: Double
    /// The longest `Retry-After` waited for, in seconds. `0...600`, default 30.
    public var maxRetryAfter: Double
    /// Redirects followed (to `http` and `https` only). `0...20`, default 5.
    public var maxRedirects: Int
    /// The largest body accepted, in bytes, counted after any `Content-Encoding` is undone: a longer answer (by
    /// `Content-Length` or as it arrives, compressed or decompressed) is cut off and fails with "response larger
    /// than … bytes", so memory stays bounded whatever the server sends. Default 32 MiB (tiles are a few hundred
    /// KiB at most; MapLibre's own limit for a tile is far below this).
    public var maxResponseBytes: Int

    /// Creates the settings (values are clamped to their documented ranges; non-finite ones take the defaults).
    public init(
        maxRequestsPerHost: Int = 8, maxRetries: Int = 3, retryBaseDelay: Double = 0.25, timeout: Double = 30,
        maxResponseBytes: Int = 32 << 20, deadline: Double = 60, minimumBytesPerSecond: Int = 64,
        maxRetryAfter: Double = 30, maxRedirects: Int = 5
    ) {
        self.maxRequestsPerHost = min(max(maxRequestsPerHost, 1), 64)
        self.maxRetries = min(max(maxRetries, 0), 10)
        self.retryBaseDelay = retryBaseDelay.isFinite ? min(max(retryBaseDelay, 0), 8) : 0.25
        self.timeout = timeout.isFinite && timeout > 0 ? timeout : 30
        self.maxResponseBytes = max(maxResponseBytes, 1)
        self.deadline = deadline.isFinite && deadline > 0 ? deadline : 60
        self.minimumBytesPerSecond = max(minimumBytesPerSecond, 1)
        self.maxRetryAfter = maxRetryAfter.isFinite ? min(max(maxRetryAfter, 0), 600) : 30
        self.maxRedirects = min(max(maxRedirects, 0), 20)
    }

    /// The transport's bounds for one attempt.
    var limits: TransferLimits {
        TransferLimits(
            maxBodyBytes: maxResponseBytes, connectSeconds: min(timeout, 10), stallSeconds: timeout,
            minimumBytesPerSecond: minimumBytesPerSecond, deadlineSeconds: deadline, maxRedirects: maxRedirects)
    }
}

/// Fetches URLs over HTTP(S) with ``CurlTransport`` (libcurl): at most ``HTTPLoaderOptions/maxRequestsPerHost``
/// requests in flight per host, the waiting ones started most urgent first (smallest priority), cancellable,
/// retried with exponential backoff after 5xx/429 answers and connection errors (``HTTPLoaderOptions/maxRetries``),
/// each attempt bounded in memory (``HTTPLoaderOptions/maxResponseBytes``, compressed and decompressed), in rate
/// (``HTTPLoaderOptions/timeout``) and in time (``HTTPLoaderOptions/deadline``). Any status is a success at this
/// level (404, 304 and 206 included); failures are transport errors, the limits, and 5xx answers still failing
/// after the retries. Every failure names the URL (cut to ``HTTPError/maxURLCharacters``).
///
/// Thread rules: every method may be called from any thread; each transfer runs on a thread of its own and its
/// completion runs there (or on a timer thread after a retry wait), never the caller's, and must not block.
public final class HTTPLoader: @unchecked Sendable {
    /// The settings.
    public let options: HTTPLoaderOptions

    private let lock = NSLock()
    private var hosts: [String: HostQueue] = [:]
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
    private var cutoff: (uptime: UInt64, seconds: Double)?

    /// Ends every request of this loader by `seconds` from now, whatever its own limits: attempts in flight are cut
    /// off then, later attempts get what time is left, and a request asked after it (or a retry that would wait past
    /// it) fails at once with "not answered within N s". For a whole job with one time budget (`waymark snapshot
    /// --timeout`). Waymark's own.
    /// - Parameter seconds: the budget from now, `> 0`; `nil` lifts it.
    public func finishBy(seconds: Double?) {
        lock.lock()
        if let seconds, seconds.isFinite, seconds > 0 {
            cutoff = (DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9), seconds)
        } else {
            cutoff = nil
        }
        lock.unlock()
    }

    /// Under the lock: seconds left before ``finishBy(seconds:)``'s cut-off, or `nil` without one.
    private func secondsLeft() -> Double? {
        guard let cutoff else { return nil }
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= cutoff.uptime ? 0 : Double(cutoff.uptime - now) / 1e9
    }

    /// Creates a loader (no HTTP cache of its own: ``HTTPClient`` does the caching).
    /// - Parameter options: the settings. Defaults to ``HTTPLoaderOptions/init(maxRequestsPerHost:maxRetries:retryBaseDelay:timeout:maxResponseBytes:deadline:minimumBytesPerSecond:maxRetryAfter:maxRedirects:)``.
    public init(options: HTTPLoaderOptions = HTTPLoaderOptions()) {
        self.options = options
    }

    /// Starts a GET of `url`.
    /// - Parameters:
    ///   - url: an `http` or `https` URL (anything else fails at once).
    ///   - headers: extra request headers (`Range`, `If-None-Match`, …).
    ///   - priority: smaller is started first among the host's waiting requests. Default 0.
    ///   - completion: called once with the response or the error, unless the request is cancelled first.
    /// - Returns: a handle that cancels the request (queued: removed; in flight: the transfer ends within about a
    ///   second; waiting for a retry: not retried). A cancelled request never calls `completion`.
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
        for job in toStart { start(job) }
    }

    /// Under the lock: moves the host's most urgent waiting jobs into flight while there is room; returns them to
    /// start outside the lock.
    private func takeStartable(host: String) -> [Job] {
        guard var queue = hosts[host] else { return [] }
        var jobs: [Job] = []
        while queue.running < options.maxRequestsPerHost, !queue.waiting.isEmpty {
            var best = 0
            for i in queue.waiting.indices.dropFirst() where queue.waiting[i].isMoreUrgent(than: queue.waiting[best]) {
                best = i
            }
            jobs.append(queue.waiting.remove(at: best))
            queue.running += 1
            started += 1
            peak = max(peak, queue.running)
        }
        hosts[host] = queue
        return jobs
    }

    /// Runs one attempt of `job` on a thread of its own.
    private func start(_ job: Job) {
        var limits = options.limits
        lock.lock()
        let left = secondsLeft()
        let budget = budgetMessage()
        lock.unlock()
        if let left {
            guard left > 0.001 else {
                let failure = TransferFailure(kind: .deadline, message: budget, status: nil)
                Thread { [self] in completed(job, .failure(failure)) }.start()
                return
            }
            limits.deadlineSeconds = min(limits.deadlineSeconds, left)
        }
        let thread = Thread { [self, limits] in
            let headers = job.headers.map { ($0.key, $0.value) }
            let result = CurlTransport.get(job.url.absoluteString, headers: headers, limits: limits) { [self] in
                lock.lock()
                defer { lock.unlock() }
                return job.cancelled
            }
            completed(job, result)
        }
        thread.name = "waymark.http"
        thread.start()
    }

    private func cancel(_ job: Job) {
        lock.lock()
        job.cancelled = true
        if var queue = hosts[job.host], let i = queue.waiting.firstIndex(where: { $0 === job }) {
            queue.waiting.remove(at: i)
            hosts[job.host] = queue
        }
        lock.unlock()
    }

    private func completed(_ job: Job, _ result: Result<TransferAnswer, TransferFailure>) {
        lock.lock()
        hosts[job.host]?.running -= 1
        var outcome: Result<HTTPResponse, HTTPError>?
        var retryDelay: Double?
        let url = job.url.absoluteString
        let canRetry = job.attempt < options.maxRetries
        switch result {
        case _ where job.cancelled:
            outcome = nil
        case .failure(let failure) where failure.kind == .deadline && secondsLeft().map({ $0 < 0.1 }) == true:
            // The job's budget (``finishBy(seconds:)``) ended the attempt, not the attempt's own deadline.
            outcome = .failure(HTTPError(url: url, message: budgetMessage(), status: failure.status))
        case .failure(let failure):
            let transient = failure.kind == .cannotConnect || failure.kind == .connectionLost
            if transient && canRetry {
                retryDelay = delay(afterAttempt: job.attempt)
            } else {
                outcome = .failure(HTTPError(url: url, message: failure.message, status: failure.status))
            }
        case .success(let answer):
            let response = HTTPResponse(status: answer.status, headers: answer.headers, body: answer.body)
            let retryable = answer.status >= 500 || answer.status == 429
            let asked = (answer.status == 429 || answer.status == 503) ? retryAfter(response) : nil
            if retryable, let asked, asked > options.maxRetryAfter {
                outcome = .failure(
                    HTTPError(
                        url: url, message: "HTTP \(answer.status), asked to retry after \(Int(asked)) s",
                        status: answer.status))
            } else if retryable && canRetry {
                retryDelay = asked ?? delay(afterAttempt: job.attempt)
            } else if retryable {
                outcome = .failure(HTTPError(url: url, message: "HTTP \(answer.status)", status: answer.status))
            } else {
                outcome = .success(response)
            }
        }
        if retryDelay != nil, let left = secondsLeft(), retryDelay! >= left {
            retryDelay = nil
            outcome = .failure(HTTPError(url: url, message: budgetMessage()))
        }
        let toStart = takeStartable(host: job.host)
        lock.unlock()
        for job in toStart { start(job) }
        if let retryDelay {
            job.attempt += 1
            DispatchQueue.global().asyncAfter(deadline: .now() + retryDelay) { [weak self] in self?.enqueue(job) }
        } else if let outcome {
            job.completion(outcome)
        }
    }

    /// Under the lock: "not answered within N s" for the budget of ``finishBy(seconds:)`` (whole seconds when it is whole).
    private func budgetMessage() -> String {
        let seconds = cutoff?.seconds ?? 0
        let text = seconds == seconds.rounded() && seconds < 1e9 ? String(Int(seconds)) : String(seconds)
        return "not answered within \(text) s"
    }

    private func delay(afterAttempt attempt: Int) -> Double {
        min(options.retryBaseDelay * Double(1 << min(attempt, 16)), 8)
    }

    /// A `Retry-After` header in seconds from now (delta-seconds or an HTTP date), or `nil`.
    private func retryAfter(_ response: HTTPResponse) -> Double? {
        guard let text = response.header("retry-after")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(text), seconds.isFinite { return max(0, seconds) }
        return CachePolicy.httpDate(text).map { max(0, $0 - Date().timeIntervalSince1970) }
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
