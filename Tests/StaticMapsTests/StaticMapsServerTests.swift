import CairoGraphics
import Foundation
import MapTestSupport
import MicroHTTPServer
import StaticMapsServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `waymark serve` end to end: a server on 127.0.0.1 with an ephemeral port, requests over HTTP, then a drain.
@Suite(.serialized) struct StaticMapsServerTests {
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    static func fetch(_ url: String, method: String = "GET", headers: [String: String] = [:]) throws -> Answer {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.timeoutInterval = 60
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        final class Box: @unchecked Sendable {
            var answer: Answer?
            var error: (any Error)?
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let http = response as? HTTPURLResponse {
                var h: [String: String] = [:]
                for (k, v) in http.allHeaderFields { h[String(describing: k).lowercased()] = String(describing: v) }
                box.answer = Answer(status: http.statusCode, headers: h, body: [UInt8](data ?? Data()))
            }
            box.error = error
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 90) == .success, let answer = box.answer else {
            throw HTTPServerError(description: "no answer from \(url): \(String(describing: box.error))")
        }
        return answer
    }

    static func config(_ json: String = "{}") throws -> StaticMapsConfig {
        Fixtures.pinFonts()
        var config = try StaticMapsConfig(json: Data(json.utf8))
        config.port = 0
        config.workers = 1
        return config
    }

