import Foundation
import MapStyle

/// A map style of Google's styling rules (spec §1.15): a JSON array of `{featureType, elementType, stylers}` rules,
/// as made by Google's styling wizard or taken from a gallery. Apply it with ``GMSMapView/mapStyle``.
///
/// Waymark translates the rules onto the layers of the map's MapLibre style (the bundled OpenMapTiles-schema style,
/// or a Protomaps-schema style) through the engine's `GoogleMapStyle` and its feature table (see STYLING.md): colours
/// with Google's colour operations in order, `weight`, and `visibility` (`off` features draw nothing and cannot be
/// tapped). An unknown `featureType`, `elementType` or styler is ignored with a logged warning, as Google ignores it;
/// a feature type without counterpart in the map's data is accepted and logged once. Immutable; any thread.
open class GMSMapStyle: NSObject, @unchecked Sendable {
    /// The parsed rules (Waymark's own access to them, for hosts that apply them elsewhere).
    public let googleStyle: GoogleMapStyle

    /// Wraps parsed rules (Waymark's own).
    /// - Parameter googleStyle: the rules.
    public init(googleStyle: GoogleMapStyle) {
        self.googleStyle = googleStyle
        super.init()
    }

    /// Creates a style from a string containing Google's styling JSON.
    /// - Parameter style: the JSON text.
    /// - Throws: `GoogleMapStyleError` when the JSON is invalid (with line and column) or a rule has the wrong shape
    ///   (naming the rule, the key and the line).
    public convenience init(jsonString style: String) throws {
        let parsed = try GoogleMapStyle(jsonString: style)
        for warning in parsed.warnings { GMSMapStyle.warn("GMSMapStyle: \(warning)") }
        self.init(googleStyle: parsed)
    }

    /// Creates a style from a file containing Google's styling JSON.
    /// - Parameter fileURL: a `file://` URL.
    /// - Throws: ``GMSMapStyleFileError`` when the URL is not a file URL or the file cannot be read;
    ///   `GoogleMapStyleError` (its message prefixed with the path) when the style is invalid.
    public convenience init(contentsOfFileURL fileURL: URL) throws {
        guard fileURL.isFileURL else {
            throw GMSMapStyleFileError(message: "\(fileURL.absoluteString) is not a file URL")
        }
        guard let data = FileManager.default.contents(atPath: fileURL.path) else {
            throw GMSMapStyleFileError(message: "cannot read \(fileURL.path)")
        }
        let parsed: GoogleMapStyle
        do {
            parsed = try GoogleMapStyle(jsonBytes: [UInt8](data))
        } catch {
            throw GoogleMapStyleError(
                line: error.line, column: error.column, message: "\(fileURL.path): \(error.message)")
        }
        for warning in parsed.warnings { GMSMapStyle.warn("GMSMapStyle \(fileURL.path): \(warning)") }
        self.init(googleStyle: parsed)
    }

    /// Logs on the main actor (now when called there).
    static func warn(_ message: String) {
        if Thread.isMainThread {
            MainActor.assumeIsolated { GMSLog.warning(message) }
        } else {
            Task { @MainActor in GMSLog.warning(message) }
        }
    }

    /// Feature types already reported as without counterpart (each is logged once per process).
    @MainActor static var reportedUnmatched: Set<String> = []

    /// Applies the rules to `style`, logging each feature type without counterpart once per process.
    func apply(to style: Style) -> Style {
        let translation = googleStyle.translate(style)
        if !translation.unmatchedFeatureTypes.isEmpty {
            let unmatched = translation.unmatchedFeatureTypes
            let report: @MainActor @Sendable () -> Void = {
                for type in unmatched where GMSMapStyle.reportedUnmatched.insert(type).inserted {
                    GMSLog.warning("GMSMapStyle: \(type) has no counterpart in the map's data; its rules draw nothing")
                }
            }
            if Thread.isMainThread { MainActor.assumeIsolated(report) } else { Task { @MainActor in report() } }
        }
        return translation.style
    }
}

/// Why ``GMSMapStyle/init(contentsOfFileURL:)`` could not read its file (Waymark's error type).
public struct GMSMapStyleFileError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// What is wrong, naming the URL or path.
    public var message: String
    /// The message.
    public var description: String { message }
    /// The message, as `localizedDescription` shows it.
    public var errorDescription: String? { message }
}

/// A style that does not parse shows its message as `localizedDescription` (`line 1, column 2: …`), as an app
/// presents the error `GMSMapStyle(jsonString:)` threw, instead of Foundation's generic text naming the type.
extension GoogleMapStyleError: LocalizedError {
    /// ``description``: the line and column when known, and what is wrong.
    public var errorDescription: String? { description }
}
