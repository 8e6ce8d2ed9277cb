import MapGeometry
import StaticMaps
import Testing

@Suite struct StaticMapRequestTests {
    func parse(_ query: String) throws -> StaticMapRequest {
        try StaticMapRequest.parse(StaticMapQuery(query))
    }

    func error(_ query: String, limits: StaticMapLimits = StaticMapLimits()) -> StaticMapError? {
        do {
            _ = try StaticMapRequest.parse(StaticMapQuery(query), limits: limits)
            return nil
        } catch { return error }
    }

    @Test func decodesFormEncoding() {
        let q = StaticMapQuery("center=Brooklyn+Bridge,New+York,NY&markers=color%3Ablue%7Clabel%3AS%7C1,2&&x")
        #expect(q.value("center") == "Brooklyn Bridge,New York,NY")
        #expect(q.values("markers") == ["color:blue|label:S|1,2"])
        #expect(q.value("x") == "")
        #expect(StaticMapQuery.decode("100%") == "100%")
    }

    @Test func googlesBrooklynBridgeExample() throws {
        // Google's first documented example URL.
        let r = try parse(
            "center=Brooklyn+Bridge,New+York,NY&zoom=13&size=600x300&maptype=roadmap"
                + "&markers=color:blue%7Clabel:S%7C40.702147,-74.015794&markers=color:green%7Clabel:G%7C40.711614,-74.012318"
                + "&markers=color:red%7Clabel:C%7C40.718217,-73.998284&key=YOUR_API_KEY")
        #expect(r.center == .place("Brooklyn Bridge,New York,NY"))
        #expect(r.zoom == 13)
        #expect(r.width == 600 && r.height == 300)
        #expect(r.mapType == .roadmap)
        #expect(r.markers.count == 3)
        #expect(r.markers[0].label == "S")
        #expect(r.markers[0].color == RGBAColorFixture.blue)
        #expect(r.markers[2].locations == [.coordinate(LatLng(latitude: 40.718217, longitude: -73.998284))])
        #expect(r.key == "YOUR_API_KEY")
    }

