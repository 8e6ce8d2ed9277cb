import Foundation
import WaymarkTime

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Why a GPX file could not be used. Every message names the file.
package enum GPXError: Error, Equatable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, message: String)
    /// The XML is not well formed or a point is invalid; `line` is 1-based (0 when unknown).
    case malformed(path: String, line: Int, message: String)
    /// The file holds no `trkpt` and no `wpt`.
    case noPoints(path: String)
    /// Replay at the recorded pace needs a `time` on every point, in non-decreasing order.
    case badTimes(path: String, message: String)

    package var description: String {
        switch self {
        case .unreadable(let path, let message): "GPX file \(path): cannot read: \(message)"
        case .malformed(let path, let line, let message): "GPX file \(path), line \(line): \(message)"
        case .noPoints(let path): "GPX file \(path): no <trkpt> or <wpt> points"
        case .badTimes(let path, let message): "GPX file \(path): \(message)"
        }
    }
}

/// One point of a GPX 1.1 file: `lat`/`lon` attributes (degrees WGS 84), optional `ele` (metres) and `time`.
package struct GPXPoint: Equatable {
    package var coordinate: CLLocationCoordinate2D
    package var elevation: Double?
    package var time: Date?
}

/// A GPX 1.1 document reduced to the points a replay needs (GPX 1.1 schema, topografix.com/GPX/1/1).
///
/// The points are the `trkpt`s of every `trk`/`trkseg` in document order; a file without track points uses its
/// `wpt`s instead (in document order). Route points (`rtept`) and every other element are ignored.
package struct GPXTrack: Equatable {
    package var points: [GPXPoint]

    /// Parses GPX text. `path` only names the input in errors.
    /// - Throws: ``GPXError/malformed(path:line:message:)`` for bad XML or a point with a missing or out-of-range
    ///   `lat`/`lon`, a non-numeric `ele` or an unparsable `time`; ``GPXError/noPoints(path:)`` when empty.
    package static func parse(_ data: Data, path: String) throws(GPXError) -> GPXTrack {
        let reader = GPXReader(path: path)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = reader
        let ok = parser.parse()
        if let error = reader.error { throw error }
        if !ok {
            let message = parser.parserError.map { "\($0.localizedDescription)" } ?? "not well-formed XML"
            throw .malformed(path: path, line: parser.lineNumber, message: message)
        }
        let points = reader.trackPoints.isEmpty ? reader.waypoints : reader.trackPoints
        guard !points.isEmpty else { throw .noPoints(path: path) }
        return GPXTrack(points: points)
    }

    /// Reads and parses a GPX file.
    /// - Throws: ``GPXError/unreadable(path:message:)`` when the file cannot be read, else as ``parse(_:path:)``.
    package static func load(contentsOf url: URL) throws(GPXError) -> GPXTrack {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, message: "\(error.localizedDescription)")
        }
        return try parse(data, path: url.path)
    }
}

/// ISO 8601 times as GPX writes them (`2026-06-30T12:00:00Z`, optionally with fractional seconds or an offset).
package func parseISO8601(_ text: String) -> Date? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = fractional.date(from: trimmed) { return date }
    let plain = ISO8601DateFormatter()
    plain.formatOptions = [.withInternetDateTime]
    return plain.date(from: trimmed)
}

/// The XMLParser delegate behind ``GPXTrack/parse(_:path:)``.
private final class GPXReader: NSObject, XMLParserDelegate {
    package let path: String
    package var trackPoints: [GPXPoint] = []
    package var waypoints: [GPXPoint] = []
    package var error: GPXError?
    private var current: GPXPoint?
    private var currentKind = ""
    private var text = ""
    private var collecting = false

    package init(path: String) {
        self.path = path
    }

    package func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch elementName {
        case "trkpt", "wpt":
            guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
                lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180
            else {
                fail(
                    parser,
                    "<\(elementName)> needs lat in [-90, 90] and lon in [-180, 180], got lat=\(attributes["lat"] ?? "none") lon=\(attributes["lon"] ?? "none")"
                )
                return
            }
            current = GPXPoint(coordinate: CLLocationCoordinate2D(latitude: lat, longitude: lon))
            currentKind = elementName
        case "ele", "time":
            if current != nil {
                collecting = true
                text = ""
            }
        default:
            break
        }
    }

    package func parser(_ parser: XMLParser, foundCharacters string: String) {
        if collecting { text += string }
    }

    package func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        switch elementName {
        case "ele" where current != nil:
            collecting = false
            guard let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), value.isFinite else {
                fail(parser, "<ele> is not a number: \"\(text)\"")
                return
            }
            current?.elevation = value
        case "time" where current != nil:
            collecting = false
            guard let date = parseISO8601(text) else {
                fail(parser, "<time> is not an ISO 8601 time: \"\(text)\"")
                return
            }
            current?.time = date
        case "trkpt", "wpt":
            if let point = current, elementName == currentKind {
                if elementName == "trkpt" { trackPoints.append(point) } else { waypoints.append(point) }
            }
            current = nil
        default:
            break
        }
    }

    private func fail(_ parser: XMLParser, _ message: String) {
        if error == nil { error = .malformed(path: path, line: parser.lineNumber, message: message) }
        parser.abortParsing()
    }
}

