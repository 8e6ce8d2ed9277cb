import Foundation

/// How a pooled job ended.
public enum RenderPoolOutcome<Value> {
    /// The job ran and returned.
    case done(Value)
    /// The job ran and threw.
    case failed(any Error)
    /// The queue was full; nothing ran (answer 503 with `Retry-After`).
    case queueFull
    /// The deadline passed before the job finished (answer 504); a job not yet started never runs.
    case timedOut
}

/// A fixed set of threads, each owning one `Worker` made on it (a renderer bound to its thread, as ``MapHost``s are),
/// fed from one bounded FIFO queue. Waymark's own.
///
/// Threads: ``run(deadline:_:)`` may be called from any thread and blocks the caller until the job ends or the
/// deadline passes.
public final class RenderPool<Worker>: @unchecked Sendable {
    private final class Job: @unchecked Sendable {
        let work: (Worker) -> Void
        let deadline: Date
        let done = DispatchSemaphore(value: 0)
        /// Set under the pool's lock: the caller gave up (deadline) or the job started.
        var abandoned = false
        var started = false
        init(work: @escaping (Worker) -> Void, deadline: Date) {
            self.work = work
            self.deadline = deadline
        }
    }

    private let condition = NSCondition()
    private var queue: [Job] = []
    private var head = 0
    private var stopping = false
    private var busy = 0
    private var threads: [Thread] = []
    private let finished = DispatchGroup()
    /// Jobs waiting beyond the busy workers before ``run(deadline:_:)`` answers `.queueFull`.
    public let queueLimit: Int
    /// The number of worker threads.
    public let workerCount: Int

    /// Starts `workers` threads (`≥ 1`), each calling `makeWorker` once on itself.
    /// - Parameters:
    ///   - workers: thread count, clamped to `≥ 1`.
    ///   - queueLimit: waiting jobs allowed, `≥ 0`.
    ///   - stackSize: each thread's stack, bytes. Default 8 MiB.
    ///   - makeWorker: makes a thread's worker, on that thread.
    public init(
        workers: Int, queueLimit: Int, stackSize: Int = 8 << 20, makeWorker: @escaping @Sendable () -> Worker
    ) {
        self.workerCount = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        for i in 0..<workerCount {
            finished.enter()
            let thread = Thread { [self] in
                let worker = makeWorker()
                loop(worker)
                finished.leave()
            }
            thread.name = "waymark-render-\(i)"
            thread.stackSize = stackSize
            threads.append(thread)
            thread.start()
        }
    }

    /// Jobs waiting for a worker now.
    public var queueDepth: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count - head
    }

    /// Workers running a job now.
    public var busyWorkers: Int {
        condition.lock()
        defer { condition.unlock() }
        return busy
    }

    /// Runs `job` on a worker and waits for it until `deadline`.
    public func run<Value>(deadline: Date, _ job: @escaping (Worker) throws -> Value) -> RenderPoolOutcome<Value> {
        let box = OutcomeBox<Value>()
        let entry = Job(
            work: { worker in
                do { box.outcome = .done(try job(worker)) } catch { box.outcome = .failed(error) }
            }, deadline: deadline)
        condition.lock()
        let waiting = queue.count - head
        guard !stopping, waiting < queueLimit || (waiting == 0 && busy < workerCount) else {
            condition.unlock()
            return .queueFull
        }
        queue.append(entry)
        condition.signal()
        condition.unlock()
        if entry.done.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success {
            return box.outcome
        }
        condition.lock()
        entry.abandoned = true
        condition.unlock()
        // A job that started still finishes on its worker; its result is dropped.
        return .timedOut
    }

    /// Stops the workers after the queued jobs; waits for them to end. Idempotent.
    public func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        finished.wait()
    }

    private func loop(_ worker: Worker) {
        while true {
            condition.lock()
            while head == queue.count && !stopping { condition.wait() }
            if head == queue.count && stopping {
                condition.unlock()
                return
            }
            let job = queue[head]
            head += 1
            if head > 64 && head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            let skip = job.abandoned || job.deadline < Date()
            if !skip {
                job.started = true
                busy += 1
            }
            condition.unlock()
            if !skip {
                job.work(worker)
                condition.lock()
                busy -= 1
                condition.unlock()
            }
            job.done.signal()
        }
    }
}

private final class OutcomeBox<Value>: @unchecked Sendable {
    var outcome: RenderPoolOutcome<Value> = .timedOut
}
