import Foundation

/// Offline forward geocoding over the GeoNames places: a place name, optionally qualified by its first-level
/// division or country (`"Berkeley,CA"`, `"Paris, France"`, `"Springfield, Illinois, US"`), to the places it names,
/// the best first.
///
/// Matching: the first comma-separated part that equals a place's name (earlier parts, such as a street or a
/// landmark, are skipped) names the candidates; a part naming a first-level division or a country (or a US state
/// code) names the division's most populous place; compared ignoring case, accents and repeated spaces;
/// every later part that equals the place's division name, country name or ISO country code (or, for the United
/// States, the two-letter state code) ranks it higher; then, with a `region`, a place in that country; among equals,
/// the more populous place wins.
/// - Thread rules: a value; any thread.
package struct ForwardGeocoder: Sendable {
    private let places: [GeocoderPlace]
    private let countryNames: [String: String]
    private let byName: [String: [Int]]
    /// Folded division and country names → their most populous place.
    private let byDivision: [String: [Int]]

    /// Indexes `places` by their folded name.
    package init(places: [GeocoderPlace], countryNames: [String: String]) {
        self.places = places
        self.countryNames = countryNames
        var index: [String: [Int]] = [:]
        for (i, p) in places.enumerated() { index[Self.fold(p.name), default: []].append(i) }
        byName = index
        var divisions: [String: Int] = [:]
        for (i, p) in places.enumerated() {
            for name in [p.administrativeArea, countryNames[p.countryCode]].compactMap({ $0 }) {
                let key = Self.fold(name)
                if let best = divisions[key], places[best].population >= p.population { continue }
                divisions[key] = i
            }
        }
        byDivision = divisions.mapValues { [$0] }
    }

    /// The places `query` names, best first.
    /// - Parameters:
    ///   - query: a place name, optionally followed by comma-separated qualifiers (see the type).
    ///   - limit: the most places returned. Default 5.
    ///   - region: an ISO 3166-1 alpha-2 country code (any case) whose places win over equally qualified places
    ///     elsewhere (Google's region biasing: `Toledo` with region `ES` is Toledo, Spain); a qualifier in the query
    ///     still wins over it. `nil` (the default): no bias.
    /// - Returns: at most `limit` places; empty when none matches.
    package func search(_ query: String, limit: Int = 5, region: String? = nil) -> [GeocoderPlace] {
        let region = region?.uppercased()
        let parts = query.split(separator: ",").map { Self.fold(String($0)) }.filter { !$0.isEmpty }
        // A part that names no place (a street, a landmark) gives way to the next: "Brooklyn Bridge,New York,NY"
        // finds the division New York's largest place.
        var found: (index: Int, candidates: [Int])?
        for (i, part) in parts.enumerated() {
            if let c = byName[part] ?? byDivision[part]
                ?? byDivision[Self.usStates[part.uppercased()].map(Self.fold) ?? ""]
            {
                found = (i, c)
                break
            }
        }
        guard let (first, candidates) = found else { return [] }
        let qualifiers = Array(parts[(first + 1)...])
        func score(_ p: GeocoderPlace) -> Int {
            var s = 0
            let admin = p.administrativeArea.map(Self.fold)
            let country = countryNames[p.countryCode].map(Self.fold)
            for q in qualifiers {
                if q == admin || q == country || q == p.countryCode.lowercased()
                    || (p.countryCode == "US" && Self.usStates[q.uppercased()].map(Self.fold) == admin)
                {
                    s += 1
                }
            }
            return s
        }
        struct Ranked {
            var place: GeocoderPlace
            var score: Int
            var inRegion: Bool
        }
        let ranked = candidates.map { i -> Ranked in
            let p = places[i]
            return Ranked(place: p, score: score(p), inRegion: region != nil && p.countryCode.uppercased() == region)
        }
        .sorted { (a: Ranked, b: Ranked) -> Bool in
            if a.score != b.score { return a.score > b.score }
            if a.inRegion != b.inRegion { return a.inRegion }
            return a.place.population > b.place.population
        }
        return ranked.prefix(max(0, limit)).map(\.place)
    }

    /// The English name of an ISO 3166-1 alpha-2 country code, or `nil`.
    package func countryName(_ code: String) -> String? { countryNames[code] }

    /// Lower-cased, accents removed, `+` and runs of spaces as one space, trimmed.
    static func fold(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ")
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// USPS state codes → GeoNames' division names.
    static let usStates: [String: String] = [
        "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
        "CT": "Connecticut", "DE": "Delaware", "DC": "Washington, D.C.", "FL": "Florida", "GA": "Georgia",
        "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas",
        "KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan",
        "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
        "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York", "NC": "North Carolina",
        "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
        "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas",
        "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington", "WV": "West Virginia",
        "WI": "Wisconsin", "WY": "Wyoming",
    ]
}
