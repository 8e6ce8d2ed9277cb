import Foundation
import MapDrawingCairo
import MicroHTTPServer
import StaticMapsServer

/// `waymark static 'QUERY'`: renders a Static Maps request without HTTP, through the same service `waymark serve`
/// runs.
struct StaticCommand: WaymarkCommand {
    static let name = "static"
    static let drawsLabels = true
    static let summary = "render a Google Static Maps request (its query string) to an image, without HTTP"
    static let usage = """
        usage: waymark static 'QUERY' [-o OUT.png] [--config FILE.json]

          QUERY     the query of a /maps/api/staticmap URL, for example
                    'center=60.17,24.94&zoom=14&size=640x400&markers=color:blue|label:S|60.17,24.94'
                    (a full URL or /maps/api/staticmap?… is accepted too); Google's parameters, see README.md
          -o        the output file, written as `waymark snapshot -o` writes (whole or not at all; through a
                    symbolic link; a FIFO or device directly; `-` standard output). Default out/static.png
                    (out/static.jpg for format=jpg)
          --config  the server configuration (styles by id, keys, limits); default: safe defaults
        Exit codes: 0 written; 1 the map could not be drawn; 2 the request was refused (the reason on stderr).
        """

    @MainActor static func run(_ arguments: [String]) throws {
        let args = try ArgumentReader(arguments, valued: ["-o", "--output", "--config"])
        guard args.positionals.count == 1 else { throw UsageError("expected one QUERY, got \(args.positionals.count)") }
        var config = StaticMapsConfig()
        if let file = args.value("--config") {
            do { config = try StaticMapsConfig(contentsOfFile: file) } catch { throw UsageError("\(error)") }
        }
        config.workers = 1
        config.keys = [:]
        var target = args.positionals[0]
        if let range = target.range(of: "/maps/api/staticmap") { target = String(target[range.lowerBound...]) }
        if !target.hasPrefix("/") { target = "/maps/api/staticmap?" + target }
        let service: StaticMapsService
        do { service = try StaticMapsService(config: config) } catch { throw RuntimeError("\(error)") }
        defer { service.shutdown() }
        let response = service.respond(ServerRequest(method: "GET", target: target))
        let body = String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard response.status == 200 else {
            if (400..<500).contains(response.status) { throw UsageError("\(response.status): \(body)") }
            throw RuntimeError("\(response.status): \(body)")
        }
        let jpeg = response.header("Content-Type") == "image/jpeg"
        let output = args.value("-o") ?? args.value("--output") ?? (jpeg ? "out/static.jpg" : "out/static.png")
        // Written as snapshot's PNGs are: whole or not at all, through symbolic links, FIFOs and devices directly.
        do { try PNGCodec.write(bytes: response.body, to: SnapshotCommand.outputPath(output)) } catch {
            throw RuntimeError("\(error)")
        }
        if output != "-" { print(output) }
    }
}
