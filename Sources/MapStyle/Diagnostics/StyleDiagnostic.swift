/// A problem found in a style: how bad it is, where it is (a JSON path) and what is wrong.
///
/// Diagnostics never stop a style from loading; the part they name falls back to its default or is skipped, as the
/// message says. Model: MapLibre style spec `ValidationError` (`src/error/validation_error.ts`).
public struct StyleDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Equatable {
        /// The style breaks the spec; the named part was dropped or replaced by its default.
        case error
        /// The style is valid but something is ignored or unsupported (unknown property, unsupported source type).
        case warning
    }

    /// Error or warning.
    public var severity: Severity
    /// Where the problem is, in JavaScript notation: `layers[3].paint.line-width`, `sources.world.url`; an
    /// expression's inner position is appended as `[i][j]`. Empty for the document root.
    public var path: String
    /// What is wrong and what Waymark did about it.
    public var message: String
    /// The 1-based line in the style file where the value at ``path`` (or its nearest enclosing value) starts, or
    /// `nil` for styles built from parsed JSON.
    public var line: Int?

    /// Creates a diagnostic.
    /// - Parameters:
    ///   - severity: error or warning.
    ///   - path: JSON path of the offending value.
    ///   - message: the explanation.
    public init(_ severity: Severity, path: String, _ message: String) {
        self.severity = severity
        self.path = path
        self.message = message
    }

    /// `error: layers[3].paint.line-width: message`, with ` (line N)` after the path when the line is known.
    public var description: String {
        let lineText = line.map { " (line \($0))" } ?? ""
        return path.isEmpty
            ? "\(severity.rawValue)\(lineText): \(message)" : "\(severity.rawValue): \(path)\(lineText): \(message)"
    }
}

/// A style file that cannot be used at all: unreadable, not JSON, or JSON whose root is not an object.
public struct StyleLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path as given, or `<string>` for in-memory text.
    public var file: String
    /// 1-based line of a syntax error, or `nil` when the problem is not positional.
    public var line: Int?
    /// 1-based column (UTF-8 bytes) of a syntax error, or `nil`.
    public var column: Int?
    /// What went wrong.
    public var message: String

    /// `file:line:column: message` (position omitted when unknown).
    public var description: String {
        if let line, let column { return "\(file):\(line):\(column): \(message)" }
        return "\(file): \(message)"
    }
}
