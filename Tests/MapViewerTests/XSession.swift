import Foundation
import MapTestSupport

/// A private Xvfb server on a free display, with `map-viewer` running in it, driven by xdotool and photographed with
/// ImageMagick's `import -window root`. ``close()`` (also called on deinit) stops both processes; every wait is
/// bounded.
final class XSession {
    let display: String
    /// Where screenshots and logs go: `out/map-viewer-test/` in the checkout (git-ignored).
    let folder: URL
    private let xvfb: Process
    private var viewer: Process?
    private var viewerOut: URL
    private var viewerErr: URL
    private var outHandle: FileHandle?
    private var errHandle: FileHandle?
    private(set) var windowID: String = ""

    enum Failure: Error, CustomStringConvertible {
        case message(String)
        var description: String {
            switch self {
            case .message(let m): return m
            }
        }
    }

    /// Whether the viewer shows the stand-in content (`MAP_VIEWER_STAND_IN=1`) rather than the map.
    let standIn: Bool

    /// Starts Xvfb (`-displayfd` picks a free display) with a 1024×768×24 screen.
    /// - Parameters:
    ///   - name: the session's folder under `out/map-viewer-test/` (screenshots, logs).
    ///   - standIn: run the viewer on its stand-in content (true) or on the real map (false).
    /// - Throws: Foundation's error when the session folder or its display file cannot be made or Xvfb cannot be
    ///   started; ``Failure/message(_:)`` when Xvfb reports no display within 10 s.
    init(name: String = "stand-in", standIn: Bool = true) throws {
        self.standIn = standIn
        folder = Fixtures.repositoryRoot.appendingPathComponent("out/map-viewer-test/\(name)")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        viewerOut = folder.appendingPathComponent("viewer-stdout.txt")
        viewerErr = folder.appendingPathComponent("viewer-stderr.txt")
        let displayFile = folder.appendingPathComponent("xvfb-display.txt")
        _ = FileManager.default.createFile(atPath: displayFile.path, contents: nil)
        let handle = try FileHandle(forWritingTo: displayFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ViewerProcess.which("Xvfb") ?? "/usr/bin/Xvfb")
        process.arguments = ["-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"]
        process.environment = ViewerProcess.baseEnvironment()
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        xvfb = process
        var number: String?
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && process.isRunning {
            if let text = try? String(contentsOf: displayFile, encoding: .utf8), text.contains("\n") {
                number = text.trimmingCharacters(in: .whitespacesAndNewlines)
                break
            }
            usleep(20_000)
        }
        try? handle.close()
        guard let number, !number.isEmpty else {
            ViewerProcess.stop(process)
            throw Failure.message("Xvfb did not report a display within 10 s")
        }
        display = ":" + number
    }

    deinit { close() }

    var environment: [String: String] {
        var env = ViewerProcess.baseEnvironment()
        env["DISPLAY"] = display
        if standIn { env["MAP_VIEWER_STAND_IN"] = "1" }  // the host scenario runs on the stand-in's predictable model
        return env
    }

    /// Stops the viewer and Xvfb (idempotent).
    func close() {
        if let viewer { ViewerProcess.stop(viewer) }
        viewer = nil
        try? outHandle?.close()
        try? errHandle?.close()
        outHandle = nil
        errHandle = nil
        ViewerProcess.stop(xvfb)
    }

    /// The viewer's process id (0 when not running).
    var viewerPID: Int32 { viewer?.processIdentifier ?? 0 }
    var viewerIsRunning: Bool { viewer?.isRunning ?? false }
    var viewerStatus: Int32? { viewer.map { $0.isRunning ? nil : $0.terminationStatus } ?? nil }

    /// Launches `map-viewer` with `arguments` (and `extra` added to the session environment) and waits for its window
    /// and its "ready" line (10 s).
    func launchViewer(_ executable: URL, arguments: [String], environment extra: [String: String] = [:]) throws {
        for url in [viewerOut, viewerErr] { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        outHandle = try FileHandle(forWritingTo: viewerOut)
        errHandle = try FileHandle(forWritingTo: viewerErr)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        viewer = process
        guard waitForOutput("map-viewer: ready", timeout: 10) else {
            throw Failure.message("no 'ready' line within 10 s; stderr: \(stderr)")
        }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let r = xdotool(["search", "--name", "^map-viewer$"])
            if let id = r.stdout.split(separator: "\n").first, !id.isEmpty {
                windowID = String(id)
                return
            }
            usleep(100_000)
        }
        throw Failure.message("xdotool found no window named map-viewer within 10 s")
    }

