import Foundation
import RenderConformance

/// `waymark render-test DIR [--filter PATTERN] [--write-actual OUTDIR] [--strict]`: runs MapLibre render-test cases.
///
/// Prints one line per case (`PASS`/`FAIL`/`SKIP`), a per-layer-type tally, and a closing
/// `N passed, M failed[, K skipped]` line. Exit code 0 even when cases fail, unless `--strict` (then 1 when any case
/// failed); 2 for usage errors. See `RenderTestRunner` for the comparison rules.
struct RenderTestCommand: WaymarkCommand {
    static let name = "render-test"
    static let drawsLabels = true
    static let summary = "run MapLibre render-test cases (style.json + expected.png) and report pass rates"
    static let usage = """
        usage: waymark render-test DIR [--filter PATTERN] [--write-actual OUTDIR] [--strict]
          DIR                   a suite folder (e.g. metrics/integration or its render-tests), or one case
          --filter PATTERN      run cases whose name contains PATTERN (a glob when it contains '*')
          --write-actual OUTDIR write OUTDIR/<case>/actual.png and diff.png (must be outside DIR)
          --strict              exit 1 when any case failed
        local:// URLs resolve into the folder holding render-tests/ (MapLibre's metrics/integration).
        Tolerance: pixelmatch YIQ threshold 0.1285 with anti-aliasing detection; a case passes when the
        fraction of differing pixels is at most its metadata.test.allowed (default 0.00015).
        """

    @MainActor static func run(_ arguments: [String]) throws {
        let args = try ArgumentReader(arguments, valued: ["--filter", "--write-actual"], switches: ["--strict"])
        guard args.positionals.count == 1, let dir = args.positionals.first else {
            throw UsageError(args.positionals.isEmpty ? "missing DIR" : "expected one DIR")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw RuntimeError("\(dir): no such folder")
        }
        let root = URL(fileURLWithPath: dir).standardizedFileURL.resolvingSymlinksInPath()
        let cases = RenderTestCase.discover(in: root, filter: args.value("--filter"))
        guard !cases.isEmpty else { throw RuntimeError("\(dir): no render-test cases (style.json + expected*.png)") }
        var output: URL?
        if let out = args.value("--write-actual") {
            let url = URL(fileURLWithPath: out).standardizedFileURL
            // Refuse to write inside the suite or its assets (third-party fixtures stay untouched).
            let protected = [root, cases[0].assetsRoot.standardizedFileURL.resolvingSymlinksInPath()]
            for folder in protected where RenderTestCase.isInside(url, folder) {
                throw UsageError("--write-actual must be outside the suite folder \(folder.path)")
            }
            output = url
        }
        let runner = RenderTestRunner(outputDirectory: output)
        let results = runner.run(cases) { result in
            FileHandle.standardOutput.write(Data((result.line + "\n").utf8))
        }
        let tally = RenderTestRunner.tally(results)
        print("")
        for group in RenderTestCase.groups {
            guard let t = tally[group] else { continue }
            print(
                "\(group): \(t.passed)/\(t.total) passed (\(String(format: "%.1f", t.percent)) %), "
                    + "\(t.failed) failed (\(t.nearMisses) within 1 % of the pixels), \(t.skipped) skipped")
        }
        print(RenderTestRunner.summaryLine(results))
        if args.has("--strict") && (tally["all"]?.failed ?? 0) > 0 {
            throw RuntimeError("\(tally["all"]!.failed) case(s) failed")
        }
    }
}
