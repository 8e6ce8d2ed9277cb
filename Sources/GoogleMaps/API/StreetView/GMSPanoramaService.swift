import Foundation
import LinuxUIKit

/// The callback of ``GMSPanoramaService``'s requests: a panorama or an error (Google's `GMSPanoramaCallback`). Called
/// asynchronously on the main queue.
public typealias GMSPanoramaCallback = @MainActor @Sendable (GMSPanorama?, (any Error)?) -> Void

/// Requests Street View panorama metadata (Google's `GMSPanoramaService`), even without a ``GMSPanoramaView``.
///
/// Waymark has no Street View imagery: every request, valid or not, answers as Google's service does where there is
/// no coverage: a nil panorama and an `NSError` (domain `"com.google.GMSPanoramaService"`, code 1 for "no panorama
/// here", 2 for an invalid coordinate; the message names the coordinate or ID), later on the main queue, never
/// before the method returns.
/// - Thread rules: nonisolated; the methods may be called from any thread; callbacks run on the main queue.
open class GMSPanoramaService: NSObject, @unchecked Sendable {
    /// A service.
    public override init() {
        super.init()
    }

    /// Looks for a panorama near `coordinate` (within 50 m, Google's default radius).
    open func requestPanoramaNearCoordinate(
        _ coordinate: CLLocationCoordinate2D, callback: @escaping GMSPanoramaCallback
    ) {
        requestPanoramaNearCoordinate(coordinate, radius: 50, source: .default, callback: callback)
    }

    /// Looks for a panorama within `radius` metres of `coordinate`.
    open func requestPanoramaNearCoordinate(
        _ coordinate: CLLocationCoordinate2D, radius: UInt, callback: @escaping GMSPanoramaCallback
    ) {
        requestPanoramaNearCoordinate(coordinate, radius: radius, source: .default, callback: callback)
    }

    /// Looks for a panorama of `source` near `coordinate`.
    open func requestPanoramaNearCoordinate(
        _ coordinate: CLLocationCoordinate2D, source: GMSPanoramaSource, callback: @escaping GMSPanoramaCallback
    ) {
        requestPanoramaNearCoordinate(coordinate, radius: 50, source: source, callback: callback)
    }

    /// Looks for a panorama of `source` within `radius` metres of `coordinate`.
    open func requestPanoramaNearCoordinate(
        _ coordinate: CLLocationCoordinate2D, radius: UInt, source: GMSPanoramaSource,
        callback: @escaping GMSPanoramaCallback
    ) {
        let error = StreetViewCoverage.lookUp(near: coordinate, radius: radius)
        StreetViewCoverage.deliver { callback(nil, error) }
    }

    /// Looks up the panorama with `panoramaID`.
    open func requestPanorama(withID panoramaID: String, callback: @escaping GMSPanoramaCallback) {
        let error = StreetViewCoverage.noPanorama(id: panoramaID)
        StreetViewCoverage.deliver { callback(nil, error) }
    }
}

/// Where Waymark has Street View imagery: nowhere. The one place that answers requests, for the service and the view.
enum StreetViewCoverage {
    static let errorDomain = "com.google.GMSPanoramaService"

    /// The error for a request near `coordinate` (there is never a panorama).
    static func lookUp(near coordinate: CLLocationCoordinate2D, radius: UInt) -> NSError {
        guard CLLocationCoordinate2DIsValid(coordinate) else {
            return NSError(
                domain: errorDomain, code: 2,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "invalid coordinate (\(coordinate.latitude), \(coordinate.longitude)) for a panorama request"
                ])
        }
        return NSError(
            domain: errorDomain, code: 1,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "no Street View panorama within \(radius) m of (\(coordinate.latitude), \(coordinate.longitude)): "
                    + "Waymark has no Street View imagery"
            ])
    }

    /// The error for a request of panorama `id`.
    static func noPanorama(id: String) -> NSError {
        NSError(
            domain: errorDomain, code: 1,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "no Street View panorama with ID \"\(id)\": Waymark has no Street View imagery"
            ])
    }

    /// Runs `body` later on the main queue (never before the caller returns) and wakes the window loop.
    static func deliver(_ body: @escaping @MainActor @Sendable () -> Void) {
        UIApplication.deliverOnMainActor(body)
    }
}
