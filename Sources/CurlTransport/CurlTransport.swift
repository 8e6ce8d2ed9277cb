// The HTTP transport: one GET over Debian's libcurl with every resource bounded while the answer arrives. This target
// is the only importer of CCurl (ARCHITECTURE.md §1); MapNetwork schedules, retries and caches above it.
import CCurl
import Foundation

/// The bounds of one transfer (the defaults are docs/BEHAVIOUR.md D19). Waymark's own.
public struct TransferLimits: Sendable, Equatable {
    /// The largest body accepted, in bytes, counted after any `Content-Encoding` is undone: a larger
    /// `Content-Length` is refused before the body, and a body that grows past it (an endless body, a gzip bomb) is
    /// cut off as it arrives. At least 1. Past its first ``TransferBudget/bytesPerBody`` bytes a body also draws on
    /// the process-wide ``TransferBudget``, so many large answers at once stay bounded together.
    public var maxBodyBytes: Int
    /// The largest total of header bytes accepted (all the answers of a redirect chain). Default 256 KiB.
    public var maxHeaderBytes: Int
    /// Seconds to connect (TCP and TLS) before failing. Default 10.
    public var connectSeconds: Double
    /// Stall detection: a transfer that moves fewer than ``minimumBytesPerSecond`` for this many seconds (waiting
    /// for the first byte included) fails. Default 30.
    public var stallSeconds: Double
    /// Stall detection's rate, bytes per second. Default 64.
    public var minimumBytesPerSecond: Int
    /// Seconds from start to the last byte, whatever the rate: the overall deadline. Default 60.
    public var deadlineSeconds: Double
    /// Redirects followed (`http` and `https` only). Default 5.
    public var maxRedirects: Int

    /// Creates the limits; non-finite or non-positive values take the defaults.
    public init(
        maxBodyBytes: Int = 32 << 20, maxHeaderBytes: Int = 256 << 10, connectSeconds: Double = 10,
        stallSeconds: Double = 30, minimumBytesPerSecond: Int = 64, deadlineSeconds: Double = 60,
        maxRedirects: Int = 5
    ) {
        func positive(_ v: Double, _ d: Double) -> Double { v.isFinite && v > 0 ? v : d }
        self.maxBodyBytes = max(maxBodyBytes, 1)
        self.maxHeaderBytes = max(maxHeaderBytes, 1024)
        self.connectSeconds = positive(connectSeconds, 10)
        self.stallSeconds = positive(stallSeconds, 30)
        self.minimumBytesPerSecond = max(minimumBytesPerSecond, 1)
        self.deadlineSeconds = positive(deadlineSeconds, 60)
        self.maxRedirects = min(max(maxRedirects, 0), 50)
    }
}

/// A finished exchange: the final answer after redirects, any status.
public struct TransferAnswer: Sendable {
    /// The status code.
    public var status: Int
    /// The headers of the final answer, names lower-cased (repeated headers joined with `, `).
    public var headers: [String: String]
    /// The body, `Content-Encoding` undone.
    public var body: [UInt8]
}

/// Why a transfer failed. Waymark's own.
public struct TransferFailure: Error, Sendable, Equatable {
    /// The kinds of failure.
    public enum Kind: Sendable, Equatable {
        /// The body (or its `Content-Length`) passed ``TransferLimits/maxBodyBytes``, or the headers
        /// ``TransferLimits/maxHeaderBytes``.
        case tooLarge
        /// ``TransferLimits/deadlineSeconds`` passed.
        case deadline
        /// Slower than ``TransferLimits/minimumBytesPerSecond`` for ``TransferLimits/stallSeconds``.
        case stalled
        /// No connection (refused, unreachable, connect timeout).
        case cannotConnect
        /// The host name does not resolve.
        case unknownHost
        /// The connection broke (reset, truncated body, nothing received).
        case connectionLost
        /// More than ``TransferLimits/maxRedirects`` redirects, or a redirect to a scheme other than http(s).
        case badRedirect
        /// The `Content-Encoding` does not decode.
        case badEncoding
        /// Cancelled by the caller.
        case cancelled
        /// Anything else (TLS, malformed answer, …).
        case other
    }

    /// What happened.
    public var kind: Kind
    /// A sentence for the user (no URL: the caller names it).
    public var message: String
    /// The status of an answer that had started, else `nil`.
    public var status: Int?

    /// Creates a failure.
    public init(kind: Kind, message: String, status: Int?) {
        self.kind = kind
        self.message = message
        self.status = status
    }
}

