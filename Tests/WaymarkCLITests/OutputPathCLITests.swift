import Foundation
import MapTestSupport
import Testing

/// What a new user's trial of the CLI found (session 10): `-o` through a symbolic link, a FIFO or a device, `-o -`,
/// a replaced file's permission bits, and numbers and missing values on the command line.
@Suite struct OutputPathCLITests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// `waymark snapshot --size 50x50 ARGS` with the test fonts.
    func snapshot(_ arguments: [String]) throws -> WaymarkProcess.Result {
        try WaymarkProcess.run(["snapshot", "--size", "50x50"] + arguments, environment: Fixtures.fontEnvironment)
    }

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

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    @Test func aSymbolicLinkIsFollowedAndStays() throws {
        // A dangling absolute link creates its target, as cp and curl -o do.
        let target = path("target.png")
        let link = path("link.png")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let first = try snapshot(["-o", link])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(fileType(link) == S_IFLNK)
        #expect(fileType(target) == S_IFREG)
        #expect(try Array([UInt8](Data(contentsOf: URL(fileURLWithPath: target))).prefix(8)) == Self.signature)
        // A relative link, in another folder, onto an existing file: that file is replaced and keeps its 0600.
        let sub = path("sub")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let relative = sub + "/relative.png"
        try FileManager.default.createSymbolicLink(atPath: relative, withDestinationPath: "../target.png")
        #expect(chmod(target, 0o600) == 0)
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let second = try snapshot(["-o", relative])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(fileType(relative) == S_IFLNK)
        #expect(try Array([UInt8](Data(contentsOf: URL(fileURLWithPath: target))).prefix(8)) == Self.signature)
        #expect(permissions(target) == 0o600)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["link.png", "sub", "target.png"], "no temporary file left, none beside the link")
    }

    @Test func aReplacedFileKeepsItsPermissionBits() throws {
        let out = path("kept.png")
        try Data("old".utf8).write(to: URL(fileURLWithPath: out))
        #expect(chmod(out, 0o640) == 0)
        let result = try snapshot(["-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(permissions(out) == 0o640)
        #expect(try Array([UInt8](Data(contentsOf: URL(fileURLWithPath: out))).prefix(8)) == Self.signature)
    }

    @Test func aFIFOIsWrittenThroughNotReplaced() throws {
        let fifo = path("pipe.png")
        #expect(mkfifo(fifo, 0o600) == 0)
        // The reader opens the FIFO (blocking until the writer does) and reads to the end.
        nonisolated(unsafe) var received: [UInt8] = []
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            if let handle = FileHandle(forReadingAtPath: fifo) { received = [UInt8](handle.readDataToEndOfFile()) }
            done.signal()
        }
        let result = try snapshot(["-o", fifo])
        if result.status != 0 {
            // Unblock the reader when nothing opened the FIFO for writing.
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileType(fifo) == S_IFIFO)
        #expect(Array(received.prefix(8)) == Self.signature)
    }

    @Test func aCharacterDeviceIsWrittenDirectly() throws {
        // A null device (major 1, minor 3: Linux's makedev) of our own where the system lets us make one (root),
        // else /dev/null itself.
        let own = path("null")
        let device = mknod(own, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 ? own : "/dev/null"
        let result = try snapshot(["-o", device])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileType(device) == S_IFCHR)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }
        #expect(leftovers == [])
    }

    /// `--dark` picks the bundled dark style, so with a style of the user's own it does nothing: said once, and the
    /// picture is the style's own.
    @Test func darkWithAStyleOfOnesOwnIsSaidToBeIgnored() throws {
        let style = Fixtures.repositoryRoot.appendingPathComponent("Data/styles/default.json").path
        let plain = try snapshot(["--style", style, "-o", path("plain.png")])
        let dark = try snapshot(["--style", style, "--dark", "-o", path("dark.png")])
        #expect(plain.status == 0 && dark.status == 0, "\(dark.stderr)")
        let said = dark.stderr.split(separator: "\n").filter { $0.contains("--dark") }
        #expect(said == ["waymark snapshot: --dark selects the bundled dark style; ignored with --style '\(style)'"])
        #expect(!plain.stderr.contains("--dark"))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path("plain.png")))
                == Data(contentsOf: URL(fileURLWithPath: path("dark.png"))))
    }

    @Test func dashWritesThePNGToStandardOutputAlone() throws {
        let viaFile = try snapshot(["-o", path("file.png")])
        #expect(viaFile.status == 0, "\(viaFile.stderr)")
        let piped = try snapshot(["-o", "-"])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdoutBytes.count > 8)
        #expect(piped.stdoutBytes == [UInt8](try Data(contentsOf: URL(fileURLWithPath: path("file.png")))))
        #expect(!FileManager.default.fileExists(atPath: Fixtures.repositoryRoot.appendingPathComponent("-").path))
        let help = try WaymarkProcess.run(["snapshot", "--help"])
        #expect(help.stdout.contains("`-o -` writes the PNG to standard output"))
    }

    @Test func staticFollowsASymbolicLinkToo() throws {
        let target = path("static-target.png")
        let link = path("static-link.png")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = try WaymarkProcess.run(
            ["static", "center=60.17,24.94&zoom=14&size=64x64", "-o", link], environment: Fixtures.fontEnvironment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileType(link) == S_IFLNK)
        #expect(try Array([UInt8](Data(contentsOf: URL(fileURLWithPath: target))).prefix(8)) == Self.signature)
    }

    @Test(arguments: [
        (["--scale", "0x1"], "--scale"),
        (["--scale", "inf"], "--scale"),
        (["--scale", "nan"], "--scale"),
        (["--scale", "0x1p0"], "--scale"),
        (["--timeout", "0x10"], "--timeout"),
        (["--camera", "60,24,10,,5"], "--camera"),
        (["--camera", "60,24,,"], "--camera"),
        (["--camera", "0x3C,24,10"], "--camera"),
        (["--camera", "60,24,infinity"], "--camera"),
    ])
    func numbersMustBePlainDecimal(arguments: [String], option: String) throws {
        let result = try snapshot(arguments + ["-o", path("never.png")])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("waymark snapshot: \(option) needs"), "\(result.stderr.prefix(200))")
        #expect(!FileManager.default.fileExists(atPath: path("never.png")))
    }

    @Test func plainDecimalsAndNegativeNumbersAreAccepted() throws {
        let result = try snapshot(["--camera", "-33.87,+151.21,1e1,-10.5,.5", "--scale", "1.5", "-o", path("ok.png")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == path("ok.png") + "\n")
    }

    @Test(arguments: [
        (["--camera", "-o", "out.png"], "--camera needs LAT,LON,ZOOM[,BEARING[,PITCH]] numbers, got '-o'"),
        (["--camera", "--dark"], "--camera needs LAT,LON,ZOOM[,BEARING[,PITCH]] numbers, got '--dark'"),
        (["--scale", "--size", "9x9"], "--scale needs a number in 0.25…4, got '--size'"),
        (["-o"], "-o needs an output PNG path (- for standard output)\n"),
    ])
    func aMissingValueNamesItsOption(arguments: [String], message: String) throws {
        let result = try WaymarkProcess.run(["snapshot"] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("waymark snapshot: \(message)"), "\(result.stderr.prefix(200))")
        #expect(!result.stderr.contains("unexpected argument"))
    }
}
