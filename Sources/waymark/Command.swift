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

    /// Writes `lines` on standard error as warnings of `command` (default ``name``; `waymark COMMAND: warning:
    /// LINE`): at most `limit` of them, then `waymark COMMAND: warning: … and K more from SOURCE` for the rest, so an
    /// input with a million unusable features names the first few instead of printing a million lines. `source` names
    /// the input the lines are about (a file). Nothing for no lines.
    static func warn(_ lines: [String], from source: String, command: String? = nil, limit: Int = 20) {
        guard !lines.isEmpty else { return }
        let prefix = "waymark \(command ?? name): warning: "
        var text = lines.prefix(limit).map { "\(prefix)\($0)\n" }.joined()
        if lines.count > limit { text += "\(prefix)… and \(lines.count - limit) more from \(source)\n" }
        FileHandle.standardError.write(Data(text.utf8))
    }
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

    /// Parses `arguments`. `valued` lists the options that take a value; `switches` the ones that do not; `needs`
    /// says what an option's value is (`--camera` → `LAT,LON,ZOOM[,BEARING[,PITCH]] numbers`) for the message when
    /// it is missing.
    /// Throws ``UsageError`` for unknown options, or for a value that is missing, starts with `--` or is another of
    /// the command's options (`--camera -o out.png` names `--camera`, not `out.png`).
    init(_ arguments: [String], valued: Set<String>, switches: Set<String> = [], needs: [String: String] = [:]) throws {
        var i = 0
        while i < arguments.count {
            let arg = arguments[i]
            if arg.hasPrefix("-") && arg.count > 1 && Double(arg) == nil && !arg.contains(",") {
                if switches.contains(arg) {
                    flags.insert(arg)
                } else if valued.contains(arg) {
                    let next = i + 1 < arguments.count ? arguments[i + 1] : nil
                    guard let next, !next.hasPrefix("--"), !valued.contains(next), !switches.contains(next) else {
                        throw UsageError(
                            "\(arg) needs \(needs[arg] ?? "a value")" + (next.map { ", got '\($0)'" } ?? ""))
                    }
                    options[arg] = next
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

/// Command-line numbers: plain decimal only, `[+-]?DIGITS[.DIGITS][e[+-]DIGITS]` (also `.5` and `5.`). Swift's
/// `Double(String)` also reads hexadecimal (`0x1`), `inf`, `nan` and `infinity`; a user typing those made a mistake.
enum DecimalNumber {
    /// The value of `text` (surrounding spaces ignored), or `nil` when it is not a plain finite decimal number.
    static func parse<S: StringProtocol>(_ text: S) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        var chars = Substring(t).unicodeScalars[...]
        if let first = chars.first, first == "+" || first == "-" { chars = chars.dropFirst() }
        func digits() -> Int {
            let n = chars.prefix(while: { ("0"..."9").contains($0) }).count
            chars = chars.dropFirst(n)
            return n
        }
        var mantissa = digits()
        if chars.first == "." {
            chars = chars.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return nil }
        if let e = chars.first, e == "e" || e == "E" {
            chars = chars.dropFirst()
            if let sign = chars.first, sign == "+" || sign == "-" { chars = chars.dropFirst() }
            guard digits() > 0 else { return nil }
        }
        guard chars.isEmpty, let value = Double(t), value.isFinite else { return nil }
        return value
    }
}