    @Test func pathsWithFillAndEncodedPolylines() throws {
        let r = try parse(
            "size=400x400&path=color:0x0000ff80|weight:5|fillcolor:0xFFFF0033|geodesic:true|8th+Avenue+%26+34th+St,New+York,NY"
                + "|40.7,-74.0&path=weight:3|enc:_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(r.paths.count == 2)
        #expect(r.paths[0].weight == 5)
        #expect(abs(r.paths[0].color.alpha - 128.0 / 255) < 1e-9)
        #expect(r.paths[0].fillColor != nil)
        #expect(r.paths[0].geodesic)
        #expect(r.paths[0].points.first == .place("8th Avenue & 34th St,New York,NY"))
        // Google's polyline documentation example: three points.
        #expect(r.paths[1].points.count == 3)
        #expect(r.paths[1].points[0] == .coordinate(LatLng(latitude: 38.5, longitude: -120.2)))
    }

    @Test func errorsNameTheParameter() {
        #expect(error("center=1,2&zoom=3")?.parameter == "size")
        #expect(error("size=640x640")?.parameter == "center")
        #expect(error("size=640x640&center=1,2")?.parameter == "zoom")
        #expect(error("size=0x10&center=1,2&zoom=3")?.parameter == "size")
        #expect(error("size=4000x10&center=1,2&zoom=3")?.parameter == "size")
        #expect(error("size=10x10&center=1,2&zoom=3.5")?.parameter == "zoom")
        #expect(error("size=10x10&center=1,2&zoom=3&scale=3")?.parameter == "scale")
        #expect(error("size=10x10&center=1,2&zoom=3&format=bmp")?.parameter == "format")
        #expect(error("size=10x10&center=1,2&zoom=3&maptype=moon")?.parameter == "maptype")
        #expect(error("size=10x10&markers=color:chartreuse|1,2")?.parameter == "markers")
        #expect(error("size=10x10&markers=label:ab|1,2")?.parameter == "markers")
        #expect(error("size=10x10&markers=icon:file:///etc/passwd|1,2")?.parameter == "markers")
        #expect(error("size=10x10&path=weight:-1|1,2|3,4")?.parameter == "path")
        #expect(error("size=10x10&path=enc:~")?.parameter == "path")
        #expect(error("size=10x10&center=95,2&zoom=1")?.parameter == "center")
        #expect(error("size=10x10&center=1,2&zoom=1&style=feature:road|color")?.parameter == "style")
        #expect(error("size=10x10&center=1,2&zoom=1&language=english")?.parameter == "language")
        #expect(error("size=10x10&center=1,2&zoom=1&language=")?.parameter == "language")
        #expect(error("size=10x10&center=1,2&zoom=1&region=fin")?.parameter == "region")
        #expect(error("size=10x10&center=1,2&zoom=1&region=f1")?.parameter == "region")
        #expect(error("size=10x10&center=1,2&zoom=1")?.status == nil)
        #expect(error("size=10x10&center=1,2&zoom=3")?.description == nil)
    }

    @Test func limitsAreEnforced() {
        var limits = StaticMapLimits()
        limits.maxMarkers = 2
        limits.maxPathPoints = 2
        limits.maxPixels = 100 * 100
        #expect(error("size=10x10&markers=1,2|3,4|5,6", limits: limits)?.parameter == "markers")
        #expect(error("size=10x10&path=1,2|3,4|5,6", limits: limits)?.parameter == "path")
        #expect(error("size=100x100&scale=2&center=1,2&zoom=1", limits: limits)?.parameter == "size")
        #expect(error("size=100x100&scale=1&center=1,2&zoom=1", limits: limits) == nil)
    }

    @Test func fitsMarkersWhenNoCenterOrZoom() throws {
        let r = try parse("size=600x300&markers=40.702147,-74.015794|40.711614,-74.012318|40.718217,-73.998284")
        let scene = try StaticMapScene(request: r) { _ in nil }
        #expect(abs(scene.camera.center.latitude - 40.71) < 0.01)
        #expect(scene.camera.zoom == 14)
        // Every marker is inside the frame at that zoom, and would not be one zoom closer.
        for m in r.markers[0].locations {
            guard case .coordinate(let c) = m else { continue }
            let p = scene.camera.screenPoint(for: c)
            #expect(p.x > 0 && p.x < 600 && p.y > 36 && p.y < 300)
        }
    }

    /// The fitted camera of a query, and whether each of `points` is inside its frame (the copy of the point nearest
    /// the camera's centre, as the overlay draws it).
    func fit(_ query: String, _ points: [LatLng]) throws -> (zoom: Double, longitude: Double, inside: [Bool]) {
        let scene = try StaticMapScene(request: try parse(query)) { _ in nil }
        let camera = scene.camera
        let inside = points.map { p -> Bool in
            var lng = p.longitude
            while lng - camera.center.longitude > 180 { lng -= 360 }
            while lng - camera.center.longitude < -180 { lng += 360 }
            let s = camera.screenPoint(for: LatLng(latitude: p.latitude, longitude: lng))
            return s.x >= 0 && s.x <= camera.size.width && s.y >= 0 && s.y <= camera.size.height
        }
        return (camera.zoom, camera.center.longitude, inside)
    }

    @Test func markersAndVisibleFitAcrossTheAntimeridianAsPathsDo() throws {
        let points = [LatLng(latitude: -17, longitude: 179), LatLng(latitude: -17, longitude: -179)]
        let path = try fit("size=400x300&path=-17,179|-17,-179", points)
        #expect(path.zoom >= 7)
        #expect(abs(abs(path.longitude) - 180) < 0.01)
        #expect(path.inside == [true, true])
        // The same points as markers fit the same short way (their pins fit in the same zoom here).
        let markers = try fit("size=400x300&markers=-17,179|-17,-179", points)
        #expect(markers.zoom == path.zoom)
        #expect(abs(abs(markers.longitude) - 180) < 0.01)
        #expect(markers.inside == [true, true])
        // With a centre given (either copy of the antimeridian), the markers fit symmetrically around it.
        for center in ["-17,180", "-17,-180"] {
            let centred = try fit("size=400x300&center=\(center)&markers=-17,179|-17,-179", points)
            #expect(centred.zoom == path.zoom)
            #expect(centred.inside == [true, true])
        }
        // `visible` as the path through the same places.
        let corners = [LatLng(latitude: -16, longitude: 178), LatLng(latitude: -18, longitude: -178)]
        let visible = try fit("size=400x300&visible=-16,178|-18,-178", corners)
        let visiblePath = try fit("size=400x300&path=-16,178|-18,-178", corners)
        #expect(visible.zoom >= 6)
        #expect(visible.zoom == visiblePath.zoom)
        #expect(abs(visible.longitude - visiblePath.longitude) < 1e-9)
        #expect(visible.inside == [true, true])
        // Two paths, one each side, and a marker west of a path across the antimeridian.
        let paths = try fit("size=400x300&path=-17,179|-17,178&path=-17,-179|-17,-178", points)
        let onePath = try fit("size=400x300&path=-17,178|-17,-178", points)
        #expect(paths.zoom == onePath.zoom)
        #expect(paths.inside == [true, true])
        let mixed = try fit("size=400x300&path=-17,179|-17,-179&markers=-17,177", points)
        #expect(mixed.zoom >= 6)
        #expect(mixed.inside == [true, true])
    }

    @Test func pointsSpreadOverMoreThanHalfTheWorldFitTheirShortestSpan() throws {
        // −170, 0 and 170: the shortest span holding them is 190° (0 → 170 → 190 = −170), not the 340° from −170 to
        // 170; at 400 points wide that is zoom 1 (270 points), centred on 95°.
        let spread = [0.0, 170, -170].map { LatLng(latitude: 0, longitude: $0) }
        let three = try fit("size=400x300&markers=0,0|0,170|0,-170", spread)
        #expect(three.zoom == 1)
        #expect(abs(three.longitude - 95) < 0.01)
        #expect(three.inside == [true, true, true])
        // −100, 0 and 100: the shortest span (200°) does not cross the antimeridian.
        let wide = [-100.0, 0, 100].map { LatLng(latitude: 0, longitude: $0) }
        let across = try fit("size=400x300&visible=0,-100|0,0|0,100", wide)
        #expect(across.zoom == 1)
        #expect(abs(across.longitude) < 0.01)
        #expect(across.inside == [true, true, true])
        // Every 90°: no gap wider than 90°, a 270° span, the whole world at zoom 0.
        let ring = [-180.0, -90, 0, 90].map { LatLng(latitude: 0, longitude: $0) }
        let all = try fit("size=400x300&markers=0,-180|0,-90|0,0|0,90", ring)
        #expect(all.zoom == 0)
        #expect(all.inside == [true, true, true, true])
        // A path going more than once around the world: zoom 0.
        let around = try fit("size=400x300&path=0,0|0,170|0,-20|0,150|0,-40", [LatLng(latitude: 0, longitude: 0)])
        #expect(around.zoom == 0)
    }

    @Test func placesResolveOrNameTheParameter() throws {
        let r = try parse("size=100x100&zoom=3&center=Nowhere+Town")
        #expect(throws: StaticMapError.self) { try StaticMapScene(request: r) { _ in nil } }
        let scene = try StaticMapScene(request: r) { _ in LatLng(latitude: 10, longitude: 20) }
        #expect(scene.camera.center == LatLng(latitude: 10, longitude: 20))
    }

    @Test func languageAndRegion() throws {
        let r = try parse("size=10x10&center=Toledo&zoom=3&language=zh-cn&region=ES")
        #expect(r.language?.tag == "zh-CN")
        #expect(r.region == "es")
        #expect(r.regionCountryCode == "ES")
        #expect(try parse("size=10x10&center=1,2&zoom=3&region=uk").regionCountryCode == "GB")
        let plain = try parse("size=10x10&center=1,2&zoom=3")
        #expect(plain.language == nil && plain.region == nil && plain.regionCountryCode == nil)
        #expect(error("size=10x10&center=1,2&zoom=3&language=sv%3Bx")?.message.contains("'sv;x'") == true)
    }

    @Test func legacyShadowOptionIsIgnored() throws {
        let r = try parse("size=64x64&markers=shadow:false|color:red|label:A|60.17,24.94&markers=shadow:true|1,2")
        #expect(r.markers.count == 2)
        #expect(r.markers[0].locations == [.coordinate(LatLng(latitude: 60.17, longitude: 24.94))])
        #expect(r.markers[0].label == "A")
        #expect(r.markers[1].locations == [.coordinate(LatLng(latitude: 1, longitude: 2))])
    }

    @Test func labelsAreWhiteOnDarkPins() throws {
        func labelColor(_ color: String) throws -> StaticMapColorFixture {
            let r = try parse("size=64x64&markers=color:\(color)|label:A|60.17,24.94")
            let scene = try StaticMapScene(request: r, resolve: { _ in nil })
            for command in scene.overlay() {
                if case .text(let text) = command {
                    return text.style.color == StaticMapColor.parse("white")! ? .white : .black
                }
            }
            Issue.record("no label drawn for \(color)")
            return .black
        }
        for dark in ["black", "brown", "purple", "0x203040"] { #expect(try labelColor(dark) == .white, "\(dark)") }
        for light in ["red", "yellow", "white", "gray", "orange", "green", "0xC0E0FF"] {
            #expect(try labelColor(light) == .black, "\(light)")
        }
    }

    /// README's `language` rule: a check of form (`_` reads as `-`), not of known languages.
    @Test func languageIsCheckedForFormOnly() throws {
        #expect(try parse("size=64x64&center=0,0&zoom=1&language=de_DE").language?.tag == "de-DE")
        #expect(try parse("size=64x64&center=0,0&zoom=1&language=xx").language?.tag == "xx")
        for bad in ["english", "en-", "1a", "de__DE"] {
            #expect(error("size=64x64&center=0,0&zoom=1&language=" + bad)?.parameter == "language", "\(bad)")
        }
    }
}

enum RGBAColorFixture {
    static let blue = StaticMapColor.parse("blue")!
}

enum StaticMapColorFixture { case white, black }
