import Foundation
import MapTestSupport
import Testing

/// `map-viewer` run as a person would: command-line errors, the no-display exit, and a window in a private Xvfb
/// driven with xdotool and checked in screenshots. The window test checks the host's input mapping through the
/// temporary stand-in content (grid, red crosshair at the plane origin, blue needle while turned), whose model is
/// simple enough to predict by hand: one finger moves the crosshair 1:1, a pinch scales about the fingers' midpoint,
/// a turn rotates about it.
@Suite(.serialized) struct MapViewerTests {
    static let executable = ViewerProcess.executable

    @Test func helpPrintsUsageAndExitsZero() throws {
        let exe = try #require(Self.executable, "map-viewer is not built (swift build --product map-viewer)")
        let r = ViewerProcess.run(exe.path, ["--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("usage: map-viewer"))
        #expect(r.stdout.contains("--camera LAT,LON,ZOOM[,BEARING[,PITCH]]"))
    }

    static let badArguments: [([String], String)] = [
        (["--camera", "100,0,5"], "latitude 100.0 is outside [-90, 90]"),
        (["--camera", "60,24"], "--camera wants LAT,LON,ZOOM"),
        (["--camera", "60,24,nan"], "is not a finite number"),
        (["--camera", "60,24,12,0,95"], "pitch 95.0 is outside [0, 90]"),
        (["--camera", "60,200,12"], "longitude 200.0 is outside"),
        (["--size", "10x10"], "--size: 10x10 is outside 200..8192"),
        (["--size", "800"], "--size wants WxH"),
        (["--location", "gpx:/nonexistent/track.gpx"], "cannot read GPX file"),
        (["--location", "91,0"], "--location: 91.0,0.0 is outside"),
        (["--location", "somewhere"], "is not a finite number"),
        (["--markers", "/nonexistent/pois.geojson"], "--markers: cannot read"),
        (["--style", "/nonexistent/style.json"], "--style: cannot read"),
        (["--camera"], "--camera needs a value"),
        (["--zoom", "3"], "unknown option '--zoom'"),
        (["--script", "tour"], "--script: unknown script 'tour' (known: demo)"),
        (["--scale", "9"], "--scale wants a number from 1 to 4, got '9'"),
        (["--scale", "nan"], "--scale wants a number from 1 to 4"),
    ]

    @Test(arguments: badArguments)
    func badArgumentsExitTwo(arguments: [String], message: String) throws {
        let exe = try #require(Self.executable, "map-viewer is not built (swift build --product map-viewer)")
        let r = ViewerProcess.run(exe.path, arguments)
        #expect(r.status == 2, "\(arguments): stderr \(r.stderr)")
        #expect(r.stderr.contains(message), "\(arguments): stderr \(r.stderr)")
        #expect(r.stderr.contains("usage: map-viewer"))
    }

    @Test func markersAndStyleFilesAreValidated() throws {
        let exe = try #require(Self.executable, "map-viewer is not built (swift build --product map-viewer)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-args-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let notGeoJSON = dir.appendingPathComponent("list.geojson")
        try Data("[1, 2, 3]".utf8).write(to: notGeoJSON)
        let badPoint = dir.appendingPathComponent("bad.geojson")
        try Data(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[24.9,95]}}]}"#
                .utf8
        ).write(to: badPoint)
        let notStyle = dir.appendingPathComponent("style.json")
        try Data(#"{"version": 7, "layers": []}"#.utf8).write(to: notStyle)
        let style = dir.appendingPathComponent("good-style.json")
        try Data(#"{"version": 8, "sources": {}, "layers": []}"#.utf8).write(to: style)
        let cases: [([String], String)] = [
            (["--markers", notGeoJSON.path], "is not a GeoJSON FeatureCollection"),
            (["--markers", badPoint.path], "feature 0 of"),
            (["--style", notStyle.path], "needs \"version\": 8"),
        ]
        for (arguments, message) in cases {
            let r = ViewerProcess.run(exe.path, arguments)
            #expect(r.status == 2, "\(arguments)")
            #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
        }
        // The demo markers are valid: with good arguments and no display the exit is 1 (no display), not 2.
        let pois = Fixtures.data.appendingPathComponent("helsinki-pois.geojson").path
        let good = ViewerProcess.run(
            exe.path, ["--markers", pois, "--camera", "60.17,24.94,14,30,20", "--size", "640x480"])
        #expect(good.status == 1, "stderr: \(good.stderr)")
        // An http(s) style is taken as given (the map fetches it in the background): no display, exit 1, not 2.
        let remote = ViewerProcess.run(exe.path, ["--style", "http://127.0.0.1:9/style.json"])
        #expect(remote.status == 1, "stderr: \(remote.stderr)")
    }

    @Test func withoutDisplaySaysSoAndExitsOne() throws {
        let exe = try #require(Self.executable, "map-viewer is not built (swift build --product map-viewer)")
        let r = ViewerProcess.run(exe.path, [], environment: ViewerProcess.baseEnvironment(), timeout: 20)
        #expect(r.status == 1)
        #expect(r.stderr.contains("map-viewer: no display (set DISPLAY or run under Xvfb)"), "stderr: \(r.stderr)")
        #expect(!r.timedOut)
    }

    @Test func offscreenDriversCountAsNoDisplay() throws {
        let exe = try #require(Self.executable, "map-viewer is not built (swift build --product map-viewer)")
        for driver in ["dummy", "offscreen"] {
            // DISPLAY is set (to a server that does not exist), so the check after SDL_Init must catch the driver.
            var env = ViewerProcess.baseEnvironment()
            env["DISPLAY"] = ":987"
            env["SDL_VIDEODRIVER"] = driver
            let r = ViewerProcess.run(exe.path, [], environment: env, timeout: 20)
            #expect(r.status == 1, "\(driver): \(r.stderr)")
            #expect(r.stderr.contains("no display (set DISPLAY or run under Xvfb)"), "\(driver): \(r.stderr)")
        }
    }

    /// The whole person-at-the-window scenario in one Xvfb session (bounded: every wait has a timeout; Xvfb and the
    /// viewer are stopped on every path).
    @Test(
        .enabled(if: ViewerProcess.windowToolsAvailable, "Xvfb, xdotool or ImageMagick (import, convert) missing"),
        .timeLimit(.minutes(2)))
    func windowScenarioUnderXvfb() throws {
        let exe = try #require(Self.executable, "map-viewer is not built (swift build --product map-viewer)")
        let x = try XSession()
        defer { x.close() }
        try x.launchViewer(exe, arguments: ["--size", "640x480", "--stats"])
        let isRed: (Int, Int, Int) -> Bool = { r, g, b in r > 200 && g < 80 && b < 80 }
        let isBlue: (Int, Int, Int) -> Bool = { r, g, b in b > 200 && r < 80 && g < 80 }
        let compassArea = (x: 560, y: 0, w: 80, h: 80)

        // 1. At rest: the crosshair (80 pt across, 4 pt thick) in the centre of the 640×480 window, no compass.
        let s0 = try x.screenshot("0-start")
        #expect(s0.width == 640 && s0.height == 480)
        let c0 = s0.find(isRed)
        #expect(abs(c0.centroid.x - 320) < 3 && abs(c0.centroid.y - 240) < 3, "crosshair at \(c0.centroid)")
        #expect(abs((c0.maxX - c0.minX + 1) - 84) <= 4, "crosshair width \(c0.maxX - c0.minX + 1)")
        #expect(s0.find(in: compassArea, isBlue).count == 0)

        // 2. Left drag by (100, 50): one finger; the crosshair follows it 1:1.
        x.drag(button: 1, from: (320, 240), to: (420, 290))
        #expect(x.waitForOutput("stand-in: touch ended id=1"))
        #expect(x.stdout.contains("stand-in: touch began id=1 at=320,240 taps=1"))
        #expect(x.waitForOutput("crosshair=420,290"))
        let s1 = try x.screenshot("1-dragged") { abs($0.find(isRed).centroid.x - 420) < 3 }
        let c1 = s1.find(isRed)
        #expect(abs(c1.centroid.x - 420) < 3 && abs(c1.centroid.y - 290) < 3, "crosshair at \(c1.centroid)")

        // 3. Two wheel notches up at (400, 280): a two-finger pinch of +1 zoom level centred on the cursor, so the
        //    crosshair doubles in size and moves away from the cursor: 400 + 2·(420 − 400), 280 + 2·(290 − 280).
        x.move(400, 280)
        x.xdotool(["click", "--repeat", "2", "--delay", "60", "4"])
        #expect(x.waitForOutput("stand-in: touch ended id=3", timeout: 5))
        #expect(x.waitForOutput("zoom=1.00"))
        let s2 = try x.screenshot("2-wheel") { abs($0.find(isRed).centroid.x - 440) < 3 }
        let c2 = s2.find(isRed)
        #expect(abs(c2.centroid.x - 440) < 3 && abs(c2.centroid.y - 300) < 3, "crosshair at \(c2.centroid)")
        #expect(abs((c2.maxX - c2.minX + 1) - 164) <= 6, "crosshair width \(c2.maxX - c2.minX + 1)")

        // 4. Right drag 80 pt to the right: two fingers about the window centre turned 80 × 0.4° = 32° clockwise.
        //    The crosshair turns about (320, 240): (120, 60) rotated by 32° is (69.97, 114.47). The needle appears.
        x.drag(button: 3, from: (320, 240), to: (400, 240), steps: 8)
        #expect(x.waitForOutput("bearing=328.0", timeout: 5))
        let s3 = try x.screenshot("3-rotated") { $0.find(in: compassArea, isBlue).count > 30 }
        let c3 = s3.find(isRed)
        #expect(abs(c3.centroid.x - 389.97) < 4 && abs(c3.centroid.y - 354.47) < 4, "crosshair at \(c3.centroid)")
        #expect(s3.find(in: compassArea, isBlue).count > 30, "compass needle missing")

        // 5. Shift + left drag 40 pt down: a two-finger tilt (0.5° a point). Keys need focus (no window manager).
        x.xdotool(["windowfocus", "--sync", x.windowID])
        x.xdotool(["keydown", "shift"])
        x.drag(button: 1, from: (320, 240), to: (320, 280), steps: 8)
        x.xdotool(["keyup", "shift"])
        #expect(x.waitForOutput("tilt=20.0", timeout: 5), "stdout: \(x.stdout)")

        // 6. Double click: a double tap (tap count 2), zoom in about the click point.
        x.move(200, 150)
        x.xdotool(["click", "--repeat", "2", "--delay", "80", "1"])
        #expect(x.waitForOutput("taps=2", timeout: 5))
        #expect(x.waitForOutput("zoom=2.00", timeout: 5))

        // 7. Keys: N resets north and tilt (animated over 0.3 s), '-' is a two-finger tap (zoom out), arrows pan.
        x.xdotool(["key", "n"])
        #expect(x.waitForOutput("stand-in: reset north", timeout: 5))
        #expect(x.waitForOutput("zoom=2.00 bearing=0.0 tilt=0.0", timeout: 5), "stdout: \(x.stdout)")
        x.xdotool(["key", "minus"])
        #expect(x.waitForOutput("zoom=1.00 bearing=0.0 tilt=0.0", timeout: 5))
        // Right arrow: the view goes east, the content moves 100 pt left (here, back into full view).
        x.xdotool(["key", "Right"])
        #expect(x.waitForOutput("stand-in: touch ended id=4", count: 2, timeout: 5))
        let s4 = try x.screenshot("4-north-reset-right") { $0.find(in: compassArea, isBlue).count == 0 }
        #expect(s4.find(in: compassArea, isBlue).count == 0, "needle still shown after N")
        let beforeArrow = s4.find(isRed)
        // The whole crosshair is in the window (not clipped), so its centroid is its centre.
        #expect(beforeArrow.minX > 0 && beforeArrow.maxX < 639 && beforeArrow.minY > 0 && beforeArrow.maxY < 479)
        x.xdotool(["key", "Left"])
        #expect(x.waitForOutput("stand-in: touch ended id=4", count: 3, timeout: 5))
        let s5 = try x.screenshot("5-arrow-left") { abs($0.find(isRed).centroid.x - beforeArrow.centroid.x - 100) < 3 }
        let afterArrow = s5.find(isRed)
        // Left arrow: the view goes west, the content moves 100 pt right.
        #expect(
            abs(afterArrow.centroid.x - beforeArrow.centroid.x - 100) < 3
                && abs(afterArrow.centroid.y - beforeArrow.centroid.y) < 3,
            "crosshair \(beforeArrow.centroid) → \(afterArrow.centroid)")

        // 8. Resize: the content follows the new window size.
        x.xdotool(["windowsize", x.windowID, "500", "400"])
        #expect(x.waitForOutput("map-viewer: resized to 500x400 pt", timeout: 5))
        let s6 = try x.screenshot("6-resized") { $0.width == 500 && $0.height == 400 }
        #expect(s6.width == 500 && s6.height == 400)

        // 9. At rest the loop sleeps: CPU over 2 s well under a busy loop's 200 ticks (100 Hz clock).
        usleep(500_000)
        if let before = x.viewerCPUTicks() {
            usleep(2_000_000)
            if let after = x.viewerCPUTicks() {
                #expect(after - before <= 10, "idle CPU \(after - before) ticks in 2 s")
                print("map-viewer idle CPU: \(after - before) ticks of 10 ms in 2 s")
            }
        }

        // 10. Q quits with status 0.
        x.xdotool(["key", "q"])
        #expect(x.waitForOutput("map-viewer: closed after", timeout: 5))
        #expect(x.stdout.contains("map-viewer: stats "), "no --stats line")
        let deadline = Date().addingTimeInterval(5)
        while x.viewerIsRunning && Date() < deadline { usleep(50_000) }
        #expect(x.viewerStatus == 0)
        #expect(!x.stderr.contains("error"), "stderr: \(x.stderr)")
    }
}
