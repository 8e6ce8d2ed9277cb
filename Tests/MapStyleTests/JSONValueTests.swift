import MapStyle
import Testing

@Test func parsesScalarsArraysAndObjects() throws {
    let v = try JSONValue.parse(#" {"a": [1, -2.5e2, true, false, null], "b": {"c": "d"}} "#)
    #expect(v["a"] == .array([.number(1), .number(-250), .bool(true), .bool(false), .null]))
    #expect(v["b"]?["c"] == .string("d"))
}

@Test(arguments: [
    (#""\u00e4\n\t\"\\\/""#, "ä\n\t\"\\/"),
    (#""\ud83d\ude00""#, "😀"),
    (#""Helsingfors – Helsinki""#, "Helsingfors – Helsinki"),
])
func decodesStringEscapes(input: String, expected: String) throws {
    #expect(try JSONValue.parse(input) == .string(expected))
}

@Test(arguments: [
    ("{\n  \"a\": 1,\n  \"b\": tru\n}", 3, 8),
    ("[1, 2,]", 1, 7),
    ("{\"a\" 1}", 1, 6),
    ("", 1, 1),
    ("[1] x", 1, 5),
    ("\"abc", 1, 1),
])
func reportsSyntaxErrorPositions(input: String, line: Int, column: Int) {
    #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(input) }
    do {
        _ = try JSONValue.parse(input)
    } catch {
        #expect(error.line == line)
        #expect(error.column == column)
    }
}

@Test func rejectsExcessiveNestingWithoutCrashing() {
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(deep) }
}
