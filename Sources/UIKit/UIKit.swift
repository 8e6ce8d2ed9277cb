// `import UIKit` on Linux: the LinuxUIKit subset plus the app entry points wired to the window backends (SDL2 when
// there is a display, headless otherwise). On Apple platforms this module is not built: the system UIKit is used.
@_exported import CoreGraphics
@_exported import Foundation
@_exported import LinuxUIKit
@_exported import QuartzCore
import UIKitSDL

// `URLSession` and `URLRequest` live in FoundationNetworking on Linux; iOS code gets them from `import UIKit`.
#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif

/// Runs the app, as UIKit's `UIApplicationMain`: creates ``UIApplication/shared``, an instance of the delegate class
/// named `delegateClassName` (a `UIResponder` conforming to ``UIApplicationDelegate``, `"Module.Class"` as
/// `NSStringFromClass` gives it), calls its launch methods, and services the window loop until the last window
/// closes (then `applicationWillTerminate(_:)`, once).
///
/// Waymark's own command-line switches are read from `argv` (and left there for the app): `--headless` runs without
/// a display on a virtual clock, `--window` insists on a window (exit 1 with a message when there is no display),
/// `--snapshot FILE.png` (headless) writes the first idle frame and ends the run, `--size WxH` the window size in
/// points (default 800x600), `--scale S` device pixels per point. Without `--window`, no display means headless, with
/// one line on stderr. See ``UIApplicationHostOptions``.
/// - Parameters:
///   - argc: the number of entries of `argv`.
///   - argv: the command line (`CommandLine.unsafeArgv`), program name first.
///   - principalClassName: ignored (Linux has one application class).
///   - delegateClassName: the delegate class's name, `"Module.Class"`; `nil` or an unknown name ends the run with 1.
/// - Returns: the process exit status (0; 1 when a window was asked for and there is no display, or the delegate
///   class cannot be found).
@preconcurrency @MainActor public func UIApplicationMain(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ principalClassName: String?,
    _ delegateClassName: String?
) -> Int32 {
    let arguments = (0..<Int(argc)).compactMap { argv[$0].map { String(cString: $0) } }
    guard let name = delegateClassName, let type = _typeByName(name) as? any UIApplicationDelegate.Type
    else {
        FileHandle.standardError.write(
            Data("UIApplicationMain: no UIApplicationDelegate class named \(delegateClassName ?? "nil")\n".utf8))
        return 1
    }
    return UIApplicationMain(delegate: type, arguments: arguments)
}

/// Runs the app with an instance of `delegate` (see ``UIApplicationMain(_:_:_:_:)``); `arguments` defaults to
/// `CommandLine.arguments`. Waymark's own spelling (Swift has no class-name lookup on Linux).
@preconcurrency @MainActor public func UIApplicationMain(
    delegate: any UIApplicationDelegate.Type, arguments: [String] = CommandLine.arguments
) -> Int32 {
    UIApplicationMain(delegate: delegate, options: UIApplicationHostOptions(arguments: arguments))
}

/// Runs the app with an instance of `delegate` and host options given in code (Waymark's own; see
/// ``UIApplicationHostOptions``): for apps with their own command line.
@preconcurrency @MainActor public func UIApplicationMain(
    delegate: any UIApplicationDelegate.Type, options: UIApplicationHostOptions
) -> Int32 {
    ApplicationRunner.run(delegate: delegate.init(), options: options, makeWindowBackend: SDLWindowBackend.make)
}

extension UIApplicationDelegate {
    /// `@main` on the app delegate class, as on iOS: runs ``UIApplicationMain(delegate:arguments:)`` with this class
    /// and exits with its status.
    public static func main() {
        exit(UIApplicationMain(delegate: Self.self))
    }
}
