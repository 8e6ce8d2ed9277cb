import Foundation
import MapTestSupport
import Testing

/// The map itself in the window, used as a person would (issue 8): a marker clicked opens its info window (seen in
/// the screenshot), clicking the window prints the marker's title, a drag moves the map, the wheel zooms about the
/// cursor, a right drag turns the map and the compass appears; at rest the viewer sleeps.
@Suite(.serialized) struct MapWindowTests {
    /// The default pin's red body (#EA4335-like) and the compass needle's red.
    static let isPinRed: @Sendable (Int, Int, Int) -> Bool = { r, g, b in r > 200 && g < 110 && b < 100 }
    /// The info window's white bubble.
    static let isWhite: @Sendable (Int, Int, Int) -> Bool = { r, g, b in r > 250 && g > 250 && b > 250 }

    /// The pin's red pixels in a 60 × 70 box around where the pin's body should be (labels elsewhere on the map can
    /// be red too). A position that is not finite (a pin not found earlier) finds nothing, so the test fails on its
    /// expectations instead of trapping.
    static func pin(in image: PPMImage, near p: (x: Double, y: Double)) -> (
        count: Int, centroid: (x: Double, y: Double)
    ) {
        guard p.x.isFinite, p.y.isFinite, abs(p.x) < 1e6, abs(p.y) < 1e6 else { return (0, (.nan, .nan)) }
        let found = image.find(in: (x: Int(p.x) - 30, y: Int(p.y) - 35, w: 60, h: 70), isPinRed)
        return (found.count, found.centroid)
    }

