#if canImport(Glibc)
    import Glibc
#endif

/// Writes files whole or not at all: the bytes go to a temporary file beside the target (`.<name>.tmp-<pid>`),
/// are flushed to disk, and the temporary file is renamed over the target. A failure (full disk, no permission, a
/// missing folder) removes the temporary file and leaves any existing target as it was (docs/BEHAVIOUR.md D24).
/// Waymark's own.
///
/// What the path names decides how it is written, as `cp` and `curl -o` do:
/// - a symbolic link is followed (also a dangling one, which creates its target): the temporary file is made in the
///   final target's folder and renamed onto the target, and the link stays;
/// - an existing regular file is replaced and keeps its permission bits (read/write/execute; not set-id or sticky);
/// - an existing path that is not a regular file (a FIFO, a character device such as `/dev/null`, a socket) is
///   opened and written directly, without a temporary file, rename or `fsync`;
/// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` write to this process's descriptor itself
///   (appending where it appends), whatever it is open on;
/// - a new path is created with mode 0644 less the umask.
///
/// Thread rules: any thread.
public enum AtomicFile {
    /// Why a write failed: the step and the system's `errno` text.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The path written.
        public var path: String
        /// The step and `strerror(errno)`, with the errno number, for example `write: No space left on device
        /// (errno 28)`.
        public var reason: String

        /// `cannot write <path>: <reason>`.
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// The most symbolic links followed for one path (Linux's own limit, `ELOOP` past it).
    static let maxLinks = 40

