import Dispatch
import Foundation
import StaticMapsServer
import Testing

@Suite struct RenderPoolTests {
    @Test func fullQueueAndDeadline() {
        let pool = RenderPool<Int>(workers: 1, queueLimit: 0) { 7 }
        defer { pool.shutdown() }
        #expect(pool.workerCount == 1)
        // A job runs on the worker made for its thread.
        guard case .done(let value) = pool.run(deadline: Date(timeIntervalSinceNow: 10), { $0 * 6 }) else {
            Issue.record("the first job did not run")
            return
        }
        #expect(value == 42)
        // Occupy the only worker.
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let first = DispatchGroup()
        first.enter()
        DispatchQueue.global().async {
            _ = pool.run(deadline: Date(timeIntervalSinceNow: 30)) { _ in
                started.signal()
                release.wait()
            }
            first.leave()
        }
        #expect(started.wait(timeout: .now() + 10) == .success)
        // No room beyond the busy worker: 503.
        guard case .queueFull = pool.run(deadline: Date(timeIntervalSinceNow: 10), { $0 }) else {
            Issue.record("a job was queued beyond the limit")
            release.signal()
            return
        }
        release.signal()
        #expect(first.wait(timeout: .now() + 10) == .success)
    }

    @Test func deadlinePassesWhileWaiting() {
        let pool = RenderPool<Int>(workers: 1, queueLimit: 4) { 0 }
        defer { pool.shutdown() }
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = pool.run(deadline: Date(timeIntervalSinceNow: 30)) { _ in
                started.signal()
                release.wait()
            }
        }
        #expect(started.wait(timeout: .now() + 10) == .success)
        let ran = ManagedFlag()
        let outcome = pool.run(deadline: Date(timeIntervalSinceNow: 0.2)) { _ in ran.set() }
        guard case .timedOut = outcome else {
            Issue.record("expected a timeout, got \(outcome)")
            release.signal()
            return
        }
        #expect(pool.queueDepth == 1)
        release.signal()
        // The abandoned job is skipped, not run late.
        for _ in 0..<100 where pool.queueDepth > 0 { Thread.sleep(forTimeInterval: 0.02) }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(!ran.value)
    }
}

final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var value: Bool { lock.withLock { flag } }
    func set() { lock.withLock { flag = true } }
}