/// One GET at a time per call, over a small pool of reused libcurl handles (their connections stay open). Waymark's
/// own.
///
/// Thread rules: any thread; ``get(_:headers:limits:isCancelled:)`` blocks the calling thread until the transfer
/// ends (at most ``TransferLimits/deadlineSeconds``, plus about a second to notice a cancel).
public enum CurlTransport {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
    private static let pool = HandlePool()

    /// GETs `url`.
    /// - Parameters:
    ///   - url: an `http://` or `https://` URL (other schemes fail as `.other`).
    ///   - headers: request headers, sent as given (they replace libcurl's own of the same name).
    ///   - limits: the bounds.
    ///   - isCancelled: asked while the transfer runs (at least once a second); `true` ends it as `.cancelled`.
    /// - Returns: the final answer (any status) or the failure.
    public static func get(
        _ url: String, headers: [(String, String)] = [], limits: TransferLimits,
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) -> Result<TransferAnswer, TransferFailure> {
        guard initialized, let handle = pool.take() else {
            return .failure(TransferFailure(kind: .other, message: "libcurl did not start", status: nil))
        }
        defer { pool.give(handle) }
        let context = Context(limits: limits, isCancelled: isCancelled)
        let opaque = Unmanaged.passUnretained(context).toOpaque()
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers {
            let clean = "\(name): \(value)".filter { $0 != "\r" && $0 != "\n" }
            list = curl_slist_append(list, clean)
        }
        defer { curl_slist_free_all(list) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }

        _ = waymark_curl_setopt_string(handle, CURLOPT_URL, url)
        _ = waymark_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = waymark_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = waymark_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = waymark_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, limits.maxRedirects > 0 ? 1 : 0)
        _ = waymark_curl_setopt_long(handle, CURLOPT_MAXREDIRS, limits.maxRedirects)
        _ = waymark_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        _ = waymark_curl_setopt_string(handle, CURLOPT_USERAGENT, "Waymark")
        _ = waymark_curl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxBodyBytes))
        _ = waymark_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(limits.connectSeconds))
        _ = waymark_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(limits.deadlineSeconds))
        _ = waymark_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, limits.minimumBytesPerSecond)
        _ = waymark_curl_setopt_long(
            handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(limits.stallSeconds.rounded(.up))))
        _ = waymark_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list)
        _ = waymark_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = waymark_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, writeCallback)
        _ = waymark_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, opaque)
        _ = waymark_curl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, headerCallback)
        _ = waymark_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, opaque)
        _ = waymark_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        _ = waymark_curl_setopt_progress_callback(handle, progressCallback)
        _ = waymark_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, opaque)

        let started = DispatchTime.now().uptimeNanoseconds
        let code = withExtendedLifetime(context) { curl_easy_perform(handle) }
        context.releaseBudget()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        var status = 0
        _ = waymark_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        if code == CURLE_OK {
            return .success(TransferAnswer(status: status, headers: context.headers, body: context.takeBody()))
        }
        let detail = String(cString: errorBuffer)
        let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        return .failure(
            failure(code: code, text: text, elapsed: elapsed, context: context, status: status == 0 ? nil : status))
    }

    private static func milliseconds(_ seconds: Double) -> Int { max(1, Int((seconds * 1000).rounded(.up))) }

    private static func failure(code: CURLcode, text: String, elapsed: Double, context: Context, status: Int?)
        -> TransferFailure
    {
        let limits = context.limits
        func make(_ kind: TransferFailure.Kind, _ message: String) -> TransferFailure {
            TransferFailure(kind: kind, message: message, status: status)
        }
        if context.cancelled { return make(.cancelled, "cancelled") }
        if context.headersTooLarge { return make(.tooLarge, "headers larger than \(limits.maxHeaderBytes) bytes") }
        if context.overBudget {
            return make(
                .tooLarge,
                "response passed \(TransferBudget.bytesPerBody) bytes while the answers arriving at once held "
                    + "the \(TransferBudget.sharedBytes >> 20) MiB they share")
        }
        if context.bodyTooLarge || code == CURLE_FILESIZE_EXCEEDED {
            return make(.tooLarge, "response larger than \(limits.maxBodyBytes) bytes")
        }
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            if text.hasPrefix("Operation too slow") {
                return make(
                    .stalled,
                    "stalled: less than \(limits.minimumBytesPerSecond) bytes/s for \(format(limits.stallSeconds)) s")
            }
            if elapsed + 0.05 >= limits.deadlineSeconds {
                return make(.deadline, "no complete answer within \(format(limits.deadlineSeconds)) s")
            }
            return make(.cannotConnect, "cannot connect to the server within \(format(limits.connectSeconds)) s")
        case CURLE_COULDNT_CONNECT: return make(.cannotConnect, "cannot connect to the server")
        case CURLE_COULDNT_RESOLVE_HOST: return make(.unknownHost, "unknown host")
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING:
            return make(.connectionLost, "connection lost (reset or truncated body)")
        case CURLE_TOO_MANY_REDIRECTS: return make(.badRedirect, "more than \(limits.maxRedirects) redirects")
        case CURLE_UNSUPPORTED_PROTOCOL: return make(.badRedirect, "not an http(s) URL (or redirected to one)")
        case CURLE_BAD_CONTENT_ENCODING: return make(.badEncoding, "the Content-Encoding does not decode")
        case CURLE_ABORTED_BY_CALLBACK: return make(.cancelled, "cancelled")
        default: return make(.other, text)
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < 1e9 ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}