    @Test(
        .enabled(if: ViewerProcess.windowToolsAvailable, "Xvfb, xdotool or ImageMagick (import, convert) missing"),
        .timeLimit(.minutes(2)))
    func mapScenarioUnderXvfb() throws {
        let exe = try #require(MapViewerTests.executable, "map-viewer is not built (swift build --product map-viewer)")
        // One marker exactly at the camera target: it stands on its tip at the window centre.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("map-window-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let markers = dir.appendingPathComponent("one.geojson")
        try Data(
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"Test Marker"},
            "geometry":{"type":"Point","coordinates":[24.9443,60.1699]}}]}
            """.utf8
        ).write(to: markers)

        let x = try XSession(name: "map", standIn: false)
        defer { x.close() }
        // The device location comes from WAYMARK_LOCATION as in an app (the bare LAT,LON form; off-screen here).
        try x.launchViewer(
            exe, arguments: ["--size", "640x480", "--camera", "60.1699,24.9443,16", "--markers", markers.path],
            environment: ["WAYMARK_LOCATION": "60.1694,24.9522,20"])
        #expect(x.waitForOutput("map-viewer: 1 markers"))
        #expect(x.stdout.contains("my location 60.1694,24.9522,20"), "stdout: \(x.stdout)")
        let pinArea = (x: 300, y: 190, w: 40, h: 52)
        let compassArea = (x: 560, y: 0, w: 80, h: 80)

        // 1. The pin stands at the centre; no compass while north is up.
        let s0 = try x.screenshot("0-start") { $0.find(in: pinArea, Self.isPinRed).count > 100 }
        let pin0 = s0.find(in: pinArea, Self.isPinRed)
        #expect(pin0.count > 100, "no pin at the centre")
        #expect(abs(pin0.centroid.x - 320) < 3, "pin at \(pin0.centroid)")
        #expect(s0.find(in: compassArea, Self.isPinRed).count == 0, "compass shown at bearing 0")
        // The tiles are made off the main thread: once they arrive the viewer wakes and draws the streets (white).
        let whole = (x: 0, y: 0, w: 640, h: 480)
        let tiles = try x.screenshot("0-tiles", timeout: 10) { $0.find(in: whole, Self.isWhite).count > 3000 }
        #expect(tiles.find(in: whole, Self.isWhite).count > 3000, "no streets drawn: the tiles never arrived")

        // 2. Click the pin's head: its info window opens above it (a white bubble), and clicking the bubble prints
        //    the title.
        x.move(320, 222)
        x.xdotool(["click", "1"])
        let bubbleArea = (x: 240, y: 130, w: 160, h: 70)
        let s1 = try x.screenshot("1-info-window") { $0.find(in: bubbleArea, Self.isWhite).count > 2000 }
        #expect(s1.find(in: bubbleArea, Self.isWhite).count > 2000, "no info window above the pin")
        x.move(320, 175)
        x.xdotool(["click", "1"])
        #expect(x.waitForOutput("map-viewer: info window Test Marker"), "stdout: \(x.stdout)")

        // 3. Drag by (−100, +50) and hold still before letting go (no fling): the map, and the pin with it, moves
        //    with the pointer.
        x.move(450, 400)
        x.xdotool(["mousedown", "1"])
        for i in 1...10 {
            x.move(450 - 10 * i, 400 + 5 * i)
            usleep(15_000)
        }
        usleep(400_000)
        x.xdotool(["mouseup", "1"])
        let moved = (x: pin0.centroid.x - 100, y: pin0.centroid.y + 50)
        let s2 = try x.screenshot("2-dragged") { abs(Self.pin(in: $0, near: moved).centroid.x - moved.x) < 4 }
        let pin2 = Self.pin(in: s2, near: moved)
        #expect(abs(pin2.centroid.x - (pin0.centroid.x - 100)) < 4, "pin \(pin0.centroid) → \(pin2.centroid)")
        #expect(abs(pin2.centroid.y - (pin0.centroid.y + 50)) < 4, "pin \(pin0.centroid) → \(pin2.centroid)")

        // 4. Two wheel notches at (320, 240): zoom +1 about the cursor, so the pin's anchor moves twice as far from
        //    it. The anchor (tip) is 18.5 pt below the pin's red centroid at every zoom (the pin keeps its size).
        let tip2 = (x: pin2.centroid.x, y: pin2.centroid.y + 18.5)
        x.move(320, 240)
        x.xdotool(["click", "--repeat", "2", "--delay", "60", "4"])
        let expected = (x: 320 + 2 * (tip2.x - 320), y: 240 + 2 * (tip2.y - 240) - 18.5)
        let s3 = try x.screenshot("3-wheel") { abs(Self.pin(in: $0, near: expected).centroid.x - expected.x) < 5 }
        let pin3 = Self.pin(in: s3, near: expected)
        #expect(
            abs(pin3.centroid.x - expected.x) < 5 && abs(pin3.centroid.y - expected.y) < 5,
            "pin at \(pin3.centroid), expected \(expected)")

        // 5. Right drag: the map turns and the compass (red north needle) appears top-right.
        x.drag(button: 3, from: (320, 240), to: (400, 240), steps: 8)
        let s4 = try x.screenshot("4-rotated") { $0.find(in: compassArea, Self.isPinRed).count > 20 }
        #expect(s4.find(in: compassArea, Self.isPinRed).count > 20, "no compass after a rotation")

        // 6. At rest the loop sleeps: once the tile worker has made the new view's tiles (slow in a debug build, and
        //    its CPU counts for the process too), a 2-s window costs at most 10 ticks. Up to 15 windows are tried.
        usleep(1_500_000)
        var windows: [Int] = []
        while windows.count < 15, windows.last.map({ $0 > 10 }) ?? true {
            guard let before = x.viewerCPUTicks() else { break }
            usleep(2_000_000)
            guard let after = x.viewerCPUTicks() else { break }
            windows.append(after - before)
        }
        if !windows.isEmpty {
            #expect(windows.last! <= 10, "idle CPU ticks in successive 2-s windows: \(windows)")
        }
        x.xdotool(["windowfocus", "--sync", x.windowID])
        x.xdotool(["key", "q"])
        #expect(x.waitForOutput("map-viewer: closed after", timeout: 5))
    }

    /// `--script demo` plays its 13.5-s pan, zoom, rotation and tilt over Helsinki with 1,000 markers through the input path,
    /// draws the map with markers while it runs, prints the frame-time line and exits by itself with 0.
    @Test(
        .enabled(if: ViewerProcess.windowToolsAvailable, "Xvfb, xdotool or ImageMagick (import, convert) missing"),
        .timeLimit(.minutes(2)))
    func scriptedDemoPlaysAndExits() throws {
        let exe = try #require(MapViewerTests.executable, "map-viewer is not built (swift build --product map-viewer)")
        let x = try XSession(name: "script", standIn: false)
        defer { x.close() }
        try x.launchViewer(exe, arguments: ["--size", "640x480", "--script", "demo"])
        #expect(x.waitForOutput("map-viewer: 1000 markers"), "stdout: \(x.stdout)")
        #expect(x.waitForOutput("map-viewer: playing script demo"))
        // Seven seconds in (the script runs on the wall clock): zoomed in by 3 levels and turned, panning back; the
        // streets of the new zoom arrived from the worker and markers are in view. On a loaded machine the worker may
        // lag: the screenshots go on until the streets show, up to 12.5 s into the 13.5-s script (zoomed out by 2,
        // then tilting: streets and markers stay in view throughout).
        usleep(7_000_000)
        let whole = (x: 0, y: 0, w: 640, h: 480)
        let late = try x.screenshot("script-late", timeout: 5.5) { $0.find(in: whole, Self.isWhite).count > 3000 }
        #expect(late.find(in: whole, Self.isWhite).count > 3000, "no streets drawn late in the script")
        #expect(late.find(in: whole, Self.isPinRed).count > 100, "no markers in view")
        #expect(x.waitForOutput("map-viewer: closed after", timeout: 30), "stdout: \(x.stdout)")
        let stats = x.stdout.split(separator: "\n").first { $0.hasPrefix("map-viewer: stats ") } ?? ""
        #expect(stats.contains("frame time median") && stats.hasSuffix("script demo"), "stats line: \(stats)")
        let deadline = Date().addingTimeInterval(5)
        while x.viewerIsRunning && Date() < deadline { usleep(50_000) }
        #expect(x.viewerStatus == 0)
    }
}
