import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `TPV` (time-position-velocity) report of gpsd's JSON protocol that holds a fix (gpsd_json(5)).
package struct GPSDFix: Equatable {
    /// 2 = 2D fix, 3 = 3D fix (reports with mode 0 or 1 carry no fix and never become a `GPSDFix`).
    package var mode: Int
    /// Degrees WGS 84.
    package var latitude: Double
    /// Degrees WGS 84.
    package var longitude: Double
    /// Metres above mean sea level: `altMSL`, else the older `alt`; only meaningful in mode 3.
    package var altitude: Double?
    /// Estimated horizontal error in metres (`eph`), and per-axis errors `epx`, `epy` (95 % confidence).
    package var eph: Double?
    package var epx: Double?
    package var epy: Double?
    /// Estimated vertical error in metres.
    package var epv: Double?
    /// Course over ground, degrees clockwise from true north.
    package var track: Double?
    /// Speed over ground, metres per second.
    package var speed: Double?
    /// The fix time (`time`, ISO 8601 UTC).
    package var time: Date?

    /// The fix as a `CLLocation`.
    ///
    /// Horizontal accuracy: `eph`, else the larger of `epx` and `epy`, else 0 (unknown; no accuracy circle is
    /// drawn). Altitude: `altitude` with vertical accuracy `epv` (0 when absent) in mode 3; in mode 2 altitude 0 with
    /// vertical accuracy −1 (invalid). Course and speed: −1 when absent. Timestamp: `time`, else `receivedAt`.
    package func location(receivedAt: Date) -> CLLocation {
        let horizontal = eph ?? [epx, epy].compactMap { $0 }.max() ?? 0
        let has3D = mode >= 3 && altitude != nil
        return CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude),
            altitude: has3D ? altitude ?? 0 : 0, horizontalAccuracy: horizontal,
            verticalAccuracy: has3D ? epv ?? 0 : -1, course: track ?? -1, speed: speed ?? -1,
            timestamp: time ?? receivedAt)
    }
}

/// One line of gpsd's JSON protocol, reduced to what the location provider needs.
package enum GPSDReport: Equatable {
    /// The greeting: `{"class":"VERSION","release":"3.22","proto_major":3,"proto_minor":14,…}`.
    case version(release: String, protocolMajor: Int, protocolMinor: Int)
    /// A `TPV` report; `nil` when it carries no fix (mode 0 or 1, or no `lat`/`lon`).
    case tpv(GPSDFix?)
    /// A `SKY` report: satellites seen and used (counted from `satellites`, else `nSat`/`uSat`).
    case sky(visible: Int?, used: Int?)
    /// Any other class (`DEVICES`, `WATCH`, `DEVICE`, `ERROR`, …), by name.
    case other(className: String)

    /// Why a line is not a gpsd report.
    package enum ParseError: Error, Equatable {
        /// Not a JSON object.
        case notJSON(line: String)
        /// A JSON object without a string `class` member.
        case noClass(line: String)
    }

    /// Parses one line (without its newline).
    /// - Throws: ``ParseError`` for a line that is not a JSON object with a `class`.
    package static func parse(line: String) throws(ParseError) -> GPSDReport {
        guard let data = line.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw .notJSON(line: String(line.prefix(200))) }
        guard let className = object["class"] as? String else { throw .noClass(line: String(line.prefix(200))) }
        func number(_ key: String) -> Double? {
            guard let value = object[key] as? NSNumber else { return nil }
            let double = value.doubleValue
            return double.isFinite ? double : nil
        }
        switch className {
        case "VERSION":
            return .version(
                release: object["release"] as? String ?? "", protocolMajor: Int(number("proto_major") ?? 0),
                protocolMinor: Int(number("proto_minor") ?? 0))
        case "TPV":
            let mode = Int(number("mode") ?? 0)
            guard mode >= 2, let lat = number("lat"), let lon = number("lon"), abs(lat) <= 90, abs(lon) <= 180 else {
                return .tpv(nil)
            }
            return .tpv(
                GPSDFix(
                    mode: mode, latitude: lat, longitude: lon, altitude: number("altMSL") ?? number("alt"),
                    eph: number("eph"), epx: number("epx"), epy: number("epy"), epv: number("epv"),
                    track: number("track"), speed: number("speed"),
                    time: (object["time"] as? String).flatMap(parseISO8601)))
        case "SKY":
            if let satellites = object["satellites"] as? [[String: Any]] {
                return .sky(visible: satellites.count, used: satellites.filter { $0["used"] as? Bool == true }.count)
            }
            return .sky(visible: number("nSat").map { Int($0) }, used: number("uSat").map { Int($0) })
        default:
            return .other(className: className)
        }
    }
}