    /// Writes `bytes` to `path` (see the type for symbolic links, FIFOs, devices and standard output).
    /// - Throws: ``Failure`` naming the path, the step and errno.
    public static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        func fail(_ step: String) -> Failure {
            let code = errno
            return Failure(path: path, reason: "\(step): \(String(cString: strerror(code))) (errno \(code))")
        }
        if let descriptor = ownDescriptor(path) {
            if let failure = writeAll(bytes, to: descriptor, fail) { throw failure }
            return
        }
        let target = try resolvedLinks(path, fail)
        var info = stat()
        var mode: mode_t = 0o644
        var replacing = false
        if stat(target, &info) == 0 {
            if info.st_mode & S_IFMT != S_IFREG {
                // A FIFO, a device, a socket: written in place (a rename would replace the node itself).
                let fd = open(target, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw fail("open") }
                let failure = writeAll(bytes, to: fd, fail)
                if close(fd) != 0, failure == nil { throw fail("close") }
                if let failure { throw failure }
                return
            }
            mode = info.st_mode & 0o777
            replacing = true
        }
        let temporary = temporaryBeside(target)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw fail("create \(temporary)") }
        var failure = writeAll(bytes, to: fd, fail)
        // open(2) applies the umask; an existing file's bits are kept exactly, as its owner set them.
        if failure == nil && replacing && fchmod(fd, mode) != 0 { failure = fail("chmod \(temporary)") }
        if failure == nil && fsync(fd) != 0 { failure = fail("fsync") }
        if close(fd) != 0 && failure == nil { failure = fail("close") }
        if failure == nil && rename(temporary, target) != 0 { failure = fail("rename to \(target)") }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// Writes the file that `produce` makes to `path`, whole or not at all, by the same rules as
    /// ``write(_:to:)`` (a symbolic link followed, a replaced file's permission bits kept, a FIFO, device or
    /// `/dev/stdout` written through): for files too large to hold in memory or made by another writer (SQLite, a
    /// copy), as `waymark tiles` writes its archives.
    ///
    /// `produce` is called once with a path that does not exist and must create the complete file there (a
    /// temporary file beside the final target, `.<name>.tmp-<pid>`; for a FIFO, a device or a descriptor, one in
    /// `$TMPDIR`, default `/tmp`, whose bytes are then copied through). Its file is then given the replaced file's
    /// permission bits, flushed with `fsync` and renamed over the target. A failure, of `produce` or of a step here,
    /// removes the temporary file and leaves an existing target as it was.
    /// - Throws: what `produce` throws, unchanged, or ``Failure`` naming the path, the step and errno.
    public static func write(to path: String, producing produce: (_ temporary: String) throws -> Void) throws {
        func fail(_ step: String) -> Failure {
            let code = errno
            return Failure(path: path, reason: "\(step): \(String(cString: strerror(code))) (errno \(code))")
        }
        var descriptor = ownDescriptor(path)
        let target = descriptor == nil ? try resolvedLinks(path, fail) : path
        var info = stat()
        let exists = descriptor == nil && stat(target, &info) == 0
        if descriptor != nil || (exists && info.st_mode & S_IFMT != S_IFREG) {
            // Made aside, then copied through: a rename would replace the FIFO or device node itself.
            let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            let name = target.split(separator: "/").last.map(String.init) ?? "out"
            let temporary = "\(folder)/.\(name).tmp-\(getpid())"
            unlink(temporary)
            defer { unlink(temporary) }
            try produce(temporary)
            let source = open(temporary, O_RDONLY | O_CLOEXEC)
            guard source >= 0 else { throw fail("open \(temporary)") }
            defer { close(source) }
            let opened = descriptor == nil
            if opened {
                descriptor = open(target, O_WRONLY | O_CLOEXEC)
                guard descriptor! >= 0 else { throw fail("open") }
            }
            var failure = copyAll(from: source, to: descriptor!, fail)
            if opened && close(descriptor!) != 0 && failure == nil { failure = fail("close") }
            if let failure { throw failure }
            return
        }
        let temporary = temporaryBeside(target)
        // A file left by an earlier process with this id would be appended to (SQLite opens what is there).
        unlink(temporary)
        // The folder must take a new file before `produce` runs (a missing folder, no permission): named here, with
        // the step and errno, rather than by the producer's own words about its own temporary names.
        let probe = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard probe >= 0 else { throw fail("create \(temporary)") }
        close(probe)
        unlink(temporary)
        do { try produce(temporary) } catch {
            unlink(temporary)
            throw error
        }
        let fd = open(temporary, O_RDONLY | O_CLOEXEC)
        var failure: Failure?
        if fd < 0 {
            failure = fail("open \(temporary)")
        } else {
            if exists && fchmod(fd, info.st_mode & 0o777) != 0 { failure = fail("chmod \(temporary)") }
            if failure == nil && fsync(fd) != 0 { failure = fail("fsync") }
            if close(fd) != 0 && failure == nil { failure = fail("close") }
        }
        if failure == nil && rename(temporary, target) != 0 { failure = fail("rename to \(target)") }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// The temporary file beside `target` that a write renames over it: `.<name>.tmp-<pid>` in the same folder, so
    /// the rename stays on one file system.
    static func temporaryBeside(_ target: String) -> String {
        let slash = target.lastIndex(of: "/")
        let folder = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        return "\(folder).\(name).tmp-\(getpid())"
    }

    /// Copies everything `source` reads to `fd`; the failure, or `nil`.
    static func copyAll(from source: Int32, to fd: Int32, _ fail: (String) -> Failure) -> Failure? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(source, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return fail("read")
            }
            if n == 0 { return nil }
            if let failure = writeAll(Array(buffer[0..<n]), to: fd, fail) { return failure }
        }
    }

    /// The descriptor of this process that `path` names (`/dev/stdout` 1, `/dev/stderr` 2, `/dev/fd/N`,
    /// `/proc/self/fd/N`), or `nil`.
    static func ownDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                let digits = path.dropFirst(prefix.count)
                guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
                return Int32(digits)
            }
            return nil
        }
    }

    /// `path` with its last component's symbolic links followed (a relative link is read against the link's folder;
    /// a dangling link gives the path it points to). The folders on the way are left as they are: the temporary file
    /// goes in the final target's folder, so the rename stays in one file system.
    static func resolvedLinks(_ path: String, _ fail: (String) -> Failure) throws(Failure) -> String {
        var current = path
        for _ in 0...maxLinks {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw fail("readlink \(current)") }
            let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") {
                current = link
            } else {
                let folder = current.lastIndex(of: "/").map { String(current[...$0]) } ?? ""
                current = folder + link
            }
        }
        errno = ELOOP
        throw fail("follow links of \(path)")
    }

    /// Writes all of `bytes` to `fd`, retrying after `EINTR`; the failure, or `nil`.
    static func writeAll(_ bytes: [UInt8], to fd: Int32, _ fail: (String) -> Failure) -> Failure? {
        var written = 0
        var failure: Failure?
        bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = fail("write")
                    return
                }
                written += n
            }
        }
        return failure
    }
}
