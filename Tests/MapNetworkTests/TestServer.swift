import Foundation
import MapData
import MapNetwork
import MapStorage
import MapTestSupport

/// The repo's test HTTP server (`Server/test_server.py`, Python's `http.server`) on 127.0.0.1 with a random port,
/// started and stopped by the tests.
final class TestServer {
    private let server: TestServerProcess
    private let control = HTTPLoader(options: HTTPLoaderOptions(maxRetries: 0))

    /// Whether `python3` can be run (the tests that need the server are counted skips without it).
    static var available: Bool { TestServerProcess.available }

    var root: URL { server.root }
    var port: Int { server.port }

    /// Starts the server over `root` and waits (at most 10 s) for its port.
    init(root: URL) throws { server = try TestServerProcess(root: root) }

    /// Stops the server (idempotent) and waits for it to exit.
    func stop() { server.stop() }

    /// `http://127.0.0.1:<port>/files/<path>`.
    func url(_ path: String) -> String { server.url(path) }

    /// Sends a control request (`mode=500`, `replace=a&with=b`, `clearlog=1`).
    func control(_ query: String) throws {
        _ = try control.fetchAndWait(URL(string: "http://127.0.0.1:\(port)/_control?\(query)")!)
    }

    /// The request log, oldest first.
    func log() throws -> [[String: Any]] {
        let response = try control.fetchAndWait(URL(string: "http://127.0.0.1:\(port)/_log")!)
        return String(decoding: response.body, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Requests logged for paths containing `fragment`.
    func requests(containing fragment: String) throws -> [[String: Any]] {
        try log().filter { ($0["path"] as? String)?.contains(fragment) == true }
    }
}

/// A fresh temporary folder.
func temporaryFolder(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Writes `Data/helsinki.mbtiles`' tiles (stored bytes, gzip as in the file) into `folder/<z>/<x>/<y>.pbf`.
func exportHelsinki(into folder: URL) throws -> Int {
    let source = try MBTilesSource(path: Fixtures.data.appendingPathComponent("helsinki.mbtiles").path)
    var n = 0
    for address in try source.tileAddresses() {
        guard let bytes = try source.rawTileData(at: address) else { continue }
        let dir = folder.appendingPathComponent("\(address.z)/\(address.x)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(bytes).write(to: dir.appendingPathComponent("\(address.y).pbf"))
        n += 1
    }
    return n
}

/// The default style with its `helsinki` source replaced by `helsinki` (a source object) and `world` pointing at the
/// absolute path of `Data/world.mbtiles` (and `glyphs` at `Data/glyphs`), written to `folder/<name>`; returns its path. Without `labels`, the symbol
/// layers are left out (asynchronous frames place labels with the history of earlier frames; the tiles are exact).
func defaultStyle(
    helsinki: [String: Any], in folder: URL, labels: Bool = true, name: String = "style.json"
) throws -> String {
    let data = try Data(contentsOf: Fixtures.data.appendingPathComponent("styles/default.json"))
    var style = try JSONSerialization.jsonObject(with: data) as! [String: Any]
    var sources = style["sources"] as! [String: Any]
    var world = sources["world"] as! [String: Any]
    world["url"] = "mbtiles://" + Fixtures.data.appendingPathComponent("world.mbtiles").path
    sources["world"] = world
    // The bundled glyphs by absolute path, so the copy draws its labels as the bundled style does.
    style["glyphs"] = "file://" + Fixtures.data.appendingPathComponent("glyphs").path + "/{fontstack}/{range}.pbf"
    sources["city"] = helsinki
    style["sources"] = sources
    if !labels {
        style["layers"] = (style["layers"] as! [[String: Any]]).filter { $0["type"] as? String != "symbol" }
    }
    let path = folder.appendingPathComponent(name).path
    try JSONSerialization.data(withJSONObject: style).write(to: URL(fileURLWithPath: path))
    return path
}

/// Collects problems reported by sources (thread-safe).
final class ProblemLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [SourceProblem] = []

    var problems: [SourceProblem] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }

    func add(_ p: SourceProblem) {
        lock.lock()
        items.append(p)
        lock.unlock()
    }
}

/// Waits for a request's answer (bounded: 20 s).
func waitFor<T: Sendable>(_ start: (@escaping @Sendable (T) -> Void) -> Void) -> T? {
    let box = Box<T>()
    start { box.set($0) }
    return box.wait(seconds: 20)
}

final class Box<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: T?

    func set(_ v: T) {
        condition.lock()
        value = v
        condition.broadcast()
        condition.unlock()
    }

    func wait(seconds: Double) -> T? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(seconds)
        while value == nil && condition.wait(until: deadline) {}
        return value
    }
}