    @Test func servesGooglesParametersWithCachingAndMetrics() throws {
        let server = try StaticMapsServer(config: try Self.config())
        defer { server.drain(grace: 5) }
        let base = "http://127.0.0.1:\(server.port)"
        let url =
            base
            + "/maps/api/staticmap?center=60.1699,24.9443&zoom=15&size=320x200&scale=2&markers=label:A|60.1699,24.9443"
        let first = try Self.fetch(url)
        #expect(first.status == 200)
        #expect(first.headers["content-type"] == "image/png")
        #expect(first.headers["cache-control"] == "public, max-age=86400")
        let image = try CairoSurface.decodePNG(first.body)
        #expect(image.width == 640 && image.height == 400)
        let etag = try #require(first.headers["etag"])
        // Conditional GET: 304 without a body.
        let again = try Self.fetch(url, headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        // HEAD: the headers, no body.
        let head = try Self.fetch(url, method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["etag"] == etag)
        // JPEG.
        let jpeg = try Self.fetch(url + "&format=jpg")
        #expect(jpeg.headers["content-type"] == "image/jpeg")
        #expect(jpeg.body.starts(with: [0xFF, 0xD8, 0xFF]))
        // Errors: plain text naming the parameter.
        let bad = try Self.fetch(base + "/maps/api/staticmap?center=1,2&zoom=3&size=10x10&scale=3")
        #expect(bad.status == 400)
        #expect(bad.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(bad.text.contains("'scale'"))
        let missing = try Self.fetch(base + "/maps/api/staticmap?center=1,2&zoom=3")
        #expect(missing.status == 400 && missing.text.contains("'size'"))
        let post = try Self.fetch(url, method: "POST")
        #expect(post.status == 405)
        let long = try Self.fetch(base + "/maps/api/staticmap?size=10x10&x=" + String(repeating: "a", count: 9000))
        #expect(long.status == 414)
        let longStyle = try Self.fetch(base + "/styles/default/1/0/0.png?x=" + String(repeating: "a", count: 9000))
        #expect(longStyle.status == 414)
        #expect(try Self.fetch(base + "/nothing").status == 404)
        #expect(try Self.fetch(base + "/health").text == "ok\n")
        let metrics = try Self.fetch(base + "/metrics").text
        #expect(metrics.contains("waymark_http_requests_total{route=\"staticmap\",code=\"200\"} 3"))
        #expect(metrics.contains("waymark_http_requests_total{route=\"staticmap\",code=\"304\"} 1"))
        #expect(metrics.contains("waymark_cache_hits_total{kind=\"etag\"} 1"))
        #expect(metrics.contains("waymark_cache_hits_total{kind=\"memory\"} 1"))
        #expect(metrics.contains("waymark_render_duration_seconds_count 2"))
        #expect(metrics.contains("waymark_render_queue_depth 0"))
        #expect(metrics.contains("waymark_http_requests_total{route=\"staticmap\",code=\"414\"} 1"))
        #expect(metrics.contains("waymark_http_requests_total{route=\"tile\",code=\"414\"} 1"))
    }

    @Test(.enabled(if: TestServerProcess.available, "python3 signs the URLs")) func keysAndSignatures() throws {
        let server = try StaticMapsServer(
            config: try Self.config(
                #"{"keys": {"signed": {"secret": "vNIXE0xscrmjlyV-12Nj_BvUPaw="}, "open": {}}}"#))
        defer { server.drain(grace: 5) }
        let base = "http://127.0.0.1:\(server.port)"
        let path = "/maps/api/staticmap?center=60.17,24.94&zoom=12&size=64x64"
        #expect(try Self.fetch(base + path).status == 403)
        #expect(try Self.fetch(base + path + "&key=unknown").status == 403)
        #expect(try Self.fetch(base + path + "&key=open").status == 200)
        let signedPath = path + "&key=signed"
        let unsigned = try Self.fetch(base + signedPath)
        #expect(unsigned.status == 403 && unsigned.text.contains("'signature'"))
        let signature = URLSigningFixture.sign(signedPath, secret: "vNIXE0xscrmjlyV-12Nj_BvUPaw=")
        #expect(try Self.fetch(base + signedPath + "&signature=" + signature).status == 200)
        // The signature covers the query: another zoom with the same signature is refused.
        let tampered = signedPath.replacingOccurrences(of: "zoom=12", with: "zoom=13")
        #expect(try Self.fetch(base + tampered + "&signature=" + signature).status == 403)
        // Google signs with the signature last: a valid signature placed earlier is refused with that reason.
        let early = try Self.fetch(
            base + path + "&signature=" + signature + "&key=signed")
        #expect(early.status == 403 && early.text.contains("must be the last parameter"), "\(early.text)")
        // The styles routes follow the key's rule: a key with a secret needs a signature there too.
        let stylePath = "/styles/default/style.json?key=signed"
        #expect(try Self.fetch(base + stylePath).status == 403)
        let styleSignature = URLSigningFixture.sign(stylePath, secret: "vNIXE0xscrmjlyV-12Nj_BvUPaw=")
        #expect(try Self.fetch(base + stylePath + "&signature=" + styleSignature).status == 200)
    }

    @Test func keysGuardEveryImageAndDataRoute() throws {
        let server = try StaticMapsServer(config: try Self.config(#"{"keys": {"open": {}}}"#))
        defer { server.drain(grace: 5) }
        let base = "http://127.0.0.1:\(server.port)"
        for path in [
            "/styles/default/1/0/0.png", "/styles/default/static/24.94,60.17,10/64x64.png",
            "/styles/default/style.json", "/styles/default.json",
        ] {
            let refused = try Self.fetch(base + path)
            #expect(refused.status == 403 && refused.text.contains("'key'"), "\(path): \(refused.status)")
            #expect(try Self.fetch(base + path + "?key=unknown").status == 403, "\(path)")
            #expect(try Self.fetch(base + path + "?key=open").status == 200, "\(path)")
        }
        // TileJSON hands the key on to the tile URLs.
        #expect(try Self.fetch(base + "/styles/default.json?key=open").text.contains("{y}.png?key=open"))
        // /health and /metrics stay open; refusals are counted under their route.
        #expect(try Self.fetch(base + "/health").status == 200)
        let metrics = try Self.fetch(base + "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.text.contains("waymark_http_requests_total{route=\"tile\",code=\"403\"} 2"))
    }

    /// Runs `/usr/bin/curl` (which, unlike URLSession, leaves a compressed body as it came) and returns the header
    /// block and the raw body.
    static func rawFetch(_ url: String, acceptEncoding: String?, headers: [String] = []) throws -> (
        headers: String, body: [UInt8]
    ) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments =
            [
                "-s", "--max-time", "60", "-D", folder.appendingPathComponent("h").path, "-o",
                folder.appendingPathComponent("b").path, url,
            ]
            + (acceptEncoding.map { ["-H", "Accept-Encoding: \($0)"] } ?? []) + headers.flatMap { ["-H", $0] }
        try process.run()
        process.waitUntilExit()
        return (
            try String(contentsOf: folder.appendingPathComponent("h"), encoding: .utf8).lowercased(),
            [UInt8](try Data(contentsOf: folder.appendingPathComponent("b")))
        )
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl sends any Host header"))
    func tileJSONStaysValidJSONWhateverTheHostHeaderHolds() throws {
        let server = try StaticMapsServer(config: try Self.config())
        defer { server.drain(grace: 5) }
        let answer = try Self.rawFetch(
            "http://127.0.0.1:\(server.port)/styles/default.json", acceptEncoding: nil,
            headers: ["Host: evil\"],\"x\":[\"y"])
        let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        #expect(object?["x"] == nil)
        let tiles = object?["tiles"] as? [String]
        #expect(tiles?.count == 1)
        #expect(tiles?.first?.hasPrefix("http://evil\"],\"x\":[\"y/styles/default/") == true)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl reads the raw answers"))
    func textAnswersAreGzippedWhenTheClientAcceptsIt() throws {
        let server = try StaticMapsServer(config: try Self.config())
        defer { server.drain(grace: 5) }
        let style = "http://127.0.0.1:\(server.port)/styles/default/style.json"
        let plain = try Self.rawFetch(style, acceptEncoding: nil)
        #expect(!plain.headers.contains("content-encoding"))
        #expect(plain.headers.contains("vary: accept-encoding"))
        #expect(plain.body.first == UInt8(ascii: "{"))
        let gzipped = try Self.rawFetch(style, acceptEncoding: "br;q=1, gzip;q=0.5")
        #expect(gzipped.headers.contains("content-encoding: gzip"))
        #expect(Array(gzipped.body.prefix(2)) == [0x1f, 0x8b])
        #expect(gzipped.body.count < plain.body.count / 2, "gzip \(gzipped.body.count) B of \(plain.body.count) B")
        let refused = try Self.rawFetch(style, acceptEncoding: "gzip;q=0, identity")
        #expect(!refused.headers.contains("content-encoding"))
        #expect(refused.body == plain.body)
        // Images are sent as they are.
        let image = try Self.rawFetch(
            "http://127.0.0.1:\(server.port)/maps/api/staticmap?center=0,0&zoom=1&size=64x64", acceptEncoding: "gzip")
        #expect(!image.headers.contains("content-encoding"))
        #expect(Array(image.body.prefix(4)) == [0x89, 0x50, 0x4e, 0x47])
    }

    @Test func tileserverRoutes() throws {
        let server = try StaticMapsServer(config: try Self.config())
        defer { server.drain(grace: 5) }
        let base = "http://127.0.0.1:\(server.port)"
        let tile = try Self.fetch(base + "/styles/default/14/9326/4739@2x.png")
        #expect(tile.status == 200)
        #expect(try CairoSurface.decodePNG(tile.body).width == 512)
        let still = try Self.fetch(base + "/styles/default/static/24.9443,60.1699,14@30/300x200.png")
        #expect(still.status == 200)
        #expect(try CairoSurface.decodePNG(still.body).width == 300)
        let tilejson = try Self.fetch(base + "/styles/default.json")
        #expect(tilejson.text.contains("/styles/default/{z}/{x}/{y}.png"))
        let style = try Self.fetch(base + "/styles/default/style.json")
        #expect(style.text.contains("\"version\""))
        #expect(try Self.fetch(base + "/styles/unknown/1/0/0.png").status == 404)
        #expect(try Self.fetch(base + "/styles/default/1/5/0.png").status == 400)
        #expect(try Self.fetch(base + "/styles/../../etc/passwd").status == 404)
    }

    /// Pixels of the attribution's grey text (#5f6368, antialiased) in a rectangle of an ocean image.
    static func textPixels(_ image: CairoSurface, x: Range<Int>, y: Range<Int>) -> Int {
        var count = 0
        for py in y {
            for px in x {
                let p = image.pixel(x: px, y: py)
                if max(p.r, p.g, p.b) < 170 && Int(p.b) - Int(p.r) < 40 { count += 1 }
            }
        }
        return count
    }

    @Test func attributionIsOffTilesAndFitsSmallImages() throws {
        let server = try StaticMapsServer(config: try Self.config())
        defer { server.drain(grace: 5) }
        let base = "http://127.0.0.1:\(server.port)"
        // An XYZ tile of the open Pacific: no attribution line along its bottom.
        let tile = try CairoSurface.decodePNG(try Self.fetch(base + "/styles/default/4/1/8.png").body)
        #expect(Self.textPixels(tile, x: 0..<256, y: 236..<256) == 0)
        // The same ocean as a static image does carry it.
        let wide = try CairoSurface.decodePNG(
            try Self.fetch(base + "/maps/api/staticmap?center=-10,-146&zoom=4&size=400x100").body)
        #expect(Self.textPixels(wide, x: 0..<400, y: 80..<100) > 50)
        // A small image: the line is shrunk or cut to fit, nothing drawn in the right margin.
        let small = try CairoSurface.decodePNG(
            try Self.fetch(base + "/maps/api/staticmap?center=-10,-146&zoom=4&size=90x60").body)
        #expect(Self.textPixels(small, x: 0..<84, y: 40..<60) > 20)
        #expect(Self.textPixels(small, x: 84..<90, y: 40..<60) == 0)
    }

    @Test(.enabled(if: TestServerProcess.available, "python3 serves the icon"))
    func iconsOnlyFromConfiguredHosts() throws {
        // A 16×16 opaque magenta icon served by the test server.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-icons-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pixels = [UInt8]((0..<(16 * 16)).flatMap { _ in [255, 0, 255, 255] as [UInt8] })
        try CairoSurface(width: 16, height: 16, premultipliedBGRA: pixels).writePNG(
            toFile: folder.appendingPathComponent("pin.png").path)
        let files = try TestServerProcess(root: folder)
        defer { files.stop() }
        let server = try StaticMapsServer(config: try Self.config(#"{"iconHosts": ["127.0.0.1"]}"#))
        defer { server.drain(grace: 5) }
        let base = "http://127.0.0.1:\(server.port)/maps/api/staticmap?center=60.17,24.94&zoom=14&size=100x100"
        let answer = try Self.fetch(base + "&markers=icon:\(files.url("pin.png"))|anchor:center|60.17,24.94")
        #expect(answer.status == 200, "\(answer.text)")
        let image = try CairoSurface.decodePNG(answer.body)
        let centre = image.pixel(x: 50, y: 50)
        #expect(centre.r == 255 && centre.g == 0 && centre.b == 255, "\(centre)")
        #expect(image.pixel(x: 40, y: 50).g != 0)
        // Another host: refused before anything is fetched.
        let other = try Self.fetch(base + "&markers=icon:http://169.254.169.254/latest/x.png|60.17,24.94")
        #expect(other.status == 400 && other.text.contains("'markers'"))
    }

    @Test func drainFinishesRequestsInFlight() throws {
        let server = try StaticMapsServer(config: try Self.config())
        let url = "http://127.0.0.1:\(server.port)/maps/api/staticmap?center=60.17,24.94&zoom=13&size=640x640&scale=2"
        final class Box: @unchecked Sendable { var status: Int? }
        let box = Box()
        let done = DispatchGroup()
        done.enter()
        DispatchQueue.global().async {
            box.status = try? Self.fetch(url).status
            done.leave()
        }
        for _ in 0..<500 where server.http.inFlight == 0 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(server.http.inFlight == 1)
        let drained = DispatchGroup()
        drained.enter()
        final class Flag: @unchecked Sendable { var value = false }
        let finished = Flag()
        // A thread of its own: on a loaded machine the global queue's threads may all be busy rendering.
        Thread.detachNewThread {
            finished.value = server.drain(grace: 60)
            drained.leave()
        }
        // Draining: the listening socket is closed at once (a new connection, such as a load balancer's health
        // check, is refused), while a request already on a connection gets /health 503.
        for _ in 0..<1000 where !server.service.isDraining { Thread.sleep(forTimeInterval: 0.01) }
        #expect(server.service.isDraining, "draining began within 10 s")
        for _ in 0..<1000 where server.http.isAccepting { Thread.sleep(forTimeInterval: 0.01) }
        // Not probed by connecting: the freed port may already belong to a server of a test running beside this one.
        #expect(!server.http.isAccepting)
        #expect(server.service.respond(ServerRequest(method: "GET", target: "/health")).status == 503)
        #expect(drained.wait(timeout: .now() + 60) == .success)
        #expect(finished.value)
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(box.status == 200)
    }
}

enum URLSigningFixture {
    /// Google's signing, written here with the test's own HMAC (Python's reference in URL-signing docs does the same).
    static func sign(_ pathAndQuery: String, secret: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import hmac,hashlib,base64,sys;k=base64.urlsafe_b64decode(sys.argv[2]);"
                + "print(base64.urlsafe_b64encode(hmac.new(k,sys.argv[1].encode(),hashlib.sha1).digest()).decode())",
            pathAndQuery, secret,
        ]
        let out = Pipe()
        process.standardOutput = out
        try? process.run()
        process.waitUntilExit()
        return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
