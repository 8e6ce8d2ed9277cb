#if canImport(Glibc)
    import Glibc
#endif

/// Writes files whole or not at all: the bytes go to a temporary file beside the target (`.<name>.tmp-<pid>`),
/// are flushed to disk, and the temporary file is renamed over the target. A failure (full disk, no permission, a
/// missing folder) removes the temporary file and leaves any existing target as it was (docs/BEHAVIOUR.md D24).
/// Waymark's own.
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

    /// Writes `bytes` to `path` atomically (see the type); the file gets mode 0644 less the umask.
    /// - Throws: ``Failure`` naming the path, the step and errno.
    public static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = "\(folder).\(name).tmp-\(getpid())"
        func fail(_ step: String) -> Failure {
            let code = errno
            return Failure(path: path, reason: "\(step): \(String(cString: strerror(code))) (errno \(code))")
        }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw fail("create \(temporary)") }
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
        if failure == nil && fsync(fd) != 0 { failure = fail("fsync") }
        if close(fd) != 0 && failure == nil { failure = fail("close") }
        if failure == nil && rename(temporary, path) != 0 { failure = fail("rename to \(path)") }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }
}
