import Foundation

/// Where LinuxUIKit reports recoverable problems (an undecodable image, a missing file): one line on standard error,
/// prefixed `[LinuxUIKit]`.
enum UIKitLog {
    static func warning(_ message: String) {
        FileHandle.standardError.write(Data("[LinuxUIKit] warning: \(message)\n".utf8))
    }

    /// One informational line (something Linux does instead of what iOS would, such as a URL it cannot open).
    static func info(_ message: String) {
        FileHandle.standardError.write(Data("[LinuxUIKit] \(message)\n".utf8))
    }
}
