// Offline reverse geocoding: nearest address point, street or GeoNames place, assembled into address fields and lines.

/// A populated place (GeoNames cities1000 row) the geocoder can name.
package struct GeocoderPlace: Equatable, Sendable {
    /// The place name, for example `"London"`.
    package var name: String
    /// ISO 3166-1 alpha-2 country code, for example `"GB"`.
    package var countryCode: String
    /// The first-level administrative division's name, for example `"England"`; `nil` when unknown.
    package var administrativeArea: String?
    /// Inhabitants (GeoNames); 0 when unknown.
    package var population: Int
    /// Degrees, [−90, 90].
    package var latitude: Double
    /// Degrees, [−180, 180].
    package var longitude: Double

    /// Memberwise initialiser.
    package init(
        name: String, countryCode: String, administrativeArea: String?, population: Int, latitude: Double,
        longitude: Double
    ) {
        self.name = name
        self.countryCode = countryCode
        self.administrativeArea = administrativeArea
        self.population = population
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A street address point (OpenStreetMap `addr:*` tags on a node, or on a building way at the mean of its nodes).
package struct GeocoderAddressPoint: Equatable, Sendable {
    /// `addr:street`, for example `"Aleksanterinkatu"`.
    package var street: String
    /// `addr:housenumber`, for example `"52"` or `"13 A"`.
    package var houseNumber: String
    /// `addr:postcode`, or `nil` when the point has none.
    package var postalCode: String?
    /// `addr:city`, or `nil` when the point has none (the GeoNames locality is used then).
    package var city: String?
    /// Degrees, [−90, 90].
    package var latitude: Double
    /// Degrees, [−180, 180].
    package var longitude: Double

    /// Memberwise initialiser.
    package init(
        street: String, houseNumber: String, postalCode: String?, city: String?, latitude: Double, longitude: Double
    ) {
        self.street = street
        self.houseNumber = houseNumber
        self.postalCode = postalCode
        self.city = city
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// One sample of a named street's centre line (OpenStreetMap `highway=*` way with `name`, sampled every ≤ 20 m).
package struct GeocoderStreetPoint: Equatable, Sendable {
    /// The street's `name`.
    package var street: String
    /// Degrees, [−90, 90].
    package var latitude: Double
    /// Degrees, [−180, 180].
    package var longitude: Double

    /// Memberwise initialiser.
    package init(street: String, latitude: Double, longitude: Double) {
        self.street = street
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Everything the geocoder answers from, as plain records (loaded by `MapStorage.GeocoderDatabase`).
package struct GeocoderDataset: Sendable {
    /// Populated places.
    package var places: [GeocoderPlace]
    /// Street address points.
    package var addresses: [GeocoderAddressPoint]
    /// Samples along named streets.
    package var streetPoints: [GeocoderStreetPoint]
    /// Country names by ISO 3166-1 alpha-2 code, for example `"FI": "Finland"`.
    package var countryNames: [String: String]

    /// Memberwise initialiser; every array may be empty.
    package init(
        places: [GeocoderPlace], addresses: [GeocoderAddressPoint] = [], streetPoints: [GeocoderStreetPoint] = [],
        countryNames: [String: String] = [:]
    ) {
        self.places = places
        self.addresses = addresses
        self.streetPoints = streetPoints
        self.countryNames = countryNames
    }
}

/// The search radii and locality rule of ``ReverseGeocoder``. Defaults are documented in Data/GEOCODER.md.
package struct ReverseGeocoderOptions: Equatable, Sendable {
    /// The farthest address point that still gives a street address, in metres. Defaults to 50.
    package var addressRadiusMetres: Double = 50
    /// The farthest street sample that still gives a street name without a number, in metres. Defaults to 50.
    package var streetRadiusMetres: Double = 50
    /// The farthest GeoNames place that still gives a result; beyond it the answer is "no result". Defaults to
    /// 50,000 m (50 km).
    package var placeRadiusMetres: Double = 50_000
    /// A place of population p "covers" points within `influenceMetresPerSqrtPopulation × √p` metres (capped at
    /// ``maxInfluenceMetres``); among the places covering a point, the locality is the one with the largest
    /// p / max(d, ``influenceDistanceFloorMetres``)². Defaults to 10 m (London: 29.9 km, San Francisco: 9.1 km).
    package var influenceMetresPerSqrtPopulation: Double = 10
    /// Upper bound of a place's influence radius, in metres. Defaults to 30,000.
    package var maxInfluenceMetres: Double = 30_000
    /// Distances below this count as this in the locality score, in metres, so a village centre does not outweigh
    /// the city around it. Defaults to 500.
    package var influenceDistanceFloorMetres: Double = 500

    /// The defaults.
    package init() {}
}

/// One reverse-geocoding answer: address fields plus formatted lines.
package struct GeocodedAddress: Equatable, Sendable {
    /// Degrees: the matched address point or street sample, or the query coordinate for locality-level answers.
    package var latitude: Double
    /// Degrees; see ``latitude``.
    package var longitude: Double
    /// Street name and number in the local order (`"Aleksanterinkatu 52"`), a street name alone, or `nil`.
    package var thoroughfare: String?
    /// The nearest named place when it differs from ``locality`` (a district such as `"Kluuvi"`), or `nil`.
    package var subLocality: String?
    /// The city or town.
    package var locality: String?
    /// The first-level administrative division (state, region), or `nil` when unknown.
    package var administrativeArea: String?
    /// The postal code, or `nil` when unknown.
    package var postalCode: String?
    /// The country's English name, for example `"Finland"`.
    package var country: String?
    /// Formatted lines, most specific first (see ``ReverseGeocoder`` for the format); never empty.
    package var lines: [String]
}

/// An invalid query coordinate.
package enum ReverseGeocodingError: Error, Equatable, Sendable {
    /// Latitude outside [−90, 90], longitude outside [−180, 180], or either not finite.
    case invalidCoordinate(latitude: Double, longitude: Double)
}

/// Answers "what is at this coordinate?" from a ``GeocoderDataset``, by great-circle nearest neighbours.
///
/// For a valid coordinate the answer is, most specific first:
/// 1. If a GeoNames place lies within ``ReverseGeocoderOptions/placeRadiusMetres`` (else: no results at all, e.g. mid-
///    ocean or at the poles), a locality: the place covering the point with the best population-over-distance²
///    score (see ``ReverseGeocoderOptions/influenceMetresPerSqrtPopulation``), or the nearest place when none covers
///    it; `subLocality` is the nearest place when that differs and is in the same country; `administrativeArea` and
///    `country` come from the locality.
/// 2. If an address point lies within ``ReverseGeocoderOptions/addressRadiusMetres``, the first result is that
///    address: thoroughfare `"<street> <number>"`, its postal code, and its `addr:city` as locality when tagged.
///    Otherwise, if a street sample lies within ``ReverseGeocoderOptions/streetRadiusMetres``, the first result
///    carries that street name as thoroughfare. The locality-level answer follows as the second result.
///
/// Lines: with a thoroughfare, `[thoroughfare, "<postal code> <locality>, <country>"]`; without one,
/// `["<subLocality>, <locality>", "<administrativeArea>, <country>"]`; absent parts and empty lines are left out.
/// - Thread rules: immutable; safe to query from any thread.
package final class ReverseGeocoder: Sendable {
    /// The radii and locality rule in use.
    package let options: ReverseGeocoderOptions
    private let places: [GeocoderPlace]
    private let addresses: [GeocoderAddressPoint]
    private let streetPoints: [GeocoderStreetPoint]
    private let countryNames: [String: String]
    private let placeTree: KDTree
    private let addressTree: KDTree
    private let streetTree: KDTree

    /// Builds the three k-d trees over `dataset`.
    /// - Complexity: O(n log n) in the number of records.
    package init(dataset: GeocoderDataset, options: ReverseGeocoderOptions = ReverseGeocoderOptions()) {
        self.options = options
        places = dataset.places
        addresses = dataset.addresses
        streetPoints = dataset.streetPoints
        countryNames = dataset.countryNames
        placeTree = KDTree(points: dataset.places.map { UnitVector(latitude: $0.latitude, longitude: $0.longitude) })
        addressTree = KDTree(
            points: dataset.addresses.map { UnitVector(latitude: $0.latitude, longitude: $0.longitude) })
        streetTree = KDTree(
            points: dataset.streetPoints.map { UnitVector(latitude: $0.latitude, longitude: $0.longitude) })
    }

    /// The index of the nearest place within `radiusMetres` of the coordinate, or `nil` (for tests and tools).
    /// - Precondition: a valid coordinate.
    package func nearestPlaceIndex(latitude: Double, longitude: Double, radiusMetres: Double = 20_015_087) -> Int? {
        let limit = GreatCircle.chord(forMetres: radiusMetres)
        return placeTree.nearest(
            to: UnitVector(latitude: latitude, longitude: longitude), maxSquaredChord: limit * limit)?
            .index
    }

    /// Number of places indexed.
    package var placeCount: Int { places.count }

    /// The place at `index` (as returned by ``nearestPlaceIndex(latitude:longitude:radiusMetres:)``).
    package func place(at index: Int) -> GeocoderPlace { places[index] }

    /// Reverse-geocodes a coordinate in degrees.
    /// - Returns: the answers, most specific first; empty when nothing lies within the radii ("no result").
    /// - Throws: ``ReverseGeocodingError/invalidCoordinate(latitude:longitude:)`` for NaN, infinite or out-of-range
    ///   input (latitude outside [−90, 90], longitude outside [−180, 180]).
    /// - Complexity: O(log n + k) for k places within the largest influence radius.
    package func reverseGeocode(latitude: Double, longitude: Double) throws(ReverseGeocodingError)
        -> [GeocodedAddress]
    {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else {
            throw .invalidCoordinate(latitude: latitude, longitude: longitude)
        }
        let q = UnitVector(latitude: latitude, longitude: longitude)
        let placeLimit = GreatCircle.chord(forMetres: options.placeRadiusMetres)
        guard let nearest = placeTree.nearest(to: q, maxSquaredChord: placeLimit * placeLimit) else { return [] }
        let nearestPlace = places[nearest.index]

        // The locality: best population / distance² among the places whose influence radius covers the point.
        let influenceLimit = GreatCircle.chord(forMetres: options.maxInfluenceMetres)
        var localityIndex = nearest.index
        var bestScore = -1.0
        placeTree.forEach(within: influenceLimit * influenceLimit, of: q) { index, squaredChord in
            let place = places[index]
            let d = GreatCircle.metres(forChord: squaredChord.squareRoot())
            let reach = min(
                options.maxInfluenceMetres,
                options.influenceMetresPerSqrtPopulation * Double(max(place.population, 0)).squareRoot())
            guard d <= reach else { return }
            let floor = max(d, options.influenceDistanceFloorMetres)
            let score = Double(place.population) / (floor * floor)
            if score > bestScore || (score == bestScore && index < localityIndex) {
                bestScore = score
                localityIndex = index
            }
        }
        let locality = places[localityIndex]
        let subLocality =
            localityIndex != nearest.index && nearestPlace.countryCode == locality.countryCode
                && nearestPlace.name != locality.name ? nearestPlace.name : nil
        let country = countryNames[locality.countryCode]
        let area = Self.answer(
            latitude: latitude, longitude: longitude, thoroughfare: nil, subLocality: subLocality,
            locality: locality.name, administrativeArea: locality.administrativeArea, postalCode: nil,
            country: country)

        let addressLimit = GreatCircle.chord(forMetres: options.addressRadiusMetres)
        if let hit = addressTree.nearest(to: q, maxSquaredChord: addressLimit * addressLimit) {
            let a = addresses[hit.index]
            let street = Self.answer(
                latitude: a.latitude, longitude: a.longitude, thoroughfare: "\(a.street) \(a.houseNumber)",
                subLocality: subLocality, locality: a.city ?? locality.name,
                administrativeArea: locality.administrativeArea, postalCode: a.postalCode, country: country)
            return [street, area]
        }
        let streetLimit = GreatCircle.chord(forMetres: options.streetRadiusMetres)
        if let hit = streetTree.nearest(to: q, maxSquaredChord: streetLimit * streetLimit) {
            let s = streetPoints[hit.index]
            let street = Self.answer(
                latitude: s.latitude, longitude: s.longitude, thoroughfare: s.street, subLocality: subLocality,
                locality: locality.name, administrativeArea: locality.administrativeArea, postalCode: nil,
                country: country)
            return [street, area]
        }
        return [area]
    }

    private static func answer(
        latitude: Double, longitude: Double, thoroughfare: String?, subLocality: String?, locality: String?,
        administrativeArea: String?, postalCode: String?, country: String?
    ) -> GeocodedAddress {
        func join(_ parts: [String?], _ separator: String) -> String? {
            let kept = parts.compactMap { $0 }.filter { !$0.isEmpty }
            return kept.isEmpty ? nil : kept.joined(separator: separator)
        }
        let lines: [String?]
        if let thoroughfare {
            lines = [thoroughfare, join([join([postalCode, locality], " "), country], ", ")]
        } else {
            lines = [join([subLocality, locality], ", "), join([administrativeArea, country], ", ")]
        }
        return GeocodedAddress(
            latitude: latitude, longitude: longitude, thoroughfare: thoroughfare, subLocality: subLocality,
            locality: locality, administrativeArea: administrativeArea, postalCode: postalCode, country: country,
            lines: lines.compactMap { $0 })
    }
}
