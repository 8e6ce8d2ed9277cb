import Foundation
import Synchronization

/// Process-wide SDK services (spec §1.16). Waymark needs no API key: keys and options are recorded so apps written
/// for Google's SDK run unchanged.
/// - Thread rules: every class method may be called from any thread (the recorded state is behind a lock), as on
///   iOS, where the class carries no actor annotation.
open class GMSServices: NSObject, @unchecked Sendable {
    private struct State {
        var apiKey: String?
        var apiOptions: [String]?
        var attributionIDs: [String] = []
        var abnormalTerminationReporting = false
    }
    private static let state = Mutex(State())
    private static let shared = GMSServices()

    /// Records the API key. Returns `true` the first time with a non-empty key, `false` for an empty key or a second
    /// call (the first key stays). Any thread.
    @discardableResult
    open class func provideAPIKey(_ APIKey: String) -> Bool {
        state.withLock { state in
            guard state.apiKey == nil, !APIKey.isEmpty else { return false }
            state.apiKey = APIKey
            return true
        }
    }

    /// Records API options; `true` the first time, `false` afterwards. Any thread.
    @discardableResult
    open class func provideAPIOptions(_ APIOptions: [String]) -> Bool {
        state.withLock { state in
            guard state.apiOptions == nil else { return false }
            state.apiOptions = APIOptions
            return true
        }
    }

    /// The shared services object. Google's SDK throws without an API key; Waymark needs none and always returns it.
    /// Any thread.
    open class func sharedServices() -> NSObject { shared }

    /// The licences of the open data and software Waymark uses. Any thread.
    open class func openSourceLicenseInfo() -> String {
        "Map data © OpenStreetMap contributors (ODbL 1.0); Natural Earth (public domain); GeoNames (CC BY 4.0). "
            + "Rendering: Cairo (LGPL 2.1 / MPL 1.1), Pango (LGPL 2.1), gdk-pixbuf (LGPL 2.1)."
    }

    /// The SDK version, `"major.minor.patch"`. Any thread.
    open class func sdkVersion() -> String { "0.1.0" }

    /// The SDK version with a build number. Any thread.
    open class func sdkLongVersion() -> String { "0.1.0 (waymark)" }

    /// Records the ID (usage attribution is a Google service; nothing is sent). Any thread.
    open class func addInternalUsageAttributionID(_ internalUsageAttributionID: String) {
        state.withLock { $0.attributionIDs.append(internalUsageAttributionID) }
    }

    /// Recorded and ignored (there is no crash reporting). Any thread.
    open class func setAbnormalTerminationReportingEnabled(_ enabled: Bool) {
        state.withLock { $0.abnormalTerminationReporting = enabled }
    }

    /// Deprecated upstream; ignored (Waymark draws with Cairo). Any thread.
    open class func setMetalRendererEnabled(_ enabled: Bool) {}

    /// The attribution IDs recorded so far, in call order (for tests).
    static var internalUsageAttributionIDs: [String] { state.withLock { $0.attributionIDs } }
}
