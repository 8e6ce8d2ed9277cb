import Foundation
import StaticMapsServer

/// `waymark serve`: Google's Static Maps API and tileserver-gl's routes over HTTP until SIGTERM or SIGINT.
struct ServeCommand: WaymarkCommand {
    static let name = "serve"
    static let summary = "serve Google Static Maps (/maps/api/staticmap) and tileserver-gl routes over HTTP"
    static let usage = """
        usage: waymark serve [--config FILE.json] [--bind ADDRESS] [--port N] [--workers N]

          --config   the server configuration (JSON; see README.md "Static maps server"); default: safe defaults
          --bind     the IPv4 address to listen on (overrides the config). Default 127.0.0.1
          --port     the port, 0 for an ephemeral one (overrides the config). Default 8080
          --workers  render threads, 0 for one per core (overrides the config)
        Prints "listening on http://ADDRESS:PORT" once ready. SIGTERM or SIGINT stops accepting, finishes the
        requests in flight within the config's drainSeconds, and exits 0.
        """

    @MainActor static func run(_ arguments: [String]) throws {
        let args = try ArgumentReader(arguments, valued: ["--config", "--bind", "--port", "--workers"])
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        var config = StaticMapsConfig()
        if let file = args.value("--config") {
            do { config = try StaticMapsConfig(contentsOfFile: file) } catch { throw UsageError("\(error)") }
        }
        if let bind = args.value("--bind") { config.bind = bind }
        if let text = args.value("--port") {
            guard let port = UInt16(text) else { throw UsageError("--port needs 0…65535, got '\(text)'") }
            config.port = port
        }
        if let text = args.value("--workers") {
            guard let n = Int(text), (0...256).contains(n) else {
                throw UsageError("--workers needs 0…256, got '\(text)'")
            }
            config.workers = n
        }
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        let server: StaticMapsServer
        do { server = try StaticMapsServer(config: config) } catch { throw RuntimeError("\(error)") }
        FileHandle.standardOutput.write(
            Data("listening on http://\(config.bind):\(server.port) (\(config.workerCount) render workers)\n".utf8))
        let stop = DispatchSemaphore(value: 0)
        let term = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
        let int = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        for source in [term, int] {
            source.setEventHandler { stop.signal() }
            source.resume()
        }
        stop.wait()
        let drained = server.drain(grace: config.drainSeconds)
        print(drained ? "stopped: every request finished" : "stopped: the grace period ended with requests in flight")
    }
}
