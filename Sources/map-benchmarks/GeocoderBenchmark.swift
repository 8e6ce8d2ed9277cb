import GoogleMaps
import MapGeocoding
import MapStorage

/// Loads Data/geocoder.sqlite (found as `GMSGeocoder` finds it) into the records → ReverseGeocoder form.
private func loadGeocoder() throws -> ReverseGeocoder {
    try GeocoderIndexStore.load(GeocoderDatabase.locate())
}

/// Cold start: read the whole database and build the three k-d trees (what the first query of a process pays).
struct GeocoderLoadBenchmark: Benchmark {
    let name = "geocoder-load"
    let unit = "loads"
    let iterations = 5
    func run() throws -> Int {
        let geocoder = try loadGeocoder()
        blackHole(geocoder)
        return 1
    }
}

/// Warm reverse-geocoding queries: 10,000 seeded coordinates per run, half in central Helsinki (address level), half
/// within 20 km of random GeoNames places (locality level). Per-query latency = median / 10,000.
struct GeocoderQueryBenchmark: Benchmark {
    let name = "geocoder-query"
    let unit = "queries"
    private var geocoder: ReverseGeocoder?
    private var queries: [(Double, Double)] = []

    mutating func setUp() throws {
        let geocoder = try loadGeocoder()
        self.geocoder = geocoder
        var random = BenchRandom(seed: 0x5EED)
        func next() -> Double { random.double(0...1) }
        for i in 0..<10_000 {
            if i % 2 == 0 {
                // The Helsinki extract's bounding box.
                queries.append((60.1642 + next() * 0.0149, 24.9352 + next() * 0.0182))
            } else {
                let place = geocoder.place(at: min(Int(next() * Double(geocoder.placeCount)), geocoder.placeCount - 1))
                let lat = max(-90, min(90, place.latitude + (next() - 0.5) * 0.36))
                queries.append((lat, place.longitude + (next() - 0.5) * 0.36))
            }
        }
    }

    func run() throws -> Int {
        var found = 0
        for i in queries.indices { found += try query(i) }
        blackHole(found)
        return queries.count
    }

    /// Runs query `i` (modulo the count) and returns how many results it gave.
    func query(_ i: Int) throws -> Int {
        guard let geocoder, !queries.isEmpty else { return 0 }
        let (lat, lon) = queries[i % queries.count]
        let lonWrapped = lon > 180 ? lon - 360 : (lon < -180 ? lon + 360 : lon)
        return try geocoder.reverseGeocode(latitude: lat, longitude: lonWrapped).count
    }
}

/// One warm query per timed run, over 2,001 runs cycling through the same seeded coordinates as `geocoder-query`:
/// the median is the median single-query latency (including one clock read, about 20 ns).
struct GeocoderSingleQueryBenchmark: Benchmark {
    let name = "geocoder-query-one"
    let unit = "queries"
    let iterations = 2001
    private var inner = GeocoderQueryBenchmark()
    private var next = 0

    mutating func setUp() throws { try inner.setUp() }

    mutating func run() throws -> Int {
        let found = try inner.query(next)
        next += 1
        blackHole(found)
        return 1
    }
}
