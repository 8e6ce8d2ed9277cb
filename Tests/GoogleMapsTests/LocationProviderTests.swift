import Foundation
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps

/// The fixed provider, the GPX replay and `MyLocationSource` (what `GMSMapView.myLocation` reads).
@Suite struct LocationProviderTests {
    static let walk = Fixtures.local.appendingPathComponent("location/helsinki-walk.gpx")

    @Test func fixedProviderReportsItsLocationOncePerStart() {
        let provider = FixedLocationProvider(coordinate: CLLocationCoordinate2D(latitude: 60.17, longitude: 24.94))
        #expect(provider.drainFixes().isEmpty)  // not started
        provider.start()
        let fixes = provider.drainFixes()
        #expect(fixes.count == 1)
        #expect(fixes.first?.coordinate == CLLocationCoordinate2D(latitude: 60.17, longitude: 24.94))
        #expect(fixes.first?.horizontalAccuracy == 10)
        #expect(provider.drainFixes().isEmpty)
        provider.start()  // already running: nothing new
        #expect(provider.drainFixes().isEmpty)
        provider.stop()
        provider.start()
        #expect(provider.drainFixes().count == 1)
    }

    @Test func myLocationIsNilUntilEnabledAndFixedAndClearedWhenDisabled() {
        let provider = FixedLocationProvider(coordinate: CLLocationCoordinate2D(latitude: 60.17, longitude: 24.94))
        let source = MyLocationSource(provider: provider)
        #expect(source.tick() == false)
        #expect(source.myLocation == nil)
        source.isEnabled = true
        #expect(source.myLocation == nil)  // no fix before the next tick
        #expect(source.tick() == true)
        #expect(source.myLocation?.coordinate.latitude == 60.17)
        #expect(source.tick() == false)  // nothing new; the fix stays
        #expect(source.myLocation != nil)
        source.isEnabled = false
        #expect(source.myLocation == nil)
    }

    @Test func replacingTheProviderWhileEnabledStartsTheNewOne() {
        let source = MyLocationSource(
            provider: FixedLocationProvider(coordinate: CLLocationCoordinate2D(latitude: 1, longitude: 2)))
        source.isEnabled = true
        source.tick()
        source.provider = FixedLocationProvider(coordinate: CLLocationCoordinate2D(latitude: 3, longitude: 4))
        source.tick()
        #expect(source.myLocation?.coordinate == CLLocationCoordinate2D(latitude: 3, longitude: 4))
    }

    @Test func gpxParsesTrackPointsAcrossSegmentsAndIgnoresWaypointsWhenATrackExists() throws {
        let track = try GPXTrack.load(contentsOf: Self.walk)
        #expect(track.points.count == 4)
        #expect(track.points[0].coordinate == CLLocationCoordinate2D(latitude: 60.1700, longitude: 24.9400))
        #expect(track.points[3].coordinate == CLLocationCoordinate2D(latitude: 60.1712, longitude: 24.9425))
        #expect(track.points[0].elevation == 12.5)
        #expect(track.points[2].elevation == nil)
        // 2026-06-30T12:00:00Z is 1,782,820,800 s after the Unix epoch (20,634 days × 86,400 + 12 h).
        #expect(track.points[0].time == Date(timeIntervalSince1970: 1_782_820_800))
        #expect(track.points[2].time == Date(timeIntervalSince1970: 1_782_820_825.5))
    }

    @Test func gpxWithoutTrackUsesWaypoints() throws {
        let text = """
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
              <wpt lat="60.1" lon="24.9"/><wpt lat="60.2" lon="25.0"><ele>-3</ele></wpt>
            </gpx>
            """
        let track = try GPXTrack.parse(Data(text.utf8), path: "waypoints.gpx")
        #expect(track.points.map(\.coordinate.latitude) == [60.1, 60.2])
        #expect(track.points[1].elevation == -3)
    }

