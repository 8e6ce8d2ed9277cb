import Foundation
import MicroHTTPServer

/// `waymark serve`: the ``StaticMapsService`` behind an ``HTTPServer``. Waymark's own.
///
/// Lifecycle: ``init(config:)`` listens and starts the render threads; ``drain(grace:)`` (SIGTERM) closes the
/// listening socket (new connections are refused), answers `/health` with 503 on connections already open, waits for
/// the requests in flight up to the grace period, then stops everything.
public final class StaticMapsServer: Sendable {
    /// The service answering requests.
    public let service: StaticMapsService
    /// The HTTP server.
    public let http: HTTPServer

    /// Starts listening on the configuration's address.
    /// - Throws: ``StaticMapsConfigError`` for a missing style, ``HTTPServerError`` when the address cannot be bound.
    public init(config: StaticMapsConfig) throws {
        let service = try StaticMapsService(config: config)
        self.service = service
        do {
            http = try HTTPServer(
                host: config.bind, port: config.port, connectionLimit: config.connections, idleTimeout: 30,
                connectionMemory: Self.connectionMemory(maxURLLength: config.limits.maxURLLength)
            ) { request in service.respond(request) }
        } catch {
            service.shutdown()
            throw error
        }
    }

    /// Each connection's buffer (``HTTPServer``'s `connectionMemory`) for a URL limit: room for a URL of twice the
    /// limit and 64 KiB of headers, at least 256 KiB, so a URL far over the limit (up to about 250 000 bytes with the
    /// default 8192) still gets the service's plain-text 414, not libmicrohttpd's HTML one. Only the pages a request
    /// fills are touched: at most `connections ×` this in all (64 MiB with the defaults).
    static func connectionMemory(maxURLLength: Int) -> Int { max(256 * 1024, 2 * maxURLLength + 64 * 1024) }

    /// The bound port.
    public var port: UInt16 { http.port }

    /// Stops accepting connections, finishes what is in flight within `grace` seconds, then stops the server and
    /// its render threads.
    /// - Returns: whether every request in flight finished within the grace period.
    @discardableResult
    public func drain(grace: Double) -> Bool {
        service.beginDraining()
        http.quiesce()
        let drained = http.waitUntilDrained(timeout: grace)
        http.stop()
        service.shutdown()
        return drained
    }
}