/// The state one transfer's callbacks share (used on the transfer's thread only).
private final class Context {
    let limits: TransferLimits
    let isCancelled: @Sendable () -> Bool
    /// The body so far: ``head`` (up to ``chunkBytes``), then, for a longer body, fixed-size ``chunks`` and the
    /// last one in ``tail``. Fixed chunks, not one array doubling as it grows, so the memory a failed large body
    /// frees is reused whole by the next ones instead of piling up as differently sized free blocks in malloc's
    /// arenas (which kept resident memory near 2× the bodies with 8 endless answers at once).
    private var head: [UInt8] = []
    private var chunks: [[UInt8]] = []
    private var tail: [UInt8] = []
    /// Bytes of the body so far.
    private(set) var bodyCount = 0
    static let chunkBytes = 256 << 10

    /// Appends `bytes`.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        bodyCount += bytes.count
        if chunks.isEmpty && tail.isEmpty && head.count + bytes.count <= Self.chunkBytes {
            head.append(contentsOf: bytes)
            return
        }
        var rest = bytes[...]
        while !rest.isEmpty {
            if tail.count == Self.chunkBytes {
                chunks.append(tail)
                tail = []
            }
            if tail.capacity < Self.chunkBytes { tail.reserveCapacity(Self.chunkBytes) }
            let n = min(rest.count, Self.chunkBytes - tail.count)
            tail.append(contentsOf: rest.prefix(n))
            rest = rest.dropFirst(n)
        }
    }

    /// The whole body, in one array of its size.
    func takeBody() -> [UInt8] {
        guard !(chunks.isEmpty && tail.isEmpty) else { return head }
        var body: [UInt8] = []
        body.reserveCapacity(bodyCount)
        body += head
        for chunk in chunks { body += chunk }
        body += tail
        return body
    }

    /// Drops the body (a new answer after a redirect).
    func resetBody() {
        head = []
        chunks = []
        tail = []
        bodyCount = 0
    }

    var headers: [String: String] = [:]
    var headerBytes = 0
    var bodyTooLarge = false
    var headersTooLarge = false
    var cancelled = false
    var overBudget = false
    /// Bytes of ``body`` drawn from ``TransferBudget`` (those past its first ``TransferBudget/bytesPerBody``).
    var budgeted = 0

    /// Makes room for `n` more body bytes: `false` when the shared budget cannot give what passes the free part.
    func admit(_ n: Int) -> Bool {
        let needed = max(0, bodyCount + n - TransferBudget.bytesPerBody) - budgeted
        guard needed > 0 else { return true }
        guard TransferBudget.take(needed) else { return false }
        budgeted += needed
        return true
    }

    /// Gives the budgeted bytes back (the body is handed over or dropped).
    func releaseBudget() {
        TransferBudget.give(budgeted)
        budgeted = 0
    }

    init(limits: TransferLimits, isCancelled: @escaping @Sendable () -> Bool) {
        self.limits = limits
        self.isCancelled = isCancelled
    }
}

