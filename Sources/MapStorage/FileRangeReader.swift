import Foundation
import MapData

#if canImport(Glibc)
    import Glibc
#endif

/// A ``RangeReader`` over a local file, reading with `pread(2)` (no shared file position, so no lock is needed).
///
/// The identity is the file's size, modification time and inode, taken at open; the file stays open until the reader
/// is released. Thread rules: immutable; `read` may be called from any thread at once.
public final class FileRangeReader: RangeReader, @unchecked Sendable {
    /// The path as given.
    public let name: String
    /// The file's size in bytes at open.
    public let size: UInt64?
    /// `"<size>-<mtime seconds>.<nanoseconds>-<inode>"` at open.
    public let identity: String?
    private let descriptor: Int32

    /// Opens `path` read-only.
    /// - Throws: ``PMTilesError`` `.cannotRead` naming the path when it is missing, a folder, or unreadable.
    public init(path: String) throws {
        name = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PMTilesError(archive: path, reason: .cannotRead, detail: String(cString: strerror(errno)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw PMTilesError(archive: path, reason: .cannotRead, detail: "not a regular file")
        }
        descriptor = fd
        size = UInt64(info.st_size)
        identity = "\(info.st_size)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)-\(info.st_ino)"
    }

    deinit { close(descriptor) }

    /// The bytes `offset..<offset + length`, fewer when the file ends first (none at or past the end).
    /// - Throws: ``PMTilesError`` `.cannotRead` for I/O errors or a negative length.
    public func read(offset: UInt64, length: Int) throws -> [UInt8] {
        guard length >= 0, offset <= UInt64(Int64.max) else {
            throw PMTilesError(archive: name, reason: .cannotRead, detail: "bad range \(offset)+\(length)")
        }
        let available = (size ?? 0) > offset ? Int(min(UInt64(length), size! - offset)) : 0
        guard available > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: available)
        var done = 0
        while done < available {
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + done, available - done, off_t(offset) + off_t(done))
            }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                throw PMTilesError(
                    archive: name, reason: .cannotRead, detail: "at \(offset): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            done += n
        }
        if done < available { buffer.removeLast(available - done) }
        return buffer
    }
}
