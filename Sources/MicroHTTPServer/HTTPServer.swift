// The adapter over libmicrohttpd (Debian's libmicrohttpd-dev): the only target that imports CMicroHTTPD. It accepts
// connections, parses HTTP/1.1 (keep-alive, HEAD without a body, chunked framing) on the library's threads, and
// hands each request to a Swift handler as a raw target and its headers.
import CMicroHTTPD
import Foundation
import Synchronization

/// One HTTP request as the server received it.
public struct ServerRequest: Sendable {
    /// The method (`GET`, `HEAD`, …).
    public var method: String
    /// The request target exactly as sent: path and query, percent-escapes not decoded (URL signatures cover it).
    public var target: String
    /// The request headers, names lower-cased.
    public var headers: [String: String]

    /// Creates a request.
    public init(method: String, target: String, headers: [String: String] = [:]) {
        self.method = method
        self.target = target
        self.headers = headers
    }
}

/// One HTTP response.
public struct ServerResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields in order (`Content-Length` and `Date` are added by the server).
    public var headers: [(name: String, value: String)]
    /// The body (not sent for `HEAD`; its length still is).
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text response (`text/plain; charset=utf-8`).
    public static func text(_ status: Int, _ text: String, headers: [(name: String, value: String)] = [])
        -> ServerResponse
    {
        ServerResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Array(text.utf8))
    }

    /// The value of a header (case-insensitive), or `nil`.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Why a server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// What failed, naming the address.
    public var description: String

    /// Creates an error.
    public init(description: String) { self.description = description }
}

/// An HTTP/1.1 server over libmicrohttpd. Waymark's own.
///
/// Threads: one library thread per connection (keep-alive connections keep theirs), so a handler may block (the
/// static maps server waits there for its render pool); at most `connectionLimit` connections, idle ones closed after
/// `idleTimeout` seconds. The handler runs on those threads, concurrently; it must be thread-safe.
public final class HTTPServer: @unchecked Sendable {
    /// The bound port (the ephemeral one when started with port 0).
    public let port: UInt16
    /// The bound IPv4 address.
    public let host: String
    private let daemon: OpaquePointer
    private let core: Core
    private let stopped = Mutex((quiesced: false, stopped: false))

    /// What the library's callbacks reach through their context pointer.
    private final class Core: @unchecked Sendable {
        let handler: @Sendable (ServerRequest) -> ServerResponse
        let inFlight = Mutex(0)
        let drained = NSCondition()
        init(_ handler: @escaping @Sendable (ServerRequest) -> ServerResponse) { self.handler = handler }
    }

    /// Requests being handled now.
    public var inFlight: Int { core.inFlight.withLock { $0 } }