    @Test func replayAtRecordedPaceFollowsTheManualClock() throws {
        let clock = ManualClock(start: 100)
        let replay = try GPXReplayProvider(contentsOf: Self.walk, clock: clock, pace: .recorded(speed: 1))
        #expect(replay.drainFixes().isEmpty)  // not started
        replay.start()
        #expect(replay.drainFixes().count == 1)  // point 1 at start
        clock.advance(by: 9.9)
        #expect(replay.drainFixes().isEmpty)
        clock.advance(by: 0.1)
        let second = replay.drainFixes()
        #expect(second.count == 1)
        // Point 2 is 0.001° of latitude due north of point 1: 6,371,008.8 m × 0.001 × π/180 = 111.1951 m in 10 s.
        let fix = try #require(second.first)
        #expect(abs(fix.course - 0) < 1e-9)
        #expect(abs(fix.speed - 11.11951) < 1e-4)
        #expect(fix.altitude == 13)
        #expect(fix.horizontalAccuracy == 5)
        clock.advance(by: 20.1)  // t = 30.1: points 3 (25.5 s) and 4 (30 s) together, oldest first
        let rest = replay.drainFixes()
        #expect(rest.map(\.coordinate.longitude) == [24.9420, 24.9425])
        #expect(rest[0].verticalAccuracy == -1)  // no <ele>
        // Point 3 is due east of point 2 along the parallel: the initial bearing is 90° minus a hair.
        #expect(abs(rest[0].course - 90) < 0.01)
        clock.advance(by: 100)
        #expect(replay.drainFixes().isEmpty)  // plays once
    }

    @Test func replayAtDoubleSpeedAndAtAFixedInterval() throws {
        let clock = ManualClock()
        let fast = try GPXReplayProvider(contentsOf: Self.walk, clock: clock, pace: .recorded(speed: 2))
        fast.start()
        clock.advance(by: 5)
        #expect(fast.drainFixes().count == 2)  // 0 s and 10 s / 2
        let fixed = try GPXReplayProvider(contentsOf: Self.walk, clock: clock, pace: .fixedInterval(seconds: 1))
        fixed.start()
        clock.advance(by: 2)
        #expect(fixed.drainFixes().count == 3)  // 0, 1, 2 s
        fixed.stop()
        fixed.start()  // replays from the beginning
        #expect(fixed.drainFixes().count == 1)
    }

    static let badFiles: [(String, String)] = [
        ("not-xml.gpx", "this is not xml <gpx"),
        ("bad-lat.gpx", #"<gpx><trk><trkseg><trkpt lat="91" lon="24.9"/></trkseg></trk></gpx>"#),
        ("no-lon.gpx", #"<gpx><wpt lat="60"/></gpx>"#),
        ("bad-ele.gpx", #"<gpx><wpt lat="60" lon="24"><ele>high</ele></wpt></gpx>"#),
        ("bad-time.gpx", #"<gpx><wpt lat="60" lon="24"><time>noon</time></wpt></gpx>"#),
        ("empty.gpx", #"<gpx version="1.1"></gpx>"#),
    ]

    @Test(arguments: badFiles)
    func badGPXFilesGiveAnErrorNamingTheFile(name: String, text: String) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-\(getpid())-\(name)")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try GPXTrack.load(contentsOf: url)
            Issue.record("\(name) parsed")
        } catch {
            #expect(error.description.contains(url.path), "\(error)")
        }
    }

    @Test func missingFileAndMissingTimesAreErrorsNamingTheFile() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/walk.gpx")
        #expect(throws: GPXError.self) { try GPXTrack.load(contentsOf: missing) }
        do {
            _ = try GPXTrack.load(contentsOf: missing)
        } catch {
            #expect(error.description.contains("/nonexistent/walk.gpx"))
        }
        let track = try GPXTrack.parse(Data(#"<gpx><wpt lat="60" lon="24"/></gpx>"#.utf8), path: "untimed.gpx")
        do {
            _ = try GPXReplayProvider(
                track: track, path: "untimed.gpx", clock: ManualClock(), pace: .recorded(speed: 1))
            Issue.record("untimed track accepted for recorded pace")
        } catch {
            #expect(error.description.contains("untimed.gpx"))
            #expect(error.description.contains("fixed interval"))
        }
        // The same track replays at a fixed interval.
        let replay = try GPXReplayProvider(
            track: track, path: "untimed.gpx", clock: ManualClock(), pace: .fixedInterval(seconds: 1))
        replay.start()
        #expect(replay.drainFixes().count == 1)
    }
}

/// Counts start/stop calls.
final class CountingProvider: LocationProvider {
    var starts = 0
    var stops = 0
    func start() { starts += 1 }
    func stop() { stops += 1 }
    func drainFixes() -> [CLLocation] { [] }
}

@Suite struct MyLocationSourceLifetimeTests {
    @Test func sourceStartsOnEnableAndStopsOnDisableAndOnDeinit() {
        let provider = CountingProvider()
        var source: MyLocationSource? = MyLocationSource(provider: provider)
        #expect(provider.starts == 0)
        source?.isEnabled = true
        source?.isEnabled = true  // no second start
        #expect(provider.starts == 1)
        source?.isEnabled = false
        #expect(provider.stops == 1)
        source?.isEnabled = true
        source = nil
        #expect(provider.starts == 2)
        #expect(provider.stops == 2)
    }
}
