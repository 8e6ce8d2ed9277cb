/// A URL query string split into its parameters, in order, as an HTML form encodes them (`application/x-www-form-urlencoded`):
/// pairs separated by `&`, name and value by the first `=`, `+` a space and `%XX` a byte. Repeated names
/// (`markers`, `path`, `visible`, `style`) keep every occurrence in order.
///
/// Waymark's own (Google's Static Maps API is a URL, not a Swift type). Never fails: a bad `%` escape is kept as
/// written, and bytes that are not UTF-8 decode with replacement characters, so the parameter that holds them fails
/// its own check with a message naming it.
public struct StaticMapQuery: Sendable, Equatable {
    /// The parameters in order: decoded name and decoded value.
    public var parameters: [(name: String, value: String)]

    /// Splits and decodes `query` (the part after `?`, without it); empty pairs (`&&`) are skipped.
    public init(_ query: some StringProtocol) {
        parameters = query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let eq = pair.firstIndex(of: "=") {
                return (Self.decode(pair[..<eq]), Self.decode(pair[pair.index(after: eq)...]))
            }
            return (Self.decode(pair), "")
        }
    }

    /// Creates a query from decoded parameters.
    public init(parameters: [(name: String, value: String)]) { self.parameters = parameters }

    /// Splits a request target (`/path?query`) into its path and query (empty without `?`).
    public static func split(target: String) -> (path: String, query: String) {
        guard let q = target.firstIndex(of: "?") else { return (target, "") }
        return (String(target[..<q]), String(target[target.index(after: q)...]))
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] { parameters.filter { $0.name == name }.map(\.value) }

    /// The last value of `name` (Google takes the last of a repeated single-valued parameter), or `nil`.
    public func value(_ name: String) -> String? { parameters.last { $0.name == name }?.value }

    /// Form decoding of one name or value: `+` is a space, `%XX` a byte; a malformed escape is kept as written.
    public static func decode(_ text: some StringProtocol) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let utf8 = Array(text.utf8)
        var i = 0
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x41 + 10
            case 0x61...0x66: return b - 0x61 + 10
            default: return nil
            }
        }
        while i < utf8.count {
            let b = utf8[i]
            if b == 0x2B {
                bytes.append(0x20)
            } else if b == 0x25, i + 2 < utf8.count, let h = hex(utf8[i + 1]), let l = hex(utf8[i + 2]) {
                bytes.append(h << 4 | l)
                i += 2
            } else {
                bytes.append(b)
            }
            i += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Equal when both hold the same names and values in the same order.
    public static func == (a: StaticMapQuery, b: StaticMapQuery) -> Bool {
        a.parameters.elementsEqual(b.parameters) { $0.name == $1.name && $0.value == $1.value }
    }
}
