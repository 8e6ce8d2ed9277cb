import Foundation

extension UIApplication {
    /// Keys of the options of ``open(_:options:completionHandler:)``, as UIKit's
    /// `UIApplication.OpenExternalURLOptionsKey`. Accepted and ignored on Linux.
    public struct OpenExternalURLOptionsKey: Hashable, RawRepresentable, Sendable {
        /// The key's name.
        public var rawValue: String
        /// Creates a key.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Open only when an installed app handles the URL as a universal link (ignored on Linux).
        public static let universalLinksOnly = OpenExternalURLOptionsKey(
            rawValue: "UIApplicationOpenURLOptionUniversalLinksOnly")
    }

    /// The URL string that opens this app's page in Settings, as UIKit's constant: `"app-settings:"`. On Linux
    /// there is no Settings app: ``canOpenURL(_:)`` returns false for it, and ``open(_:options:completionHandler:)``
    /// logs one line and completes with false.
    public static let openSettingsURLString = "app-settings:"

    /// Whether `url` is ``openSettingsURLString``'s URL (scheme `app-settings`, any case).
    static func isSettingsURL(_ url: URL) -> Bool { url.scheme?.lowercased() == "app-settings" }

    /// The URL schemes Waymark hands on to the desktop: `http`, `https`, `mailto`, `tel`, `sms`, `facetime` and
    /// `maps` (Waymark's own list; iOS asks the installed apps).
    public static let openableURLSchemes: Set<String> = ["http", "https", "mailto", "tel", "sms", "facetime", "maps"]

    /// Whether ``open(_:options:completionHandler:)`` would hand `url` on, as UIKit's `canOpenURL(_:)`: true when
    /// its scheme (any case) is one of ``openableURLSchemes``. It does not check for a display or for `xdg-open`:
    /// without them the URL is logged instead, which counts as handled (see ``open(_:options:completionHandler:)``).
    /// - Thread rules: main actor only.
    public func canOpenURL(_ url: URL) -> Bool {
        if Self.isSettingsURL(url) { return false }
        guard let scheme = url.scheme?.lowercased() else { return false }
        return Self.openableURLSchemes.contains(scheme)
    }

    /// Opens `url` in another app, as UIKit's method. Behaviour on Linux (Waymark's own): a URL whose scheme
    /// ``canOpenURL(_:)`` refuses is not opened (`success` false). Otherwise, when a display is present (`DISPLAY` or
    /// `WAYLAND_DISPLAY` set) and `xdg-open` is on `PATH`, the URL is handed to `xdg-open` (started, not waited for;
    /// `success` is whether it started); with no display (headless runs, tests) one line
    /// `[LinuxUIKit] open <url>: no display, not opened` goes to standard error and `success` is true, as an app
    /// would see on a device where the URL opened. `options` are accepted and ignored.
    /// - Parameters:
    ///   - url: the URL to open.
    ///   - options: accepted and ignored on Linux. Defaults to none.
    ///   - completion: called once with `success`, on the main actor at the next frame (never inside this call).
    /// - Thread rules: main actor only.
    public func open(
        _ url: URL, options: [OpenExternalURLOptionsKey: Any] = [:],
        completionHandler completion: (@MainActor @Sendable (Bool) -> Void)? = nil
    ) {
        let success: Bool
        if Self.isSettingsURL(url) {
            UIKitLog.info("open \(url.absoluteString): no Settings app on Linux, not opened")
            success = false
        } else if !canOpenURL(url) {
            UIKitLog.warning("open \(url.absoluteString): no handler for this URL scheme")
            success = false
        } else if let opener = URLOpening.opener {
            success = opener(url)
        } else {
            success = URLOpening.handOn(url)
        }
        guard let completion else { return }
        UIAnimator.shared.enqueue { completion(success) }
    }
}

/// How ``UIApplication/open(_:options:completionHandler:)`` hands a URL on.
@MainActor package enum URLOpening {
    /// Replaces the desktop hand-off (for tests): receives each openable URL, returns the success to report.
    package static var opener: ((URL) -> Bool)?

    /// Whether `environment` has a display: `DISPLAY` or `WAYLAND_DISPLAY` set and not empty.
    static func hasDisplay(_ environment: [String: String]) -> Bool {
        !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// The `xdg-open` executable on `environment`'s `PATH`, or nil.
    static func xdgOpen(_ environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/xdg-open"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Starts `xdg-open url` when `environment` has a display and `xdg-open`, else logs one line; returns the
    /// success.
    package static func handOn(
        _ url: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        guard hasDisplay(environment), let executable = xdgOpen(environment) else {
            UIKitLog.info("open \(url.absoluteString): no display, not opened")
            return true
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [url.absoluteString]
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
            return true
        } catch {
            UIKitLog.warning("open \(url.absoluteString): xdg-open did not start: \(error)")
            return false
        }
    }
}
