import Foundation
import Testing

@testable import GoogleMaps

#if canImport(Glibc)
    import Glibc
#endif

/// A scripted stand-in for gpsd on a localhost port: each accepted connection reads one command line, then is sent
/// the next script's lines; a script ending in `nil` leaves the connection open, otherwise it is closed.
final class ScriptedGPSD: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var _commands: [String] = []
    private var open: [Int32] = []
    private let finished = DispatchSemaphore(value: 0)

    var commands: [String] { lock.withLock { _commands } }

    init?(scripts: [[String?]]) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else {
            close(fd)
            return nil
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in
            serve(scripts)
            finished.signal()
        }
        thread.start()
    }

    private func serve(_ scripts: [[String?]]) {
        for script in scripts {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            lock.withLock { open.append(connection) }
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while recv(connection, &byte, 1, 0) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
            lock.withLock { _commands.append(String(decoding: line, as: UTF8.self)) }
            var keepOpen = false
            for item in script {
                guard let text = item else {
                    keepOpen = true
                    break
                }
                let bytes = Array((text + "\n").utf8)
                _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            if !keepOpen {
                lock.withLock { open.removeAll { $0 == connection } }
                close(connection)
            }
        }
    }

    /// Closes every socket and waits for the serving thread.
    func shutDown() {
        _ = Glibc.shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        lock.withLock {
            for fd in open {
                _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
                close(fd)
            }
            open.removeAll()
        }
        _ = finished.wait(timeout: .now() + 2)
    }
}

@Suite struct LocationGPSDReconnectTests {
    @Test func clientWatchesSkipsNoFixAndGarbageAndReconnectsAfterTheDaemonCloses() throws {
        let server = try #require(
            ScriptedGPSD(scripts: [
                [
                    #"{"class":"VERSION","release":"3.22","proto_major":3,"proto_minor":14}"#,
                    #"{"class":"TPV","mode":1}"#,
                    "this is not json",
                    #"{"class":"TPV","mode":3,"lat":60.1699,"lon":24.9384,"altMSL":12,"eph":8}"#,
                ],
                [#"{"class":"TPV","mode":2,"lat":60.1710,"lon":24.9410}"#, nil],
            ]))
        defer { server.shutDown() }
        let client = GPSDLocationProvider(port: server.port, initialBackoff: 0.05, maximumBackoff: 0.1)
        client.start()
        defer { client.stop() }
        var fixes: [CLLocation] = []
        let deadline = Date().addingTimeInterval(10)
        while fixes.count < 2 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            fixes += client.drainFixes()
        }
        #expect(fixes.map(\.coordinate.latitude) == [60.1699, 60.1710])
        #expect(fixes.first?.horizontalAccuracy == 8)
        #expect(fixes.last?.verticalAccuracy == -1)  // a 2D fix has no altitude
        #expect(client.connectionCount == 2)
        #expect(client.malformedLineCount == 1)
        #expect(server.commands == Array(repeating: #"?WATCH={"enable":true,"json":true}"#, count: 2))
        client.stop()
        #expect(client.drainFixes().isEmpty)
    }
}