/// libcurl's body callback: appends, or returns 0 (libcurl then ends the transfer) past the limit or on cancel.
private let writeCallback: waymark_curl_data_callback = { data, size, count, opaque in
    guard let data, let opaque else { return 0 }
    let context = Unmanaged<Context>.fromOpaque(opaque).takeUnretainedValue()
    let n = size * count
    if context.isCancelled() {
        context.cancelled = true
        return 0
    }
    if n > context.limits.maxBodyBytes - context.bodyCount {
        context.bodyTooLarge = true
        return 0
    }
    if !context.admit(n) {
        context.overBudget = true
        return 0
    }
    data.withMemoryRebound(to: UInt8.self, capacity: n) {
        context.append(UnsafeBufferPointer(start: $0, count: n))
    }
    return n
}

/// libcurl's header callback: one header line per call; a status line starts a new answer (after a redirect or a
/// `100 Continue`), so only the final answer's headers are kept.
private let headerCallback: waymark_curl_data_callback = { data, size, count, opaque in
    guard let data, let opaque else { return 0 }
    let context = Unmanaged<Context>.fromOpaque(opaque).takeUnretainedValue()
    let n = size * count
    context.headerBytes += n
    if context.headerBytes > context.limits.maxHeaderBytes {
        context.headersTooLarge = true
        return 0
    }
    let line = data.withMemoryRebound(to: UInt8.self, capacity: n) {
        String(decoding: UnsafeBufferPointer(start: $0, count: n), as: UTF8.self)
    }
    if line.hasPrefix("HTTP/") {
        context.headers = [:]
        context.resetBody()
        context.releaseBudget()
        return n
    }
    guard let colon = line.firstIndex(of: ":") else { return n }
    let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
    let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
    if let old = context.headers[name] {
        context.headers[name] = old + ", " + value
    } else {
        context.headers[name] = value
    }
    return n
}

/// libcurl's progress callback (at least once a second, even while nothing arrives): non-zero cancels.
private let progressCallback: curl_xferinfo_callback = { opaque, _, _, _, _ in
    guard let opaque else { return 0 }
    let context = Unmanaged<Context>.fromOpaque(opaque).takeUnretainedValue()
    if context.isCancelled() {
        context.cancelled = true
        return 1
    }
    return 0
}

/// The memory of response bodies arriving at once, process-wide (docs/BEHAVIOUR.md D19). Each body may hold its first
/// ``bytesPerBody`` bytes on its own (every tile, glyph range and style in practice); the bytes past them, of all the
/// transfers in flight together, come from one pool of ``sharedBytes``. A transfer whose next bytes the pool cannot
/// give fails as ``TransferFailure/Kind/tooLarge`` at once (it does not wait), so an endless body or a gzip bomb on
/// every connection of every host holds at most `transfers × bytesPerBody + sharedBytes` bytes, not `transfers ×`
/// ``TransferLimits/maxBodyBytes``. A body is released from the pool when its transfer ends (what the caller then
/// keeps is the caller's). Waymark's own.
///
/// Thread rules: any thread.
public enum TransferBudget {
    /// The bytes of each body that do not draw on the pool: 2 MiB.
    public static let bytesPerBody = 2 << 20
    /// The pool shared by the bytes of all bodies past their first ``bytesPerBody``: 64 MiB.
    public static let sharedBytes = 64 << 20

    private static let lock = NSLock()
    nonisolated(unsafe) private static var used = 0
    nonisolated(unsafe) private static var peak = 0

    /// Bytes of the pool held now.
    public static var bytesInUse: Int {
        lock.lock()
        defer { lock.unlock() }
        return used
    }

    /// The most bytes of the pool held at once since the process started (for tests).
    public static var peakBytesInUse: Int {
        lock.lock()
        defer { lock.unlock() }
        return peak
    }

    fileprivate static func take(_ n: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard n <= sharedBytes - used else { return false }
        used += n
        peak = max(peak, used)
        return true
    }

    fileprivate static func give(_ n: Int) {
        guard n > 0 else { return }
        lock.lock()
        used -= n
        lock.unlock()
    }
}

/// Reused easy handles (`curl_easy_reset` keeps their open connections, DNS and TLS session caches).
private final class HandlePool: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [UnsafeMutableRawPointer] = []
    private static let kept = 32

    func take() -> UnsafeMutableRawPointer? {
        lock.lock()
        let handle = free.popLast()
        lock.unlock()
        if let handle {
            curl_easy_reset(handle)
            return handle
        }
        return curl_easy_init()
    }

    func give(_ handle: UnsafeMutableRawPointer) {
        lock.lock()
        if free.count < Self.kept {
            free.append(handle)
            lock.unlock()
        } else {
            lock.unlock()
            curl_easy_cleanup(handle)
        }
    }
}
