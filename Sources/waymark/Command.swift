import Foundation

/// One `waymark` subcommand. Each lives in its own file and is listed once in `main.swift`.
///
/// Exit codes (documented in README.md): 0 success or help; 1 runtime failure (a message on stderr);
/// 2 usage or validation error (a usage line on stderr); 3 images written without labels because the machine has no
/// fonts (the warning on stderr names the package to install; `FontAvailability`).
protocol WaymarkCommand {
    /// The word after `waymark`, for example `snapshot`.
    static var name: String { get }
    /// One line for `waymark help`.
    static var summary: String { get }
    /// Full usage text, printed for `--help` and after usage errors.
    static var usage: String { get }
    /// Runs the command with the arguments after its name. Throws ``UsageError`` or ``RuntimeError``.
    @MainActor static func run(_ arguments: [String]) throws
    /// Whether the command draws maps with labels: it then exits with 3 on a machine with no fonts. Default false.
    static var drawsLabels: Bool { get }
}

extension WaymarkCommand {
    static var drawsLabels: Bool { false }
}

/// A bad command line: printed with the command's usage; exit code 2.
struct UsageError: Error, CustomStringConvertible {
    /// What was wrong, naming the argument.
    var description: String
    init(_ description: String) { self.description = description }
}

/// A failure while running a valid command (unreadable file, failed render): exit code 1.
struct RuntimeError: Error, CustomStringConvertible {
    /// What failed, naming the input.
    var description: String
    init(_ description: String) { self.description = description }
}

/// Minimal argument reader shared by the subcommands: `--name value` options, `--flag` switches and positionals.
struct ArgumentReader {
    private(set) var positionals: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments`. `valued` lists the options that take a value; `switches` the ones that do not.
    /// Throws ``UsageError`` for unknown options or a missing value.
    init(_ arguments: [String], valued: Set<String>, switches: Set<String> = []) throws {
        var i = 0
        while i < arguments.count {
            let arg = arguments[i]
            if arg.hasPrefix("-") && arg.count > 1 && Double(arg) == nil && !arg.contains(",") {
                if switches.contains(arg) {
                    flags.insert(arg)
                } else if valued.contains(arg) {
                    guard i + 1 < arguments.count else { throw UsageError("\(arg) needs a value") }
                    options[arg] = arguments[i + 1]
                    i += 1
                } else {
                    throw UsageError("unknown option \(arg)")
                }
            } else {
                positionals.append(arg)
            }
            i += 1
        }
    }

    /// The value of `--name`, or `nil` when absent.
    func value(_ name: String) -> String? { options[name] }
    /// Whether the switch was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}
