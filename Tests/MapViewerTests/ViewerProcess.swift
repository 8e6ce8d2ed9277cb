import Foundation
import MapTestSupport

/// Helpers to run `map-viewer`, Xvfb, xdotool and ImageMagick as child processes with bounded time.
enum ViewerProcess {
    /// The built `map-viewer` next to the test bundle (`.build/<triple>/debug/`), or under `.build/debug/`.
    static var executable: URL? {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            let dir = URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent()
            candidates.append(dir.appendingPathComponent("map-viewer"))
            // `swift test` runs `<dir>/WaymarkPackageTests.xctest`; the bundle may also sit one level deeper.
            candidates.append(dir.deletingLastPathComponent().appendingPathComponent("map-viewer"))
        }
        candidates.append(Fixtures.repositoryRoot.appendingPathComponent(".build/debug/map-viewer"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The full path of `tool` on PATH, or nil.
    static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Xvfb, xdotool, ImageMagick's `import` and `convert` are all on PATH.
    static var windowToolsAvailable: Bool {
        ["Xvfb", "xdotool", "import", "convert"].allSatisfy { which($0) != nil }
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var timedOut: Bool
    }

    /// The environment without any display variable (so nothing reaches a real X server by accident).
    static func baseEnvironment() -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = nil
        env["WAYLAND_DISPLAY"] = nil
        env["SDL_VIDEODRIVER"] = nil
        return env
    }

    /// Runs `executable` with `arguments` and waits at most `timeout` seconds (then kills it).
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: TimeInterval = 20
    ) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment ?? baseEnvironment()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-run-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let err = dir.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        guard let outHandle = try? FileHandle(forWritingTo: out), let errHandle = try? FileHandle(forWritingTo: err)
        else { return Result(status: -1, stdout: "", stderr: "cannot create output files", timedOut: false) }
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return Result(status: -1, stdout: "", stderr: "cannot start \(executable): \(error)", timedOut: false)
        }
        let timedOut = !waitForExit(process, timeout: timeout)
        try? outHandle.close()
        try? errHandle.close()
        return Result(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "", timedOut: timedOut)
    }

    /// Waits for `process` to exit; after `timeout` seconds sends SIGTERM, then SIGKILL. True when it exited in time.
    @discardableResult
    static func waitForExit(_ process: Process, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if !process.isRunning { return true }
        stop(process)
        return false
    }

    /// Stops `process` (SIGTERM, then SIGKILL after 2 s) and reaps it.
    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// An RGB image read from a binary PPM (P6), as written by `convert … ppm:FILE`.
struct PPMImage {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        // Header: "P6" whitespace width whitespace height whitespace maxval single-whitespace, comments with '#'.
        var fields: [Int] = []
        var i = 2
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else { return nil }
        while fields.count < 3 && i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "#") {
                while i < bytes.count && bytes[i] != 10 { i += 1 }
            } else if c >= 48 && c <= 57 {
                var v = 0
                while i < bytes.count && bytes[i] >= 48 && bytes[i] <= 57 {
                    v = v * 10 + Int(bytes[i] - 48)
                    i += 1
                }
                fields.append(v)
                continue
            }
            i += 1
        }
        guard fields.count == 3, fields[2] == 255 else { return nil }
        width = fields[0]
        height = fields[1]
        let start = i + 1  // `i` is at the single whitespace byte after maxval
        guard bytes.count >= start + width * height * 3 else { return nil }
        pixels = Array(bytes[start..<(start + width * height * 3)])
    }

    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let o = (y * width + x) * 3
        return (Int(pixels[o]), Int(pixels[o + 1]), Int(pixels[o + 2]))
    }

    /// Pixels in `rect` (clipped to the image) matching `predicate`: their count, centroid and bounding box.
    func find(
        in rect: (x: Int, y: Int, w: Int, h: Int)? = nil, _ predicate: (Int, Int, Int) -> Bool
    ) -> (count: Int, centroid: (x: Double, y: Double), minX: Int, maxX: Int, minY: Int, maxY: Int) {
        let r = rect ?? (0, 0, width, height)
        var count = 0
        var sx = 0.0
        var sy = 0.0
        var minX = Int.max
        var maxX = Int.min
        var minY = Int.max
        var maxY = Int.min
        for y in max(0, r.y)..<min(height, r.y + r.h) {
            for x in max(0, r.x)..<min(width, r.x + r.w) {
                let (red, green, blue) = rgb(x, y)
                guard predicate(red, green, blue) else { continue }
                count += 1
                sx += Double(x)
                sy += Double(y)
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        let c = count > 0 ? (sx / Double(count), sy / Double(count)) : (Double.nan, Double.nan)
        return (count, c, minX, maxX, minY, maxY)
    }
}
