import Foundation
import MicroHTTPServer
import StaticMapsServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The libmicrohttpd adapter's socket rules: one listener per port, a restart binds past TIME_WAIT, and long URLs
/// reach the handler. Servers on 127.0.0.1 with ephemeral ports, started and stopped by each test.
@Suite(.serialized) struct HTTPServerTests {
    /// A connected TCP socket to 127.0.0.1:`port`, or -1.
    static func connect(_ port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if connected != 0 {
            close(fd)
            return -1
        }
        return fd
    }

    /// Sends `request` on `fd` and reads one answer (headers and a `Content-Length` body): the status and the body,
    /// or `nil` when none came. A server that answers before the whole request is sent ends the sending.
    static func exchange(_ fd: Int32, _ request: String) -> (status: Int, body: String)? {
        var bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeMutableBytes {
                send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { break }
            sent += n
        }
        bytes = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        // At most 1000 reads: the answers here are a few hundred bytes.
        for _ in 0..<1000 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            bytes += buffer[0..<n]
            let text = String(decoding: bytes, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<end.lowerBound]
            let length =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            let body = text[end.upperBound...]
            guard body.utf8.count >= length else { continue }
            let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return (status, String(body))
        }
        return nil
    }

    static func ok(_ request: ServerRequest) -> ServerResponse { .text(200, "ok\n") }

    @Test func aSecondServerOnABusyPortFails() throws {
        let first = try HTTPServer(handler: Self.ok)
        defer { first.stop() }
        var message: String?
        do {
            let second = try HTTPServer(port: first.port, handler: Self.ok)
            second.stop()
        } catch { message = "\(error)" }
        #expect(message == "cannot listen on 127.0.0.1:\(first.port) (in use or not permitted)")
        // The first still answers every request.
        let fd = Self.connect(first.port)
        defer { close(fd) }
        #expect(Self.exchange(fd, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
    }

    @Test func aRestartBindsWhileTheOldConnectionsWait() throws {
        let first = try HTTPServer(handler: Self.ok)
        let port = first.port
        // A keep-alive connection the server closes first (its side then waits in TIME_WAIT once the client closes).
        let fd = Self.connect(port)
        #expect(Self.exchange(fd, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
        first.stop()
        close(fd)
        var restarted: UInt16?
        do {
            let second = try HTTPServer(port: port, handler: Self.ok)
            restarted = second.port
            second.stop()
        } catch {}
        #expect(restarted == port)
    }

    @Test func aLongURLGetsTheServicesPlainText414() throws {
        let server = try StaticMapsServer(config: try StaticMapsServerTests.config())
        defer { server.drain(grace: 5) }
        for length in [9000, 100_000, 200_000] {
            let fd = Self.connect(server.port)
            defer { close(fd) }
            let target = "/maps/api/staticmap?size=20x20&center=1,2&zoom=3&x=" + String(repeating: "a", count: length)
            let answer = Self.exchange(fd, "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(answer?.status == 414, "URL of \(target.utf8.count) bytes")
            #expect(answer?.body == "Invalid request. The URL is longer than 8192 characters.\n")
        }
        // Far longer than a connection's buffer: libmicrohttpd's own 414 (or a reset while sending), the server still
        // up.
        let fd = Self.connect(server.port)
        defer { close(fd) }
        let huge = "/maps/api/staticmap?x=" + String(repeating: "a", count: 1_000_000)
        let status = Self.exchange(fd, "GET \(huge) HTTP/1.1\r\nHost: x\r\n\r\n")?.status
        #expect(status == nil || status == 414)
        let next = Self.connect(server.port)
        defer { close(next) }
        #expect(Self.exchange(next, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
    }
}
