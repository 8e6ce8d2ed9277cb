import CairoGraphics
import Foundation
import MapTestSupport
import MicroHTTPServer
import StaticMapsServer
import Testing

/// Google's documented Static Maps example URLs (and the benchmark's mix) rendered through the service `waymark serve`
/// and `waymark static` share, against goldens that were looked at.
@Suite(.serialized) struct StaticMapsGoldenTests {
    static let service: StaticMapsService? = {
        Fixtures.pinFonts()
        var config = StaticMapsConfig()
        config.workers = 1
        config.cacheMegabytes = 0
        // Debug builds load the GeoNames places on the first request.
        config.deadlineMs = 120_000
        return try? StaticMapsService(config: config)
    }()

    static let examples: [(String, String)] = [
        // Google's first example: markers on a centre given by name (resolved by the GeoNames places to New York).
        (
            "google-brooklyn-markers",
            "center=Brooklyn+Bridge,New+York,NY&zoom=13&size=600x300&maptype=roadmap"
                + "&markers=color:blue%7Clabel:S%7C40.702147,-74.015794&markers=color:green%7Clabel:G%7C40.711614,-74.012318"
                + "&markers=color:red%7Clabel:C%7C40.718217,-73.998284&key=YOUR_API_KEY"
        ),
        // Google's path example, fitted (no centre or zoom).
        (
            "google-path-fit",
            "size=512x512&path=color:0x0000ff|weight:5|40.737102,-73.990318|40.749825,-73.987963"
                + "|40.752946,-73.987384|40.755823,-73.986397"
        ),
        // Google's polygon example with a translucent fill, on coordinates.
        (
            "google-polygon-fill",
            "size=400x400&zoom=13&center=40.74,-73.99&path=color:0x00000000|weight:5|fillcolor:0xFFFF0033"
                + "|40.7506,-73.9935|40.7533,-73.9884|40.7485,-73.9849|40.7459,-73.9902|40.7506,-73.9935"
                + "&path=color:0xff0000ff|weight:3|geodesic:true|40.73,-74.02|40.73,-73.96"
        ),
        // Google's marker sizes and colours, with the default pin and a label.
        (
            "marker-sizes-helsinki",
            "center=60.1699,24.9443&zoom=16&size=480x320&markers=size:tiny|color:0x8800ff|60.1705,24.9400"
                + "&markers=size:small|color:yellow|60.1705,24.9420&markers=size:mid|color:green|label:7|60.1705,24.9440"
                + "&markers=label:W|60.1705,24.9460&markers=color:white|60.1705,24.9480"
        ),
        // Google's styling parameters over Helsinki (through the GMSMapStyle translator).
        (
            "styled-helsinki",
            "center=60.1699,24.9443&zoom=14&size=480x320&style=feature:road.local|element:geometry|color:0x00ff00"
                + "&style=feature:landscape|element:geometry.fill|color:0x000000&style=element:labels|invert_lightness:true"
                + "&style=feature:road.arterial|element:labels|invert_lightness:false"
        ),
        // The benchmark's world view at zoom 2 with a geodesic path over the pole route.
        (
            "world-z2-geodesic",
            "center=40,0&zoom=2&size=640x640&path=color:0xff0000cc|weight:3|geodesic:true|60.17,24.94|37.77,-122.42"
                + "&path=color:0x0000ffcc|weight:3|60.17,24.94|37.77,-122.42&markers=color:red|label:H|60.17,24.94"
                + "&markers=color:blue|label:S|37.77,-122.42"
        ),
    ]

    @Test(arguments: examples.map(\.0)) func example(_ name: String) throws {
        let service = try #require(Self.service)
        let query = Self.examples.first { $0.0 == name }!.1
        let response = service.respond(ServerRequest(method: "GET", target: "/maps/api/staticmap?" + query))
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        guard response.status == 200 else { return }
        let image = try CairoSurface.decodePNG(response.body)
        GoldenImage.expect(
            width: image.width, height: image.height, pixels: image.premultipliedBGRA(),
            matches: Fixtures.golden(name, testTarget: "StaticMapsTests"),
            // 0.5 %: coastline edges differ by a few antialiased pixels with the tiles the process's shared engine
            // already holds (google-polygon-fill: 0.27 % alone against a golden made in a full run).
            channelTolerance: 10, maxDifferingFraction: 0.005)
    }

    /// `language` and `region` through the service: bad values are 400s naming the parameter; `language=sv` draws
    /// another image of Helsinki (its Swedish street names; the names themselves: LabelLanguageRenderTests).
    @Test func languageAndRegionParameters() throws {
        let service = try #require(Self.service)
        func get(_ query: String) -> ServerResponse {
            service.respond(ServerRequest(method: "GET", target: "/maps/api/staticmap?" + query))
        }
        let base = "center=60.1685,24.9440&zoom=16&size=320x240"
        for (query, parameter) in [("&language=swedish", "language"), ("&region=fin", "region")] {
            let answer = get(base + query)
            #expect(answer.status == 400)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("Invalid '\(parameter)' parameter"))
        }
        let plain = get(base)
        let swedish = get(base + "&language=sv")
        let korean = get(base + "&language=ko&region=fi")
        #expect(plain.status == 200 && swedish.status == 200 && korean.status == 200)
        #expect(swedish.body != plain.body)
        // The region biases the bundled GeoNames places: Toledo is Ohio's (the most populous) unless in Spain.
        let ohio = try #require(GeoNamesPlaces.locate("Toledo"))
        let spain = try #require(GeoNamesPlaces.locate("Toledo", region: "ES"))
        #expect(ohio.longitude < -80 && ohio.latitude > 41)
        #expect(abs(spain.latitude - 39.86) < 0.1 && abs(spain.longitude + 4.03) < 0.1)
    }
}
