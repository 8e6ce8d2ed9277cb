import Foundation
import WaymarkTime

/// A textual choice of location provider, for hosts (the CLI, the viewer) and the `WAYMARK_LOCATION` environment
/// variable.
///
/// Forms:
/// - `fixed:LAT,LON` or `fixed:LAT,LON,ACCURACY` — degrees WGS 84 and metres (default 10 m); the `fixed:` may be left
///   out (`LAT,LON`, as `map-viewer --location` takes it);
/// - `gpx:PATH` — replay at the recorded pace; `gpx:PATH@SECONDS` — one point every SECONDS (> 0);
/// - `gpsd` — gpsd on 127.0.0.1:2947; `gpsd:PORT` or `gpsd:HOST:PORT` (HOST an IPv4 literal or `localhost`).
package enum LocationProviderSpec: Equatable {
    case fixed(CLLocationCoordinate2D, accuracy: Double)
    case gpx(path: String, interval: Double?)
    case gpsd(host: String, port: UInt16)

    /// Why a specification could not be read; the message quotes it.
    package struct ParseError: Error, Equatable, CustomStringConvertible {
        package let text: String
        package let reason: String
        package var description: String { "location provider \"\(text)\": \(reason)" }
    }

    /// Parses one of the forms above.
    /// - Throws: ``ParseError`` naming the text and what is wrong.
    package static func parse(_ text: String) throws(ParseError) -> LocationProviderSpec {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let bare = !trimmed.contains(":") && trimmed.contains(",")
        let (kind, rest) =
            bare
            ? ("fixed", trimmed)
            : trimmed.firstIndex(of: ":").map {
                (String(trimmed[..<$0]), String(trimmed[trimmed.index(after: $0)...]))
            } ?? (trimmed, "")
        switch kind {
        case "fixed":
            let parts = rest.split(separator: ",", omittingEmptySubsequences: false).map {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard parts.count == 2 || parts.count == 3, let lat = parts[0], let lon = parts[1] else {
                throw ParseError(text: text, reason: "expected [fixed:]LAT,LON[,ACCURACY]")
            }
            let coordinate = CLLocationCoordinate2D(latitude: lat, longitude: lon)
            guard CLLocationCoordinate2DIsValid(coordinate) else {
                throw ParseError(text: text, reason: "latitude must be in [-90, 90] and longitude in [-180, 180]")
            }
            let accuracy = parts.count == 3 ? parts[2] : 10
            guard let accuracy, accuracy.isFinite, accuracy >= 0 else {
                throw ParseError(text: text, reason: "accuracy must be a number of metres >= 0")
            }
            return .fixed(coordinate, accuracy: accuracy)
        case "gpx":
            guard !rest.isEmpty else { throw ParseError(text: text, reason: "expected gpx:PATH[@SECONDS]") }
            if let at = rest.lastIndex(of: "@") {
                guard let seconds = Double(rest[rest.index(after: at)...]), seconds.isFinite, seconds > 0 else {
                    throw ParseError(text: text, reason: "the interval after @ must be a number of seconds > 0")
                }
                return .gpx(path: String(rest[..<at]), interval: seconds)
            }
            return .gpx(path: rest, interval: nil)
        case "gpsd":
            let parts =
                rest.isEmpty ? [] : rest.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            let host = parts.count == 2 ? parts[0] : "127.0.0.1"
            let portText = parts.count == 2 ? parts[1] : parts.first ?? "2947"
            guard parts.count <= 2, let port = UInt16(portText), port > 0 else {
                throw ParseError(text: text, reason: "expected gpsd, gpsd:PORT or gpsd:HOST:PORT")
            }
            return .gpsd(host: host, port: port)
        default:
            throw ParseError(text: text, reason: "unknown kind \"\(kind)\"; use LAT,LON, fixed:, gpx: or gpsd")
        }
    }

    /// Creates the provider.
    /// - Throws: ``GPXError`` for a GPX file that cannot be used.
    package func makeProvider(clock: any TimeSource) throws(GPXError) -> any LocationProvider {
        switch self {
        case .fixed(let coordinate, let accuracy):
            return FixedLocationProvider(coordinate: coordinate, horizontalAccuracy: accuracy)
        case .gpx(let path, let interval):
            return try GPXReplayProvider(
                contentsOf: URL(fileURLWithPath: path), clock: clock,
                pace: interval.map { .fixedInterval(seconds: $0) } ?? .recorded(speed: 1))
        case .gpsd(let host, let port):
            return GPSDLocationProvider(host: host, port: port)
        }
    }
}
