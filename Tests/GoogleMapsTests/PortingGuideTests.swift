import Foundation
import Testing

/// Issue 29: every Swift example of README.md's "Porting an iOS map screen" is compiled by `make test`: each appears,
/// line for line (indentation aside), in Tests/CompileChecks/Sources/Swift5Checks/PortingGuideExamples.swift, which
/// scripts/dev/compile-checks.sh builds in Swift 5 and Swift 6 mode.
@Suite("Porting guide")
struct PortingGuideTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Swift code blocks of `section` in `markdown`.
    static func swiftBlocks(in markdown: String, section: String) -> [[String]] {
        var blocks: [[String]] = []
        var inSection = false
        var current: [String]?
        for line in markdown.components(separatedBy: "\n") {
            if line.hasPrefix("## ") { inSection = line == "## " + section }
            guard inSection else { continue }
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// `text`'s lines without indentation and blank lines.
    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test("every Swift block of the section is in the compiled examples")
    func examplesAreCompiled() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(
            contentsOf: Self.root.appendingPathComponent(
                "Tests/CompileChecks/Sources/Swift5Checks/PortingGuideExamples.swift"), encoding: .utf8)
        let swift6 = try String(
            contentsOf: Self.root.appendingPathComponent(
                "Tests/CompileChecks/Sources/Swift6Checks/PortingGuideExamples.swift"), encoding: .utf8)
        #expect(source == swift6, "the Swift 5 and Swift 6 copies of the examples differ")
        let blocks = Self.swiftBlocks(in: readme, section: "Porting an iOS map screen")
        #expect(blocks.count >= 2)
        let compiled = Self.normalized(source.components(separatedBy: "\n")).joined(separator: "\n")
        for block in blocks {
            let text = Self.normalized(block).joined(separator: "\n")
            #expect(compiled.contains(text), "not compiled by Tests/CompileChecks:\n\(text)")
        }
    }

    /// The table of selector replacements promises only what the tree has: no "not yet" caveat, and each
    /// replacement's call (receiver aside, up to its first label) is in the compiled examples. A new-user trial of
    /// issue 31 found `addAction(_:for:)` marked as missing although the UIKit controls have it.
    @Test("every selector replacement the table names is compiled")
    func selectorReplacementsAreCompiled() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(
            contentsOf: Self.root.appendingPathComponent(
                "Tests/CompileChecks/Sources/Swift5Checks/PortingGuideExamples.swift"), encoding: .utf8)
        var inSection = false
        var rows: [String] = []
        for line in readme.components(separatedBy: "\n") {
            if line.hasPrefix("## ") { inSection = line == "## Porting an iOS map screen" }
            if inSection, line.hasPrefix("| `") { rows.append(line) }
        }
        #expect(rows.count >= 4)
        for row in rows {
            #expect(!row.lowercased().contains("not yet"), "\(row)")
            let cells = row.split(separator: "|")
            guard cells.count >= 2, case let spans = cells[1].split(separator: "`"), spans.count >= 2 else {
                Issue.record("no code in the replacement cell: \(row)")
                continue
            }
            var call = Substring(spans[1].prefix { $0 != ":" && $0 != "{" }).trimmingCharacters(in: .whitespaces)
            if let dot = call.firstIndex(of: "."), call.first?.isLowercase == true {
                call = String(call[call.index(after: dot)...])
            }
            #expect(source.contains(call), "\(call) (\(row)) is not in the compiled examples")
        }
    }
}
