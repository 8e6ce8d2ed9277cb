import Foundation

/// Runs SQL through Debian's `sqlite3` command-line shell (tests that build small MBTiles files).
public enum SQLiteScript {
    /// The shell's path.
    public static let shell = "/usr/bin/sqlite3"

    /// Whether the shell is installed (tests that need it are counted skips without it).
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: shell) }

    /// Runs `sql` against the database file at `path` (created when absent); returns the shell's exit status.
    public static func run(_ sql: String, database path: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = [path]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(sql.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// `bytes` as an SQL blob literal, `X'…'`.
    public static func blob(_ bytes: [UInt8]) -> String {
        "X'" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
    }
}
