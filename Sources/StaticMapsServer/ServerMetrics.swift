import Foundation
import Synchronization

/// The server's counters, exposed at `/metrics` in Prometheus' text format (version 0.0.4). Thread-safe. Waymark's own.
public final class ServerMetrics: Sendable {
    /// Latency bucket upper bounds, seconds.
    static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    struct Histogram {
        var counts = [Int](repeating: 0, count: ServerMetrics.buckets.count)
        var sum = 0.0
        var count = 0
        mutating func observe(_ seconds: Double) {
            for (i, bound) in ServerMetrics.buckets.enumerated() where seconds <= bound { counts[i] += 1 }
            sum += seconds
            count += 1
        }
    }

    struct State {
        var requests: [String: [Int: Int]] = [:]
        var latency = Histogram()
        var render = Histogram()
        var cacheHits: [String: Int] = [:]
    }
    private let state = Mutex(State())

    /// Creates empty metrics.
    public init() {}

    /// Counts one answered request of `route` (`staticmap`, `tile`, `health`, …) and its latency.
    public func request(route: String, status: Int, seconds: Double) {
        state.withLock {
            $0.requests[route, default: [:]][status, default: 0] += 1
            $0.latency.observe(seconds)
        }
    }

    /// Records one render's duration (queue wait excluded).
    public func render(seconds: Double) { state.withLock { $0.render.observe(seconds) } }

    /// Counts a cache hit of `kind` (`etag`: a 304; `memory`: an image from the in-memory cache).
    public func cacheHit(_ kind: String) { state.withLock { $0.cacheHits[kind, default: 0] += 1 } }

    /// The requests answered so far for `route` with `status`.
    public func count(route: String, status: Int) -> Int { state.withLock { $0.requests[route]?[status] ?? 0 } }

    /// The text exposition, with the queue depth and busy workers read now.
    public func exposition(queueDepth: Int, busyWorkers: Int, workers: Int) -> String {
        let s = state.withLock { $0 }
        var out = ""
        out += "# HELP waymark_http_requests_total Requests answered, by route and status.\n"
        out += "# TYPE waymark_http_requests_total counter\n"
        for route in s.requests.keys.sorted() {
            for status in s.requests[route]!.keys.sorted() {
                out +=
                    "waymark_http_requests_total{route=\"\(route)\",code=\"\(status)\"} \(s.requests[route]![status]!)\n"
            }
        }
        func histogram(_ name: String, _ help: String, _ h: Histogram) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
            for (i, bound) in Self.buckets.enumerated() {
                out += "\(name)_bucket{le=\"\(bound)\"} \(h.counts[i])\n"
            }
            out += "\(name)_bucket{le=\"+Inf\"} \(h.count)\n\(name)_sum \(h.sum)\n\(name)_count \(h.count)\n"
        }
        histogram(
            "waymark_http_request_duration_seconds", "Time from a request's arrival to its answer.", s.latency)
        histogram("waymark_render_duration_seconds", "Time a render worker spent on one image.", s.render)
        out += "# HELP waymark_render_queue_depth Renders waiting for a worker.\n"
        out += "# TYPE waymark_render_queue_depth gauge\nwaymark_render_queue_depth \(queueDepth)\n"
        out += "# HELP waymark_render_workers_busy Render workers drawing now.\n"
        out += "# TYPE waymark_render_workers_busy gauge\nwaymark_render_workers_busy \(busyWorkers)\n"
        out += "# HELP waymark_render_workers Render workers.\n"
        out += "# TYPE waymark_render_workers gauge\nwaymark_render_workers \(workers)\n"
        out += "# HELP waymark_cache_hits_total Answers served without rendering, by kind.\n"
        out += "# TYPE waymark_cache_hits_total counter\n"
        for kind in ["etag", "memory"] {
            out += "waymark_cache_hits_total{kind=\"\(kind)\"} \(s.cacheHits[kind] ?? 0)\n"
        }
        return out
    }
}
