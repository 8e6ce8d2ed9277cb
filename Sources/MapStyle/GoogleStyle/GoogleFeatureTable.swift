// Google's feature types onto the data of the bundled styles: the OpenMapTiles schema (Data/styles/default.json and
// its dark variant) and the Protomaps basemap schema (Data/styles/protomaps.json). Each row names a source layer and,
// where the source layer mixes several of Google's features, a filter on the feature's class/kind; rows of one schema
// and source layer are disjoint, so no feature is styled twice by one rule. Every row is tested
// (Tests/MapStyleTests/GoogleFeatureTableTests.swift). Leaves of Google's hierarchy without a row have no counterpart
// in the data: a rule on them is accepted and reported once (``GoogleStyleApplication/unmatchedFeatureTypes``).

/// The tile schema a style's layers read.
public enum GoogleStyleSchema: String, Sendable, CaseIterable {
    /// OpenMapTiles (`transportation`, `poi`, `place`, …): the bundled world and cities.
    case openMapTiles
    /// The Protomaps basemap, versions 4 and 3 (`roads`, `pois`, `places`, …; `kind` or `pmap:kind`).
    case protomaps

    /// The schema of a style: Protomaps when a layer reads `roads`, `pois`, `places` or `earth`, else OpenMapTiles.
    /// - Parameter style: the style.
    /// - Returns: the schema.
    public static func of(_ style: Style) -> GoogleStyleSchema {
        let marks: Set<String> = ["roads", "pois", "places", "earth"]
        return style.layers.contains { $0.sourceLayer.map(marks.contains) ?? false } ? .protomaps : .openMapTiles
    }
}

/// One row of the table: Google's leaf feature type, the source layer that holds it, and the filter that picks it
/// out there (`nil`: every feature of the source layer).
public struct GoogleFeatureRow: Sendable {
    /// Google's feature type (the most specific one that fits).
    public let featureType: String
    /// The schema.
    public let schema: GoogleStyleSchema
    /// The source layer; `""` for the `background` layer (the land between features).
    public let sourceLayer: String
    /// A MapLibre filter selecting the features, or `nil` for all.
    public let filter: JSONValue?
    /// Why these features are Google's feature type.
    public let reason: String
}

/// The table (see the file's header).
public enum GoogleFeatureTable {
    static func omtClass(_ classes: [String]) -> JSONValue {
        .array([
            .string("match"), .array([.string("get"), .string("class")]), .array(classes.map(JSONValue.string)),
            .bool(true), .bool(false),
        ])
    }

    /// Features whose `class` is none of `classes`, a missing class included: the catch-all row of a source layer.
    static func omtClassOtherThan(_ classes: [String]) -> JSONValue {
        .array([
            .string("match"), .array([.string("get"), .string("class")]), .array(classes.map(JSONValue.string)),
            .bool(false), .bool(true),
        ])
    }

    /// Features whose `kind` (or `pmap:kind`) is none of `kinds`, a missing kind included.
    static func pmKindOtherThan(_ kinds: [String]) -> JSONValue {
        .array([
            .string("match"),
            .array([
                .string("coalesce"), .array([.string("get"), .string("kind")]),
                .array([.string("get"), .string("pmap:kind")]), .string(""),
            ]),
            .array(kinds.map(JSONValue.string)), .bool(false), .bool(true),
        ])
    }

    static func pmKind(_ kinds: [String]) -> JSONValue {
        .array([
            .string("match"),
            .array([
                .string("coalesce"), .array([.string("get"), .string("kind")]),
                .array([.string("get"), .string("pmap:kind")]), .string(""),
            ]),
            .array(kinds.map(JSONValue.string)), .bool(true), .bool(false),
        ])
    }

    static func omtAdmin(_ op: String, _ level: Double) -> JSONValue {
        .array([
            .string(op), .array([.string("coalesce"), .array([.string("get"), .string("admin_level")]), .number(2)]),
            .number(level),
        ])
    }

    static func row(
        _ feature: String, _ schema: GoogleStyleSchema, _ sourceLayer: String, _ filter: JSONValue?, _ reason: String
    ) -> GoogleFeatureRow {
        GoogleFeatureRow(featureType: feature, schema: schema, sourceLayer: sourceLayer, filter: filter, reason: reason)
    }

