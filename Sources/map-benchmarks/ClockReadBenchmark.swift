import WaymarkTime

/// Reads the system clock a million times: the harness's own overhead floor.
struct ClockReadBenchmark: Benchmark {
    let name = "clock-read"
    let unit = "reads"
    func run() throws -> Int {
        let clock = SystemClock()
        var sum = 0.0
        for _ in 0..<1_000_000 { sum += clock.now }
        blackHole(sum)
        return 1_000_000
    }
}
