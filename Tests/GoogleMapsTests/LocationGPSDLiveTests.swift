import Foundation
import MapTestSupport
import Testing

@testable import GoogleMaps

#if canImport(Glibc)
    import Glibc
#endif

/// The gpsd client against a real gpsd fed by `gpsfake` (Debian's gpsd + gpsd-clients) replaying
/// `Tests/Fixtures/location/helsinki-drive.nmea`: eight GGA/RMC pairs one second apart, 2026-06-30 12:00:00–07 UTC,
/// 10.5 kn (= 10.5 × 1852 / 3600 = 5.40167 m/s) on course 65°, altitude 15.0 m MSL. Skipped when gpsfake is absent.
@Suite(.serialized) struct LocationGPSDLiveTests {
    /// The log's points in decimal degrees (the NMEA fields are these values written as ddmm.mmmmmm).
    static let route: [CLLocationCoordinate2D] = [
        (60.168800, 24.932100), (60.169300, 24.933600), (60.169900, 24.935200), (60.170500, 24.937000),
        (60.171200, 24.939500), (60.171500, 24.941000), (60.171300, 24.942700), (60.170900, 24.944300),
    ].map { CLLocationCoordinate2D(latitude: $0.0, longitude: $0.1) }
    /// 2026-06-30T12:00:00Z.
    static let firstTime = Date(timeIntervalSince1970: 1_782_820_800)

    static let gpsfake = "/usr/bin/gpsfake"

    /// A localhost TCP port nobody listens on now (bound to port 0, read back, closed).
    static func freePort() -> UInt16? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        return bound ? UInt16(bigEndian: address.sin_port) : nil
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: gpsfake),
            "/usr/bin/gpsfake is absent (install Debian's gpsd and gpsd-clients to run this test)"))
    func fixesFromGpsfakeMatchTheLog() throws {
        let log = Fixtures.local.appendingPathComponent("location/helsinki-drive.nmea")
        let port = try #require(Self.freePort())
        // gpsfake starts gpsd as its child and ignores SIGINT/SIGTERM once the log is played, so the test ends both
        // by pid with SIGKILL (gpsd's pid read from /proc/<gpsfake>/task/<gpsfake>/children) and reaps gpsfake.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.gpsfake)
        // -1: play the log once; -q: quiet; -c 0.3: 0.3 s between sentences; -P: gpsd's port.
        process.arguments = ["-1", "-q", "-c", "0.3", "-P", "\(port)", log.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        defer {
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            kill(pid, SIGKILL)
            for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGKILL) }
            process.waitUntilExit()
            // gpsfake's control socket, which SIGKILL leaves behind.
            try? FileManager.default.removeItem(atPath: "/tmp/gpsfake-\(pid).sock")
        }

        let client = GPSDLocationProvider(port: port, initialBackoff: 0.1, maximumBackoff: 0.5)
        client.start()
        defer { client.stop() }
        var fixes: [CLLocation] = []
        let deadline = Date().addingTimeInterval(30)
        let last = Self.route[Self.route.count - 1]
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            fixes += client.drainFixes()
            if let fix = fixes.last, abs(fix.coordinate.latitude - last.latitude) < 1e-6,
                abs(fix.coordinate.longitude - last.longitude) < 1e-6
            {
                break
            }
        }
        #expect(client.connectionCount >= 1, "never connected: \(client.lastError ?? "no error")")
        // gpsd spends the first sentences identifying the device, so the first fix or two may be missing; every fix
        // that arrives must be a point of the log, in order, with the log's time, speed and course.
        #expect(fixes.count >= 4, "got \(fixes.count) fixes; last error \(client.lastError ?? "none")")
        var nextIndex = 0
        var completeFixes = 0
        for fix in fixes {
            // gpsd may report one point twice in a cycle (its GGA and its RMC): the same point again is allowed.
            let index = Self.route[max(0, nextIndex - 1)...].firstIndex {
                abs($0.latitude - fix.coordinate.latitude) < 1e-6 && abs($0.longitude - fix.coordinate.longitude) < 1e-6
            }
            guard let index else {
                Issue.record("fix \(fix) is not the current or a later point of the log")
                continue
            }
            nextIndex = index + 1
            // Under load gpsd may report a cycle before its RMC sentence arrives: such a fix has no speed or course
            // (−1) and gpsd's own clock for its time. Check time, speed and course on the complete fixes only.
            guard fix.speed >= 0, fix.course >= 0 else { continue }
            completeFixes += 1
            #expect(abs(fix.timestamp.timeIntervalSince(Self.firstTime) - Double(index)) < 1e-3)
            #expect(abs(fix.speed - 5.40167) < 1e-3)
            #expect(abs(fix.course - 65) < 1e-6)
        }
        #expect(completeFixes >= 3, "only \(completeFixes) fixes carried the RMC speed and course")
        #expect(nextIndex == Self.route.count, "the last point of the log never arrived")
        // Once gpsd has a 3D fix (GGA altitude), the altitude is the log's 15.0 m above mean sea level.
        #expect(fixes.contains { $0.verticalAccuracy >= 0 && abs($0.altitude - 15) < 1e-6 })
    }

    @Test func clientRetriesWhileNothingListensAndStopsPromptly() throws {
        let port = try #require(Self.freePort())
        let client = GPSDLocationProvider(port: port, initialBackoff: 0.05, maximumBackoff: 0.2)
        client.start()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(client.connectionCount == 0)
        #expect(client.lastError?.contains("127.0.0.1:\(port)") == true)
        let before = Date()
        client.stop()
        #expect(Date().timeIntervalSince(before) < 1)
        #expect(client.drainFixes().isEmpty)
    }
}
