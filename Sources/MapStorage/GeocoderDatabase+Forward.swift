import MapGeocoding

extension GeocoderDatabase.Contents {
    /// The places as the geocoders' records.
    package var geocoderPlaces: [GeocoderPlace] {
        places.map {
            GeocoderPlace(
                name: $0.name, countryCode: $0.countryCode, administrativeArea: $0.administrativeArea,
                population: $0.population, latitude: $0.latitude, longitude: $0.longitude)
        }
    }

    /// The forward geocoder (place names) over these places: the one index `GMSGeocoder`'s forward lookup,
    /// `waymark geocode NAME` and the static maps server's `center=NAME` share.
    package func forwardGeocoder() -> ForwardGeocoder {
        ForwardGeocoder(places: geocoderPlaces, countryNames: countryNames)
    }
}
