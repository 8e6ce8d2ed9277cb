import Foundation

/// Where LinuxUIKit reports recoverable problems (an undecodable image, a missing file): one line on standard error,
/// prefixed `[LinuxUIKit]`.
enum UIKitLog {
    static func warning(_ message: String) {
        FileHandle.standardError.write(Data("[LinuxUIKit] warning: \(message)\n".utf8))
    }
}
