import Foundation
import WaymarkTime

/// One measured case of `map-benchmarks` (model: swift-nio's NIOPerformanceTester).
///
/// `setUp` runs once, then `run` once to warm up, then `run` is timed `iterations` times; `tearDown` runs last.
protocol Benchmark {
    /// Unique name used on the command line to select the case, for example `projection`.
    var name: String { get }
    /// What one run does and what `run`'s return value counts (its unit), for the report.
    var unit: String { get }
    /// Timed runs after the warm-up. Defaults to 10.
    var iterations: Int { get }
    /// Prepares inputs; not timed.
    mutating func setUp() throws
    /// Does the measured work once and returns how many items it processed (for throughput); must not be optimised
    /// away, so return something derived from the work.
    mutating func run() throws -> Int
    /// Releases what `setUp` made; not timed.
    mutating func tearDown()
}

extension Benchmark {
    var iterations: Int { 10 }
    mutating func setUp() throws {}
    mutating func tearDown() {}
}

/// The result of one benchmark: wall-clock seconds per run and items per run.
struct BenchmarkResult: Encodable {
    var name: String
    var unit: String
    var iterations: Int
    var items: Int
    var medianSeconds: Double
    var minSeconds: Double
    /// Process CPU seconds (user + system, every thread) per timed run, averaged; above the wall time when several
    /// cores work (issue 17: both cores used).
    var cpuSecondsPerRun = 0.0
    /// Items per second at the median.
    var throughput: Double { medianSeconds > 0 ? Double(items) / medianSeconds : 0 }

    enum CodingKeys: String, CodingKey {
        case name, unit, iterations, items, medianSeconds, minSeconds, throughput, cpuSecondsPerRun
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(unit, forKey: .unit)
        try c.encode(iterations, forKey: .iterations)
        try c.encode(items, forKey: .items)
        try c.encode(medianSeconds, forKey: .medianSeconds)
        try c.encode(minSeconds, forKey: .minSeconds)
        try c.encode(throughput, forKey: .throughput)
        try c.encode(cpuSecondsPerRun, forKey: .cpuSecondsPerRun)
    }
}

/// Measures `benchmark`: set-up, one warm-up run, `iterations` timed runs, tear-down.
func measure(_ benchmark: inout some Benchmark, clock: SystemClock = SystemClock()) throws -> BenchmarkResult {
    try benchmark.setUp()
    defer { benchmark.tearDown() }
    var items = try benchmark.run()  // warm-up
    var times: [Double] = []
    let cpuStart = processCPUSeconds()
    for _ in 0..<max(1, benchmark.iterations) {
        let start = clock.now
        items = try benchmark.run()
        times.append(clock.now - start)
    }
    let cpu = (processCPUSeconds() - cpuStart) / Double(times.count)
    times.sort()
    let median =
        times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
    return BenchmarkResult(
        name: benchmark.name, unit: benchmark.unit, iterations: times.count, items: items, medianSeconds: median,
        minSeconds: times[0], cpuSecondsPerRun: cpu)
}

/// User + system CPU seconds of the whole process so far (getrusage).
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Formats seconds with a unit that keeps three significant figures readable (ns, µs, ms, s).
func formatSeconds(_ s: Double) -> String {
    switch s {
    case ..<1e-6: return String(format: "%.1f ns", s * 1e9)
    case ..<1e-3: return String(format: "%.2f µs", s * 1e6)
    case ..<1: return String(format: "%.2f ms", s * 1e3)
    default: return String(format: "%.3f s", s)
    }
}

/// Prevents the optimiser from removing a computed value.
@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