/// How fast a GPX replay runs.
package enum GPXReplayPace: Equatable {
    /// At the pace the track was recorded, `speed` times faster (1 = real time; must be > 0). Needs a `time` on every
    /// point.
    case recorded(speed: Double)
    /// One point every `seconds` (> 0), whatever the recorded times.
    case fixedInterval(seconds: Double)
}

/// Replays a GPX track on the injected clock: point *i* becomes due at `start + offset(i)`, where `offset` is
/// `(time(i) − time(0)) / speed` at the recorded pace or `i × seconds` at a fixed interval; the first point is due
/// at `start()`.
///
/// Fixes: the point's coordinate; altitude = `ele` (0 when absent, with vertical accuracy −1, else 10 m);
/// horizontal accuracy 5 m (GPX 1.1 records no accuracy in metres; this is a nominal consumer-GPS value); course and
/// speed from the previous point when both have times (initial great-circle bearing, distance / time), else −1;
/// timestamp = the recorded `time`, else the wall-clock time when the fix was drained. The replay plays once; the
/// last fix stays as `myLocation`. `stop()` then `start()` replays from the beginning.
package final class GPXReplayProvider: LocationProvider {
    package let track: GPXTrack
    package let pace: GPXReplayPace
    private let clock: any TimeSource
    private let offsets: [Double]
    private var startTime: Double?
    private var next = 0

    /// - Throws: ``GPXError/badTimes(path:message:)`` when `pace` is `.recorded` and a point has no time or times
    ///   go backwards.
    /// - Precondition: the speed or interval of `pace` is finite and > 0.
    package init(track: GPXTrack, path: String, clock: any TimeSource, pace: GPXReplayPace) throws(GPXError) {
        self.track = track
        self.pace = pace
        self.clock = clock
        switch pace {
        case .recorded(let speed):
            precondition(speed.isFinite && speed > 0, "GPX replay speed must be > 0, got \(speed)")
            var offsets: [Double] = []
            guard let first = track.points.first?.time else {
                throw .badTimes(path: path, message: "point 1 has no <time>; replay it at a fixed interval instead")
            }
            for (index, point) in track.points.enumerated() {
                guard let time = point.time else {
                    throw .badTimes(
                        path: path, message: "point \(index + 1) has no <time>; replay it at a fixed interval instead")
                }
                let offset = time.timeIntervalSince(first) / speed
                if let previous = offsets.last, offset < previous {
                    throw .badTimes(path: path, message: "point \(index + 1) is earlier than point \(index)")
                }
                offsets.append(offset)
            }
            self.offsets = offsets
        case .fixedInterval(let seconds):
            precondition(seconds.isFinite && seconds > 0, "GPX replay interval must be > 0, got \(seconds)")
            offsets = track.points.indices.map { Double($0) * seconds }
        }
    }

    /// Loads `url` and prepares a replay.
    /// - Throws: any ``GPXError``, naming the file.
    package convenience init(contentsOf url: URL, clock: any TimeSource, pace: GPXReplayPace) throws(GPXError) {
        try self.init(track: GPXTrack.load(contentsOf: url), path: url.path, clock: clock, pace: pace)
    }

    package func start() {
        guard startTime == nil else { return }
        startTime = clock.now
        next = 0
    }

    package func stop() {
        startTime = nil
        next = 0
    }

    /// The time of the next point of the replay, or nil when stopped or played out.
    package func nextFixTime(now: Double) -> Double? {
        guard let startTime, next < offsets.count else { return nil }
        return startTime + offsets[next]
    }

    package func drainFixes() -> [CLLocation] {
        guard let startTime else { return [] }
        let elapsed = clock.now - startTime
        var fixes: [CLLocation] = []
        while next < offsets.count, offsets[next] <= elapsed {
            fixes.append(location(at: next))
            next += 1
        }
        return fixes
    }

    private func location(at index: Int) -> CLLocation {
        let point = track.points[index]
        var course = -1.0
        var speed = -1.0
        if index > 0, let t1 = point.time, let t0 = track.points[index - 1].time, t1 > t0 {
            let a = track.points[index - 1].coordinate
            let b = point.coordinate
            let φ1 = a.latitude * .pi / 180
            let φ2 = b.latitude * .pi / 180
            let dλ = (b.longitude - a.longitude) * .pi / 180
            let θ = atan2(sin(dλ) * cos(φ2), cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)) * 180 / .pi
            course = (θ + 360).truncatingRemainder(dividingBy: 360)
            let distance = CLLocation(latitude: a.latitude, longitude: a.longitude)
                .distance(from: CLLocation(latitude: b.latitude, longitude: b.longitude))
            speed = distance / t1.timeIntervalSince(t0)
        }
        return CLLocation(
            coordinate: point.coordinate, altitude: point.elevation ?? 0, horizontalAccuracy: 5,
            verticalAccuracy: point.elevation == nil ? -1 : 10, course: course, speed: speed,
            timestamp: point.time ?? Date())
    }
}
