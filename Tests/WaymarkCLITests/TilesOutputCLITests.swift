import Foundation
import MapTestSupport
import Testing

/// `waymark tiles convert` and `tiles build` write OUT through `AtomicFile`, as `snapshot -o` does (docs/BEHAVIOUR.md
/// D24; found by the session-11 new-user trial: `tiles` renamed its own temporary file over OUT, replacing a
/// symbolic link with a file, a FIFO with a file, and a 0600 file with a 0644 one).
@Suite struct TilesOutputCLITests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-tiles-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// The file type bits of `path` itself (`lstat`: a link is a link).
    func fileType(_ path: String) -> mode_t {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        return info.st_mode & S_IFMT
    }

    func permissions(_ path: String) -> mode_t {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return info.st_mode & 0o7777
    }

    func prefix(_ path: String, _ count: Int = 8) throws -> [UInt8] {
        Array(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))).prefix(count))
    }

    static let pmtilesMagic = Array("PMTiles\u{3}".utf8)
    static let sqliteMagic = Array("SQLite format 3\u{0}".utf8)

    @Test func convertFollowsASymbolicLinkAndKeepsTheTargetsPermissions() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = path("real")
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        let target = real + "/h.pmtiles"
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        #expect(chmod(target, 0o600) == 0)
        // A relative link in another folder: read against the link's folder.
        let link = path("h.pmtiles")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/h.pmtiles")

        let refused = try WaymarkProcess.run(["tiles", "convert", "Data/helsinki.mbtiles", link])
        #expect(refused.status == 1 && refused.stderr.contains("\(link): already exists"), "\(refused.stderr)")
        #expect(try prefix(target, 3) == Array("old".utf8), "refused: the target is untouched")

        let result = try WaymarkProcess.run(["tiles", "convert", "Data/helsinki.mbtiles", link, "--force"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileType(link) == S_IFLNK, "the link stays a link")
        #expect(fileType(target) == S_IFREG)
        #expect(try prefix(target) == Self.pmtilesMagic, "the link's target is the new archive")
        #expect(permissions(target) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["h.pmtiles", "real"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: real) == ["h.pmtiles"], "no temporary file left")

        // PMTiles → MBTiles through a dangling link: the link's target is created (as cp and curl -o do).
        let dangling = path("back.mbtiles")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: real + "/back.mbtiles")
        let back = try WaymarkProcess.run(["tiles", "convert", target, dangling])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(fileType(dangling) == S_IFLNK)
        #expect(try prefix(real + "/back.mbtiles", 16) == Self.sqliteMagic)
        // A missing folder is named with the step and errno, not by the converter's temporary names.
        let missing = path("nowhere/x.mbtiles")
        let failed = try WaymarkProcess.run(["tiles", "convert", target, missing])
        #expect(failed.status == 1 && failed.stderr.contains("cannot write \(missing)"), "\(failed.stderr)")
        #expect(failed.stderr.contains("No such file or directory (errno 2)"), "\(failed.stderr)")
    }

    @Test func convertWritesThroughAFIFO() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = path("pipe.pmtiles")
        #expect(mkfifo(fifo, 0o600) == 0)
        nonisolated(unsafe) var received: [UInt8] = []
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            if let handle = FileHandle(forReadingAtPath: fifo) { received = [UInt8](handle.readDataToEndOfFile()) }
            done.signal()
        }
        // Not "already exists": a FIFO is written through, not replaced, so --force is not needed.
        let result = try WaymarkProcess.run(["tiles", "convert", "Data/helsinki.mbtiles", fifo])
        #expect(result.status == 0, "\(result.stderr)")
        if done.wait(timeout: .now() + 30) == .timedOut {
            // Unblock the reader so the thread ends.
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            Issue.record("nothing was written to the FIFO")
        }
        #expect(fileType(fifo) == S_IFIFO, "the FIFO is still a FIFO")
        #expect(Array(received.prefix(8)) == Self.pmtilesMagic)
        #expect(result.stdout.contains("\(received.count) bytes"), "\(result.stdout)")
    }

    /// A checkout whose build script copies `Data/helsinki.mbtiles` to its output, with stand-ins for the tools: the
    /// real `waymark tiles build` runs it, and writes OUT as it would a real build's.
    func fakeCheckout() throws -> (environment: [String: String], input: String) {
        let checkout = path("checkout")
        let scripts = checkout + "/scripts/data"
        let bin = path("bin")
        let venv = path("sources/venv/bin")
        for dir in [scripts, checkout + "/Data", bin, venv] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        let fixture = Fixtures.repositoryRoot.appendingPathComponent("Data/helsinki.mbtiles").path
        let scriptsText: [(String, String)] = [
            (scripts + "/build-city.sh", "#!/bin/bash\ncp \"\(fixture)\" \"$2\"\n"),
            (bin + "/tilemaker", "#!/bin/sh\n"), (bin + "/ogr2ogr", "#!/bin/sh\n"), (bin + "/python3", "#!/bin/sh\n"),
            (venv + "/python", "#!/bin/sh\n"),
        ]
        for (file, text) in scriptsText {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            #expect(chmod(file, 0o755) == 0)
        }
        let input = path("area.osm.pbf")
        try Data("stand-in extract".utf8).write(to: URL(fileURLWithPath: input))
        return (
            [
                "WAYMARK_DATA_DIR": checkout + "/Data", "WAYMARK_SOURCES": path("sources"),
                "PATH": "\(bin):/usr/bin:/bin",
            ],
            input
        )
    }

    @Test func buildFollowsASymbolicLinkForBothFormats() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (environment, input) = try fakeCheckout()
        let real = path("real")
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        for (name, magic) in [("city.mbtiles", Self.sqliteMagic), ("city.pmtiles", Self.pmtilesMagic)] {
            let target = real + "/" + name
            try Data("old".utf8).write(to: URL(fileURLWithPath: target))
            #expect(chmod(target, 0o640) == 0)
            let link = path(name)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            let result = try WaymarkProcess.run(
                ["tiles", "build", input, "-o", link, "--force", "--no-install"], environment: environment)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(result.stdout.contains("-> \(link): 19 tiles"), "\(name): \(result.stdout)")
            #expect(fileType(link) == S_IFLNK, "\(name): the link stays a link")
            #expect(try prefix(target, magic.count) == magic, "\(name): the link's target is the new tileset")
            #expect(permissions(target) == 0o640, "\(name)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: real).sorted() == ["city.mbtiles", "city.pmtiles"])
    }
}