    // OpenMapTiles POI classes by Google's POI families (OpenMapTiles `poi.class` values). Business is the rest of
    // the layer: shops, food, lodging and services, and every class no other row names (OpenStreetMap's open-ended
    // `amenity`, `leisure`, `tourism`, … and features without a class), so that `poi` reaches every POI but the
    // transit stations, as Google's `poi` does.
    static let omtPoiAttraction = [
        "attraction", "museum", "art_gallery", "monument", "castle", "zoo", "aquarium", "viewpoint",
    ]
    static let omtPoiGovernment = ["town_hall", "police", "fire_station", "post", "prison", "embassy", "courthouse"]
    static let omtPoiMedical = ["hospital", "pharmacy", "doctors", "dentist", "veterinary", "clinic"]
    static let omtPoiPark = ["park", "garden", "nature_reserve", "dog_park", "picnic_site"]
    static let omtPoiSchool = ["school", "college", "university", "kindergarten", "library"]
    static let omtPoiSports = ["sports", "stadium", "pitch", "swimming", "golf", "playground", "ice_rink"]
    static let omtTransitStations = ["bus", "railway", "ferry_terminal", "harbor", "aerialway", "airport", "airfield"]
    static let omtPoiNotBusiness =
        omtPoiAttraction + omtPoiGovernment + omtPoiMedical + omtPoiPark + ["place_of_worship"] + omtPoiSchool
        + omtPoiSports + omtTransitStations

