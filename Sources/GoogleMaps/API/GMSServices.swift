import Foundation

/// Process-wide SDK services (spec §1.16). Waymark needs no API key: keys and options are recorded so apps written
/// for Google's SDK run unchanged. Main thread only.
@MainActor open class GMSServices: NSObject {
    private static var apiKey: String?
    private static var apiOptions: [String]?
    private static let shared = GMSServices()

    /// Records the API key. Returns `true` the first time with a non-empty key, `false` for an empty key or a second
    /// call (the first key stays).
    @discardableResult
    open class func provideAPIKey(_ APIKey: String) -> Bool {
        guard apiKey == nil, !APIKey.isEmpty else { return false }
        apiKey = APIKey
        return true
    }

    /// Records API options; `true` the first time, `false` afterwards.
    @discardableResult
    open class func provideAPIOptions(_ APIOptions: [String]) -> Bool {
        guard apiOptions == nil else { return false }
        apiOptions = APIOptions
        return true
    }

    /// The shared services object. Google's SDK throws without an API key; Waymark needs none and always returns it.
    open class func sharedServices() -> NSObject { shared }

    /// The licences of the open data and software Waymark uses.
    open class func openSourceLicenseInfo() -> String {
        "Map data © OpenStreetMap contributors (ODbL 1.0); Natural Earth (public domain); GeoNames (CC BY 4.0). "
            + "Rendering: Cairo (LGPL 2.1 / MPL 1.1), Pango (LGPL 2.1), gdk-pixbuf (LGPL 2.1)."
    }

    /// The SDK version, `"major.minor.patch"`.
    open class func sdkVersion() -> String { "0.1.0" }

    /// The SDK version with a build number.
    open class func sdkLongVersion() -> String { "0.1.0 (waymark)" }

    /// Recorded and ignored (usage attribution is a Google service).
    open class func addInternalUsageAttributionID(_ internalUsageAttributionID: String) {}

    /// Recorded and ignored.
    open class func setAbnormalTerminationReportingEnabled(_ enabled: Bool) {}

    /// Deprecated upstream; ignored (Waymark draws with Cairo).
    open class func setMetalRendererEnabled(_ enabled: Bool) {}
}