/// Fixes from gpsd, the standard Linux location daemon, over its JSON protocol on a local TCP port (default 2947).
///
/// On `start()` a background thread connects to `host:port`, sends `?WATCH={"enable":true,"json":true}` and reads
/// newline-separated JSON reports. Each `TPV` with mode ≥ 2 becomes a `CLLocation` (see ``GPSDFix/location(receivedAt:)``)
/// on a locked queue that ``drainFixes()`` empties on the main thread (the map's frame tick); at most 256 undrained
/// fixes are kept, the oldest dropped first. Lines that are not reports are skipped and counted in
/// ``malformedLineCount``.
///
/// Reconnection: when the connection fails or closes, the thread waits and tries again, the wait starting at
/// `initialBackoff` (default 0.5 s) and doubling after every failed attempt up to `maximumBackoff` (default 8 s); a
/// successful connection resets it. `stop()` closes the socket, wakes the thread and waits up to 2 s for it to end.
///
/// Only IPv4 literals are accepted as `host` (`"localhost"` means `127.0.0.1`): gpsd is a local daemon.
///
/// Lifetime: while running, the reading thread holds the provider, so a running provider is only released after
/// `stop()` (``MyLocationSource`` stops its provider when disabled and on deinit).
/// - Thread rules: `start()`, `stop()` and `drainFixes()` on the main thread; the socket is read on a thread of its
///   own; the counters may be read from any thread.
package final class GPSDLocationProvider: LocationProvider, @unchecked Sendable {
    package let host: String
    package let port: UInt16
    package let initialBackoff: Double
    package let maximumBackoff: Double

    private let lock = NSLock()
    private var queue: [CLLocation] = []
    private var running = false
    private var socketFD: Int32 = -1
    private var wake = DispatchSemaphore(value: 0)
    private var finished: DispatchSemaphore?
    private var _connections = 0
    private var _malformed = 0
    private var _lastError: String?

    /// - Precondition: `0 < initialBackoff <= maximumBackoff`.
    package init(
        host: String = "127.0.0.1", port: UInt16 = 2947, initialBackoff: Double = 0.5, maximumBackoff: Double = 8
    ) {
        precondition(
            initialBackoff > 0 && initialBackoff <= maximumBackoff,
            "gpsd back-off must satisfy 0 < initial <= maximum, got \(initialBackoff), \(maximumBackoff)")
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }

    deinit {
        stop()
    }

    /// How many times a connection to gpsd was established since creation.
    package var connectionCount: Int { lock.withLock { _connections } }
    /// How many received lines were not gpsd reports.
    package var malformedLineCount: Int { lock.withLock { _malformed } }
    /// The last connection error since the last successful connection (e.g. "connect to 127.0.0.1:2947: Connection
    /// refused", "gpsd at 127.0.0.1:2947 closed the connection"), or `nil`.
    package var lastError: String? { lock.withLock { _lastError } }

    package func start() {
        let done = DispatchSemaphore(value: 0)
        let go: Bool = lock.withLock {
            guard !running else { return false }
            running = true
            wake = DispatchSemaphore(value: 0)
            finished = done
            return true
        }
        guard go else { return }
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.name = "waymark.gpsd"
        thread.start()
    }

    package func stop() {
        let done: DispatchSemaphore? = lock.withLock {
            guard running else { return nil }
            running = false
            queue.removeAll()
            if socketFD >= 0 { _ = shutdown(socketFD, Int32(SHUT_RDWR)) }
            wake.signal()
            let done = finished
            finished = nil
            return done
        }
        _ = done?.wait(timeout: .now() + 2)
    }

    /// Now when fixes are queued, else in 0.1 s while running (fixes arrive from the reading thread), else none.
    package func nextFixTime(now: Double) -> Double? {
        lock.withLock { !queue.isEmpty ? now : running ? now + 0.1 : nil }
    }

    package func drainFixes() -> [CLLocation] {
        lock.withLock {
            let fixes = queue
            queue.removeAll()
            return fixes
        }
    }

    private var isRunning: Bool { lock.withLock { running } }

    private func run() {
        var backoff = initialBackoff
        while isRunning {
            guard let fd = connectSocket() else {
                let sleeper = lock.withLock { wake }
                _ = sleeper.wait(timeout: .now() + backoff)
                backoff = min(backoff * 2, maximumBackoff)
                continue
            }
            backoff = initialBackoff
            let stillRunning: Bool = lock.withLock {
                socketFD = fd
                _connections += 1
                _lastError = nil
                return running
            }
            if stillRunning { readReports(fd) }
            lock.withLock { socketFD = -1 }
            close(fd)
        }
    }

    private func connectSocket() -> Int32? {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else {
            record(error: "socket: \(String(cString: strerror(errno)))")
            return nil
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            record(error: "gpsd host \(host) is not an IPv4 address")
            close(fd)
            return nil
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            record(error: "connect to \(host):\(port): \(String(cString: strerror(errno)))")
            close(fd)
            return nil
        }
        let watch = "?WATCH={\"enable\":true,\"json\":true}\n"
        let sent = watch.utf8CString.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count - 1, 0) }
        guard sent == watch.utf8.count else {
            record(error: "send ?WATCH to \(host):\(port): \(String(cString: strerror(errno)))")
            close(fd)
            return nil
        }
        return fd
    }

    private func record(error: String) {
        lock.withLock { _lastError = error }
    }

    private func readReports(_ fd: Int32) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                if count < 0, errno == EINTR { continue }
                if isRunning { record(error: "gpsd at \(host):\(port) closed the connection") }
                return
            }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                handle(line: line.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if pending.count > 1 << 20 {
                // A line longer than 1 MiB is not gpsd speaking; drop it rather than grow without bound.
                pending.removeAll()
                lock.withLock { _malformed += 1 }
            }
        }
    }

    private func handle(line: String) {
        guard !line.isEmpty else { return }
        do {
            if case .tpv(let fix?) = try GPSDReport.parse(line: line) {
                let location = fix.location(receivedAt: Date())
                lock.withLock {
                    guard running else { return }
                    queue.append(location)
                    if queue.count > 256 { queue.removeFirst(queue.count - 256) }
                }
            }
        } catch {
            lock.withLock { _malformed += 1 }
        }
    }
}