    /// Every row, OpenMapTiles first.
    public static let rows: [GoogleFeatureRow] = [
        // OpenMapTiles
        row(
            "administrative.country", .openMapTiles, "boundary", omtAdmin("<=", 2),
            "admin_level 2 is the national border"),
        row(
            "administrative.province", .openMapTiles, "boundary",
            .array([.string("all"), omtAdmin(">", 2), omtAdmin("<=", 4)]),
            "admin_levels 3-4 are states, provinces and regions"),
        row(
            "administrative.locality", .openMapTiles, "boundary", omtAdmin(">", 4),
            "admin_levels 5-10 bound counties, municipalities and districts, the areas of localities"),
        row("administrative.country", .openMapTiles, "place", omtClass(["country", "continent"]), "country names"),
        row("administrative.province", .openMapTiles, "place", omtClass(["state", "province"]), "region names"),
        row(
            "administrative.locality", .openMapTiles, "place", omtClass(["city", "town", "village", "hamlet"]),
            "settlement names are Google's locality labels"),
        row(
            "administrative.neighborhood", .openMapTiles, "place",
            omtClass(["suburb", "quarter", "neighbourhood", "isolated_dwelling"]), "quarters of a settlement"),
        row(
            "administrative.land_parcel", .openMapTiles, "housenumber", nil,
            "Google draws address numbers as the labels of land parcels"),
        row("landscape.natural", .openMapTiles, "", nil, "the background is the bare land between features"),
        row(
            "landscape.natural.landcover", .openMapTiles, "landcover", nil,
            "wood, grass, farmland, wetland, sand, rock and ice: natural land cover"),
        row(
            "landscape.man_made", .openMapTiles, "landuse",
            omtClass([
                "residential", "suburb", "neighbourhood", "quarter", "commercial", "retail", "industrial", "railway",
                "garages", "quarry", "military", "dam", "cemetery", "bus_station",
            ]), "built-up land uses; cemeteries too, as Google draws them as land use"),
        row("landscape.man_made", .openMapTiles, "building", nil, "buildings are Google's man-made structures"),
        row(
            "poi.medical", .openMapTiles, "landuse", omtClass(["hospital"]),
            "hospital grounds are drawn as the medical POI's area"),
        row(
            "poi.school", .openMapTiles, "landuse", omtClass(["school", "university", "college", "kindergarten"]),
            "school grounds are the school POI's area"),
        row(
            "poi.sports_complex", .openMapTiles, "landuse", omtClass(["pitch", "stadium", "playground", "track"]),
            "pitches and stadiums are sports complexes"),
        row("poi.park", .openMapTiles, "park", nil, "parks and protected areas: Google's park geometry"),
        row(
            "poi.business", .openMapTiles, "poi", omtClassOtherThan(omtPoiNotBusiness),
            "shops, food, lodging and services: every POI class no other row names, and POIs without a class"),
        row("poi.attraction", .openMapTiles, "poi", omtClass(omtPoiAttraction), "sights and culture"),
        row("poi.government", .openMapTiles, "poi", omtClass(omtPoiGovernment), "public administration and safety"),
        row("poi.medical", .openMapTiles, "poi", omtClass(omtPoiMedical), "health care"),
        row("poi.park", .openMapTiles, "poi", omtClass(omtPoiPark), "named parks and gardens"),
        row("poi.place_of_worship", .openMapTiles, "poi", omtClass(["place_of_worship"]), "churches, mosques, temples"),
        row("poi.school", .openMapTiles, "poi", omtClass(omtPoiSchool), "education"),
        row("poi.sports_complex", .openMapTiles, "poi", omtClass(omtPoiSports), "sports grounds and venues"),
        row("transit.station.bus", .openMapTiles, "poi", omtClass(["bus"]), "bus stops and stations"),
        row("transit.station.rail", .openMapTiles, "poi", omtClass(["railway"]), "railway and tram stations"),
        row(
            "transit.station", .openMapTiles, "poi", omtClass(["ferry_terminal", "harbor", "aerialway"]),
            "other stations: ferry terminals, harbours, cable cars"),
        row("transit.station.airport", .openMapTiles, "poi", omtClass(["airport", "airfield"]), "airport POIs"),
        row("transit.station.airport", .openMapTiles, "aeroway", nil, "runways, taxiways and airport areas"),
        row("transit.station.airport", .openMapTiles, "aerodrome_label", nil, "airport names"),
        row(
            "road.highway.controlled_access", .openMapTiles, "transportation", omtClass(["motorway"]),
            "motorways are the controlled-access highways"),
        row("road.highway", .openMapTiles, "transportation", omtClass(["trunk", "primary"]), "the other major roads"),
        row(
            "road.arterial", .openMapTiles, "transportation", omtClass(["secondary", "tertiary"]),
            "roads linking districts"),
        row(
            "road.local", .openMapTiles, "transportation",
            omtClass(["minor", "service", "track", "path", "raceway", "busway", "bus_guideway"]),
            "streets, service roads, tracks and paths"),
        row(
            "transit.line", .openMapTiles, "transportation", omtClass(["rail", "transit", "ferry", "cable_car"]),
            "railways, trams, metros and ferry routes"),
        row(
            "road.highway.controlled_access", .openMapTiles, "transportation_name", omtClass(["motorway"]),
            "motorway names and numbers"),
        row("road.highway", .openMapTiles, "transportation_name", omtClass(["trunk", "primary"]), "major road names"),
        row(
            "road.arterial", .openMapTiles, "transportation_name", omtClass(["secondary", "tertiary"]), "arterial names"
        ),
        row(
            "road.local", .openMapTiles, "transportation_name", omtClass(["minor", "service", "track", "path"]),
            "street names"),
        row(
            "transit.line", .openMapTiles, "transportation_name", omtClass(["rail", "transit", "ferry"]), "line names"),
        row("water", .openMapTiles, "water", nil, "seas, lakes and rivers as areas"),
        row("water", .openMapTiles, "waterway", nil, "rivers, streams and canals as lines"),
        row("water", .openMapTiles, "water_name", nil, "names of seas, lakes and rivers"),

        // Protomaps
        row("landscape.natural", .protomaps, "", nil, "the background below the earth polygons"),
        row("landscape.natural", .protomaps, "earth", nil, "the land polygons"),
        row("landscape.natural.landcover", .protomaps, "landcover", nil, "the low-zoom land cover"),
        row("landscape.natural.landcover", .protomaps, "natural", nil, "wood, grass, sand and rock (version 3)"),
        row(
            "landscape.natural.landcover", .protomaps, "landuse",
            pmKind(["forest", "wood", "orchard", "beach", "farmland", "grassland", "scrub", "heath", "wetland"]),
            "natural kinds that version 4 puts in landuse"),
        row(
            "landscape.man_made", .protomaps, "landuse",
            pmKind([
                "residential", "neighbourhood", "commercial", "retail", "industrial", "railway", "military",
                "naval_base", "pedestrian", "platform", "pier", "marina", "cemetery", "parking", "quarry",
            ]), "built-up land uses"),
        row("landscape.man_made", .protomaps, "buildings", nil, "buildings"),
        row("poi.medical", .protomaps, "landuse", pmKind(["hospital"]), "hospital grounds"),
        row(
            "poi.school", .protomaps, "landuse", pmKind(["school", "university", "college", "kindergarten"]),
            "school grounds"),
        row(
            "poi.sports_complex", .protomaps, "landuse",
            pmKind(["pitch", "stadium", "playground", "track", "recreation_ground", "golf_course", "sports_centre"]),
            "sports grounds"),
        row(
            "poi.park", .protomaps, "landuse",
            pmKind(["park", "garden", "national_park", "nature_reserve", "protected_area", "dog_park", "zoo"]),
            "parks and protected areas"),
        row("transit.station.airport", .protomaps, "landuse", pmKind(["aerodrome", "runway", "taxiway"]), "airports"),
        row("water", .protomaps, "water", nil, "water areas, lines and their names"),
        row("transit.station.airport", .protomaps, "roads", pmKind(["aeroway"]), "runways and taxiways"),
        row("road.highway.controlled_access", .protomaps, "roads", pmKind(["highway"]), "motorways"),
        row("road.highway", .protomaps, "roads", pmKind(["major_road"]), "trunk and primary roads"),
        row("road.arterial", .protomaps, "roads", pmKind(["medium_road"]), "secondary and tertiary roads"),
        row("road.local", .protomaps, "roads", pmKind(["minor_road", "path", "other"]), "streets and paths"),
        row("transit.line", .protomaps, "roads", pmKind(["rail", "ferry"]), "rail and ferry lines in roads"),
        row("transit.line", .protomaps, "transit", nil, "the transit layer's lines"),
        row("administrative.country", .protomaps, "boundaries", pmKind(["country"]), "national borders"),
        row(
            "administrative.province", .protomaps, "boundaries", pmKind(["region", "county"]),
            "regional and county borders"),
        row("administrative.country", .protomaps, "places", pmKind(["country"]), "country names"),
        row("administrative.province", .protomaps, "places", pmKind(["region"]), "region names"),
        row("administrative.locality", .protomaps, "places", pmKind(["locality"]), "settlement names"),
        row(
            "administrative.neighborhood", .protomaps, "places", pmKind(["neighbourhood", "macrohood"]),
            "quarters"),
        row(
            "poi.business", .protomaps, "pois",
            pmKindOtherThan([
                "attraction", "museum", "artwork", "gallery", "monument", "castle", "viewpoint", "aquarium",
                "townhall", "police", "fire_station", "post_office", "prison", "hospital", "pharmacy", "clinic",
                "doctors", "dentist", "park", "garden", "nature_reserve", "zoo", "place_of_worship", "school",
                "university", "college", "kindergarten", "library", "stadium", "sports_centre", "pitch",
                "swimming_pool", "aerodrome", "airport", "bus_stop", "bus_station", "station", "train_station", "halt",
                "tram_stop", "ferry_terminal",
            ]), "shops, food, lodging and services: every POI kind no other row names, and POIs without a kind"),
        row(
            "poi.attraction", .protomaps, "pois",
            pmKind(["attraction", "museum", "artwork", "gallery", "monument", "castle", "viewpoint", "aquarium"]),
            "sights and culture"),
        row(
            "poi.government", .protomaps, "pois",
            pmKind(["townhall", "police", "fire_station", "post_office", "prison"]),
            "public administration and safety"),
        row(
            "poi.medical", .protomaps, "pois", pmKind(["hospital", "pharmacy", "clinic", "doctors", "dentist"]),
            "health care"),
        row("poi.park", .protomaps, "pois", pmKind(["park", "garden", "nature_reserve", "zoo"]), "parks"),
        row("poi.place_of_worship", .protomaps, "pois", pmKind(["place_of_worship"]), "places of worship"),
        row(
            "poi.school", .protomaps, "pois", pmKind(["school", "university", "college", "kindergarten", "library"]),
            "education"),
        row(
            "poi.sports_complex", .protomaps, "pois", pmKind(["stadium", "sports_centre", "pitch", "swimming_pool"]),
            "sports venues"),
        row("transit.station.airport", .protomaps, "pois", pmKind(["aerodrome", "airport"]), "airports"),
        row("transit.station.bus", .protomaps, "pois", pmKind(["bus_stop", "bus_station"]), "bus stops"),
        row(
            "transit.station.rail", .protomaps, "pois", pmKind(["station", "train_station", "halt", "tram_stop"]),
            "rail stations"),
        row("transit.station", .protomaps, "pois", pmKind(["ferry_terminal"]), "ferry terminals"),
    ]

    /// The rows of one schema.
    /// - Parameter schema: the schema.
    /// - Returns: its rows, in table order.
    public static func rows(for schema: GoogleStyleSchema) -> [GoogleFeatureRow] { rows.filter { $0.schema == schema } }
}