    var stdout: String { (try? String(contentsOf: viewerOut, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: viewerErr, encoding: .utf8)) ?? "" }

    /// Polls the viewer's stdout until it contains `text` `count` times; false after `timeout` seconds.
    @discardableResult
    func waitForOutput(_ text: String, count: Int = 1, timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if stdout.components(separatedBy: text).count - 1 >= count { return true }
            usleep(30_000)
        } while Date() < deadline
        return false
    }

    @discardableResult
    func xdotool(_ arguments: [String]) -> ViewerProcess.Result {
        ViewerProcess.run(
            ViewerProcess.which("xdotool") ?? "/usr/bin/xdotool", arguments, environment: environment, timeout: 10)
    }

    /// Moves the pointer to window point (x, y).
    func move(_ x: Int, _ y: Int) {
        xdotool(["mousemove", "--window", windowID, "\(x)", "\(y)"])
    }

    /// Presses `button` at `from`, moves in `steps` steps to `to`, releases.
    func drag(button: Int, from: (Int, Int), to: (Int, Int), steps: Int = 10) {
        move(from.0, from.1)
        xdotool(["mousedown", "\(button)"])
        for i in 1...steps {
            let x = from.0 + (to.0 - from.0) * i / steps
            let y = from.1 + (to.1 - from.1) * i / steps
            move(x, y)
            usleep(15_000)
        }
        xdotool(["mouseup", "\(button)"])
    }

    /// The window's position and size on the root window.
    func geometry() -> (x: Int, y: Int, w: Int, h: Int)? {
        let r = xdotool(["getwindowgeometry", "--shell", windowID])
        var values: [String: Int] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let v = Int(parts[1]) { values[String(parts[0])] = v }
        }
        guard let x = values["X"], let y = values["Y"], let w = values["WIDTH"], let h = values["HEIGHT"] else {
            return nil
        }
        return (x, y, w, h)
    }

    /// Takes `import -window root NAME.png`, crops it to the window and reads the crop back.
    func screenshot(_ name: String) throws -> PPMImage {
        guard let g = geometry() else { throw Failure.message("no window geometry") }
        let png = folder.appendingPathComponent("\(name)-root.png").path
        let crop = folder.appendingPathComponent("\(name).png").path
        let ppm = folder.appendingPathComponent("\(name).ppm").path
        let shot = ViewerProcess.run(
            ViewerProcess.which("import") ?? "/usr/bin/import", ["-window", "root", png], environment: environment,
            timeout: 15)
        guard shot.status == 0 else { throw Failure.message("import failed: \(shot.stderr)") }
        let convert = ViewerProcess.which("convert") ?? "/usr/bin/convert"
        let c1 = ViewerProcess.run(
            convert, [png, "-crop", "\(g.w)x\(g.h)+\(g.x)+\(g.y)", "+repage", crop], environment: environment)
        let c2 = ViewerProcess.run(convert, [crop, "ppm:\(ppm)"], environment: environment)
        guard c1.status == 0, c2.status == 0, let image = PPMImage(path: ppm) else {
            throw Failure.message("convert failed: \(c1.stderr) \(c2.stderr)")
        }
        try? FileManager.default.removeItem(atPath: ppm)
        return image
    }

    /// Takes screenshots until `ready` holds for one (the frame may lag the log line on a loaded machine), at most
    /// `timeout` seconds; returns the last one.
    func screenshot(_ name: String, timeout: TimeInterval = 4, until ready: (PPMImage) -> Bool) throws -> PPMImage {
        let deadline = Date().addingTimeInterval(timeout)
        var image = try screenshot(name)
        while !ready(image) && Date() < deadline {
            usleep(100_000)
            image = try screenshot(name)
        }
        return image
    }

    /// CPU time (user + system), in clock ticks, the viewer has used so far, from /proc/PID/stat.
    func viewerCPUTicks() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(viewerPID)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command: state(0) ppid(1) … utime is field 14 of the file, i.e. index 11 here; stime index 12.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }
}
