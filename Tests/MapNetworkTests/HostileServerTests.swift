import Foundation
import MapData
import MapNetwork
import Testing

/// The loader against the test server's hostile modes (issue 34): every answer bounded in memory, rate and time,
/// every failure naming the URL.
@Suite(.enabled(if: TestServer.available, "python3 is needed for the test HTTP server"))
struct HostileServerTests {
    let folder: URL
    let server: TestServer

    init() throws {
        folder = try temporaryFolder("hostile")
        try Data(repeating: 0x41, count: 6000).write(to: folder.appendingPathComponent("tile.pbf"))
        server = try TestServer(root: folder)
    }

    /// Fetches `tile.pbf?fault=<fault>` with `options`; the error (or `nil` on success) and the seconds it took.
    func fetch(_ fault: String, _ options: HTTPLoaderOptions, extra: String = "") -> (HTTPError?, Double) {
        let loader = HTTPLoader(options: options)
        let url = URL(string: server.url("tile.pbf?fault=\(fault)\(extra)"))!
        let start = Date()
        do {
            _ = try loader.fetchAndWait(url)
            return (nil, Date().timeIntervalSince(start))
        } catch {
            return (error, Date().timeIntervalSince(start))
        }
    }

    /// The process's resident memory now, in bytes (`/proc/self/statm`).
    static func residentBytes() -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
        let pages = Int(text.split(separator: " ").dropFirst().first ?? "0") ?? 0
        return pages * 4096
    }

    /// The memory these bodies leave a process is measured in a process of its own, where nothing else allocates
    /// meanwhile: `HostileSnapshotCLITests` (this process runs other suites beside this one, and their allocations
    /// once grew its resident memory by 222 MiB during one fetch).
    @Test(arguments: ["huge", "endless", "bombenc"])
    func bodiesPastTheLimitAreCutOffWhileTheyArrive(fault: String) throws {
        let (error, seconds) = fetch(fault, HTTPLoaderOptions(maxRetries: 0, maxResponseBytes: 4 << 20))
        let failure = try #require(error)
        // Cut off once the decoded body passed the limit: the 2 GiB, endless and 256 MiB bomb bodies were not read
        // whole.
        #expect(failure.message == "response larger than 4194304 bytes", "\(failure)")
        #expect(failure.url.contains("tile.pbf?fault=\(fault)"))
        #expect(seconds < 20, "took \(seconds) s")
    }

    @Test func manyLargeAnswersAtOnceShareOneMemoryBudget() throws {
        // 24 endless bodies at once, each allowed 32 MiB on its own: together they may hold only 24 × 2 MiB plus the
        // 64 MiB pool while they arrive (docs/BEHAVIOUR.md D19), not 24 × 32 MiB = 768 MiB.
        let count = 24
        let loader = HTTPLoader(options: HTTPLoaderOptions(maxRequestsPerHost: count, maxRetries: 0))
        let messages = MessageLog()
        let group = DispatchGroup()
        let before = Self.residentBytes()
        for i in 0..<count {
            group.enter()
            loader.fetch(URL(string: server.url("tile.pbf?fault=endless&n=\(i)"))!) { result in
                if case .failure(let error) = result { messages.add(error.message) } else { messages.add("ok") }
                group.leave()
            }
        }
        var peak = 0
        while group.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
            peak = max(peak, Self.residentBytes() - before)
        }
        #expect(loader.peakInFlightPerHost == count)
        let all = messages.all
        #expect(all.count == count)
        let shared = "response passed 2097152 bytes while the answers arriving at once held the 64 MiB they share"
        #expect(all.allSatisfy { $0 == shared || $0 == "response larger than 33554432 bytes" }, "\(all)")
        #expect(all.contains(shared), "\(all)")
        #expect(peak < 400 << 20, "resident memory grew by \(peak >> 20) MiB")
    }

    @Test func aServerThatNeverAnswersIsAStall() throws {
        let (error, seconds) = fetch("silent", HTTPLoaderOptions(maxRetries: 2, timeout: 2, deadline: 30))
        let failure = try #require(error)
        #expect(failure.message.hasPrefix("stalled"), "\(failure)")
        #expect(failure.url.contains("fault=silent"))
        #expect(seconds < 6, "a stall is not retried: took \(seconds) s")
    }

    @Test func aByteASecondIsAStall() throws {
        let (error, seconds) = fetch("drip", HTTPLoaderOptions(maxRetries: 0, timeout: 3, deadline: 30))
        #expect(
            error?.message.hasPrefix("stalled: less than 64 bytes/s for 3 s") == true, "\(String(describing: error))")
        #expect(seconds < 8, "took \(seconds) s")
    }

    @Test func theDeadlineHoldsWhateverTheRate() throws {
        let options = HTTPLoaderOptions(maxRetries: 0, timeout: 30, deadline: 3, minimumBytesPerSecond: 1)
        let (error, seconds) = fetch("drip", options)
        #expect(error?.message == "no complete answer within 3 s", "\(String(describing: error))")
        #expect(seconds >= 2.9 && seconds < 6, "took \(seconds) s")
    }

    @Test func finishByCutsEveryRequestOff() throws {
        let loader = HTTPLoader(options: HTTPLoaderOptions(maxRetries: 3, timeout: 60, deadline: 60))
        loader.finishBy(seconds: 2)
        let start = Date()
        #expect(throws: HTTPError.self) {
            _ = try loader.fetchAndWait(URL(string: server.url("tile.pbf?fault=silent"))!)
        }
        #expect(Date().timeIntervalSince(start) < 5)
        // After the cut-off, nothing more is asked.
        let late = Date()
        do {
            _ = try loader.fetchAndWait(URL(string: server.url("tile.pbf"))!)
            Issue.record("a request after the cut-off succeeded")
        } catch {
            #expect(error.message.hasPrefix("not answered within 2"), "\(error)")
        }
        #expect(Date().timeIntervalSince(late) < 1)
    }

    @Test func redirectLoopsEnd() throws {
        let (error, seconds) = fetch("loop", HTTPLoaderOptions(maxRetries: 0))
        #expect(error?.message == "more than 5 redirects", "\(String(describing: error))")
        #expect(seconds < 10)
    }

    @Test func retryAfterIsHonouredOrRefused() throws {
        let (error, seconds) = fetch(
            "retryafter", HTTPLoaderOptions(maxRetries: 1, retryBaseDelay: 0), extra: "&delay=1000")
        #expect(error == nil, "\(String(describing: error))")
        #expect(seconds >= 0.9, "Retry-After: 1 waited \(seconds) s")
        let (refused, quick) = fetch(
            "retryafter", HTTPLoaderOptions(maxRetries: 3, maxRetryAfter: 1), extra: "&delay=90000")
        #expect(refused?.message == "HTTP 503, asked to retry after 90 s", "\(String(describing: refused))")
        #expect(quick < 2)
    }

    @Test func hugeURLsAreShortenedInMessages() {
        let url = "http://127.0.0.1/" + String(repeating: "a", count: 50_000) + "/end"
        let error = HTTPError(url: url, message: "x")
        #expect(error.url.count < 400)
        #expect(error.url.hasPrefix("http://127.0.0.1/aaa") && error.url.hasSuffix("/end"))
        #expect(error.url.contains("characters)"))
    }
}

/// Messages added from any thread.
private final class MessageLog: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    func add(_ message: String) {
        lock.lock()
        messages.append(message)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return messages
    }
}