    /// Starts listening.
    /// - Parameters:
    ///   - host: a dotted IPv4 address. Default `127.0.0.1`; `0.0.0.0` listens on every interface.
    ///   - port: the port, or 0 (the default) for an ephemeral one (see ``port``).
    ///   - connectionLimit: most open connections, `≥ 1`. Default 256.
    ///   - idleTimeout: seconds before an idle connection is closed, `≥ 1`. Default 30.
    ///   - connectionMemory: bytes of each connection's buffer, `≥ 32 KiB` (smaller values are raised to it). Default
    ///     256 KiB. The request line and headers must fit in it (with a few hundred bytes to spare for the answer) to
    ///     reach `handler`; a longer request gets libmicrohttpd's own 414 (or 431) HTML answer. Only the pages a
    ///     request fills are touched, so idle connections stay small; at most `connectionLimit × connectionMemory`.
    ///   - handler: answers a request; called on the library's threads.
    /// - Throws: ``HTTPServerError`` naming the address when it is malformed or cannot be bound.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 0, connectionLimit: Int = 256, idleTimeout: Int = 30,
        connectionMemory: Int = 256 * 1024, handler: @escaping @Sendable (ServerRequest) -> ServerResponse
    ) throws {
        self.host = host
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw HTTPServerError(description: "bind address '\(host)' is not a dotted IPv4 address")
        }
        let flags =
            MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_ITC.rawValue
        let core = Core(handler)
        // Retained for the daemon's life; released in `stop()` after the daemon ended.
        let context = Unmanaged.passRetained(core).toOpaque()
        let started = withUnsafePointer(to: &address) { addr in
            waymark_mhd_start(
                UInt32(flags), addr, UInt32(max(1, connectionLimit)), UInt32(max(1, idleTimeout)),
                max(32 * 1024, connectionMemory), HTTPServer.access, context, HTTPServer.uriLog, HTTPServer.completed)
        }
        guard let started else {
            Unmanaged<Core>.fromOpaque(context).release()
            throw HTTPServerError(description: "cannot listen on \(host):\(port) (in use or not permitted)")
        }
        self.core = core
        self.daemon = started
        self.port = waymark_mhd_port(started)
    }

    deinit { stop() }

    /// Whether the server takes new connections: `false` once ``quiesce()`` or ``stop()`` has run (the listening
    /// socket is closed; a new connection is refused, or reaches whatever binds the port next).
    public var isAccepting: Bool { stopped.withLock { !$0.quiesced && !$0.stopped } }

    /// Stops accepting new connections; open ones are still served. Idempotent.
    public func quiesce() {
        let first = stopped.withLock { s -> Bool in
            defer { s.quiesced = true }
            return !s.quiesced && !s.stopped
        }
        guard first else { return }
        let fd = MHD_quiesce_daemon(daemon)
        if fd >= 0 { close(fd) }
    }

    /// Waits until no request is in flight or `timeout` seconds pass; returns whether it drained.
    public func waitUntilDrained(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        core.drained.lock()
        defer { core.drained.unlock() }
        while inFlight > 0 {
            if !core.drained.wait(until: deadline) { return inFlight == 0 }
        }
        return true
    }

    /// Stops the server: closes every connection and joins the library's threads. Idempotent.
    public func stop() {
        let first = stopped.withLock { s -> Bool in
            defer { s.stopped = true }
            return !s.stopped
        }
        guard first else { return }
        MHD_stop_daemon(daemon)
        Unmanaged.passUnretained(core).release()
    }

    private static func core(_ cls: UnsafeMutableRawPointer?) -> Core {
        Unmanaged<Core>.fromOpaque(cls!).takeUnretainedValue()
    }

    /// One request's state between the library's calls: its raw target, and whether the headers call was seen.
    private final class RequestContext {
        let target: String
        var headersSeen = false
        /// The core counted this request in flight (until the library reports it sent).
        var counted: Core?
        init(_ target: String) { self.target = target }
    }

    private static let uriLog:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
            _, uri, _ in
            Unmanaged.passRetained(RequestContext(uri.map { String(cString: $0) } ?? "/")).toOpaque()
        }

    private static let completed: MHD_RequestCompletedCallback = { _, _, context, _ in
        guard let context, let raw = context.pointee else { return }
        let request = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
        context.pointee = nil
        // In flight until the answer is sent: a drain must not stop the daemon between queueing and sending.
        if let core = request.counted {
            core.inFlight.withLock { $0 -= 1 }
            core.drained.lock()
            core.drained.broadcast()
            core.drained.unlock()
        }
    }

    private static let access: MHD_AccessHandlerCallback = {
        cls, connection, _, method, _, _, uploadSize, context in
        let core = core(cls)
        guard let raw = context?.pointee else { return .NO }
        let request = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        // The first call brings the headers only; answering there would make the library close the connection
        // (it cannot know the body was read). A body is skipped: every route is GET or HEAD.
        if !request.headersSeen {
            request.headersSeen = true
            return .YES
        }
        if let uploadSize, uploadSize.pointee > 0 {
            uploadSize.pointee = 0
            return .YES
        }
        let target = request.target
        let methodName = method.map { String(cString: $0) } ?? "GET"
        var headers: [String: String] = [:]
        withUnsafeMutablePointer(to: &headers) { box in
            _ = MHD_get_connection_values(
                connection, .HEADER_KIND,
                { cls, _, key, value in
                    guard let cls, let key else { return .YES }
                    let dict = cls.assumingMemoryBound(to: [String: String].self)
                    dict.pointee[String(cString: key).lowercased()] = value.map { String(cString: $0) } ?? ""
                    return .YES
                }, box)
        }
        core.inFlight.withLock { $0 += 1 }
        request.counted = core
        let response = core.handler(ServerRequest(method: methodName, target: target, headers: headers))
        let result = response.body.withUnsafeBytes { body -> MHD_Result in
            guard
                let r = MHD_create_response_from_buffer(
                    body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), .RESPMEM_MUST_COPY)
            else { return .NO }
            for (name, value) in response.headers { _ = MHD_add_response_header(r, name, value) }
            let queued = MHD_queue_response(connection, UInt32(response.status), r)
            MHD_destroy_response(r)
            return queued
        }
        return result
    }
}
