import Dispatch
import Foundation
import MapData
import MapGeometry
import MapNetwork
import Testing

/// `BackgroundTileSource` runs blocking reads (PMTiles over HTTP: a range request and its wait) on threads of its own.
/// Its reads once ran on Dispatch's shared workers, where blocked reads starved the completions that would wake them
/// (URLSession delivers through Dispatch): Dispatch then added about a thread a second, one range request a second.
@Suite struct BackgroundTileSourceTests {
    /// A source whose every read waits for an answer delivered on Dispatch's global queue, as a range read waits for
    /// URLSession's completion.
    final class DispatchAnsweredSource: TileSource, @unchecked Sendable {
        var minZoom: Int { 0 }
        var maxZoom: Int { 14 }
        var metadata: TileSourceMetadata { TileSourceMetadata() }
        func tileData(at address: TileID) throws -> [UInt8]? {
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async { done.signal() }
            done.wait()
            return [UInt8(address.x & 0xff)]
        }
    }

    /// 64 requests through 8 read threads all complete while every read waits on Dispatch; with the reads on
    /// Dispatch's own workers this took about a second a request (over a minute), here it takes milliseconds, so a
    /// 20-s bound cannot be missed by a slow machine and cannot be met by the starving design.
    @Test func blockingReadsDoNotStarveDispatchCompletions() {
        let source = BackgroundTileSource(DispatchAnsweredSource(), concurrency: 8)
        let group = DispatchGroup()
        let results = ResultsBox()
        for x in 0..<64 {
            group.enter()
            _ = source.requestTile(at: TileID(z: 6, x: x, y: 1), priority: Double(x)) { result in
                results.add(x, result)
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 20) == .success, "only \(results.count) of 64 reads completed")
        #expect(results.count == 64)
        #expect(results.allMatchTheirAddress)
    }

    /// Requests cancelled before they start never read and never complete.
    @Test func cancelledRequestsDoNotRead() {
        let gate = DispatchSemaphore(value: 0)
        final class GatedSource: TileSource, @unchecked Sendable {
            let gate: DispatchSemaphore
            let reads = ResultsBox()
            init(gate: DispatchSemaphore) { self.gate = gate }
            var minZoom: Int { 0 }
            var maxZoom: Int { 14 }
            var metadata: TileSourceMetadata { TileSourceMetadata() }
            func tileData(at address: TileID) throws -> [UInt8]? {
                if address.x == 0 { gate.wait() }
                reads.add(address.x, .success(nil))
                return nil
            }
        }
        let base = GatedSource(gate: gate)
        let source = BackgroundTileSource(base, concurrency: 1)
        let first = DispatchSemaphore(value: 0)
        _ = source.requestTile(at: TileID(z: 2, x: 0, y: 0), priority: 0) { _ in first.signal() }
        let cancelled = source.requestTile(at: TileID(z: 2, x: 1, y: 0), priority: 1) { _ in
            Issue.record("a cancelled request completed")
        }
        cancelled.cancel()
        let last = DispatchSemaphore(value: 0)
        _ = source.requestTile(at: TileID(z: 2, x: 2, y: 0), priority: 2) { _ in last.signal() }
        gate.signal()
        #expect(first.wait(timeout: .now() + 20) == .success)
        #expect(last.wait(timeout: .now() + 20) == .success)
        #expect(base.reads.keys == [0, 2])
    }
}

/// Results by request, from any thread.
final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Int: TileLoadResult] = [:]

    func add(_ key: Int, _ result: TileLoadResult) {
        lock.lock()
        results[key] = result
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return results.count
    }

    var keys: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return results.keys.sorted()
    }

    var allMatchTheirAddress: Bool {
        lock.lock()
        defer { lock.unlock() }
        return results.allSatisfy { key, result in (try? result.get()) == [UInt8(key & 0xff)] }
    }
}
