import Foundation
import MapTestSupport
import Testing

@testable import GoogleMaps

/// Records indoor delegate calls with what the display showed at the time.
final class IndoorRecorder: GMSIndoorDisplayDelegate {
    weak var display: GMSIndoorDisplay?
    var events: [String] = []

    func didChangeActiveBuilding(_ building: GMSIndoorBuilding?) {
        events.append("building \(building?.name ?? "nil") level=\(display?.activeLevel?.shortName ?? "nil")")
    }

    func didChangeActiveLevel(_ level: GMSIndoorLevel?) {
        events.append("level \(level?.shortName ?? "nil")")
    }
}

/// A small hand-made dataset: two overlapping squares and an underground hall, with a level shared by two buildings.
struct SyntheticIndoor {
    static func square(_ lat: Double, _ lon: Double, _ half: Double) -> [CLLocationCoordinate2D] {
        [(-1, -1), (1, -1), (1, 1), (-1, 1), (-1, -1)].map {
            CLLocationCoordinate2D(latitude: lat + Double($0.1) * half, longitude: lon + Double($0.0) * half)
        }
    }

    let shared = GMSIndoorLevel(name: "Concourse", shortName: "C", ordinal: 0)
    let big: GMSIndoorBuilding
    let small: GMSIndoorBuilding
    let hall: GMSIndoorBuilding

    init() {
        big = GMSIndoorBuilding(
            buildingID: "big", name: "Big", outline: Self.square(60, 25, 0.01),
            levels: [
                GMSIndoorLevel(name: "Level 2", shortName: "2", ordinal: 2),
                GMSIndoorLevel(name: "Level 1", shortName: "1", ordinal: 1), shared,
            ], defaultLevelIndex: 1, isUnderground: false)
        small = GMSIndoorBuilding(
            buildingID: "small", name: "Small", outline: Self.square(60, 25, 0.001),
            levels: [GMSIndoorLevel(name: "Level 1", shortName: "1", ordinal: 1), shared], defaultLevelIndex: 0,
            isUnderground: false)
        hall = GMSIndoorBuilding(
            buildingID: "hall", name: "Hall", outline: Self.square(61, 25, 0.01),
            levels: [shared, GMSIndoorLevel(name: "Level -1", shortName: "-1", ordinal: -1)], defaultLevelIndex: 0,
            isUnderground: true)
    }
}

@Suite struct IndoorTests {
    static let data = Fixtures.data.appendingPathComponent("indoor.geojson")
    /// Node/306957582 (Alko, level 0, inside Forum) and node/2270234281 (Fazer 8th Floor, level 7, inside
    /// Stockmann), coordinates from the OSM extract.
    static let alko = CLLocationCoordinate2D(latitude: 60.1693328, longitude: 24.9382903)
    static let fazer = CLLocationCoordinate2D(latitude: 60.1684514, longitude: 24.9422713)
    /// Senate Square, outside both buildings.
    static let senateSquare = CLLocationCoordinate2D(latitude: 60.16952, longitude: 24.95223)

    @Test func bundledDataHasForumAndStockmannWithLevelsTopToBottom() throws {
        let dataset = try IndoorDataset.load(contentsOf: Self.data)
        #expect(dataset.buildings.map(\.name) == ["Forum", "Stockmann"])
        let forum = dataset.buildings[0]
        #expect(forum.levels.map(\.shortName) == ["3", "2", "1", "0", "-1"])
        #expect(forum.levels.map(\.name) == ["Level 3", "Level 2", "Level 1", "Level 0", "Level -1"])
        // Street level is level 1 in Forum (McDonald's "Forum Katutaso" is tagged level=1).
        #expect(forum.levels[Int(forum.defaultLevelIndex)].shortName == "1")
        #expect(!forum.isUnderground)
        let stockmann = dataset.buildings[1]
        #expect(stockmann.levels.first?.shortName == "7")  // "Fazer 8th Floor" is tagged level=7
        #expect(stockmann.levels.last?.shortName == "-2")  // "Food Market Herkku" is tagged level=-2
        #expect(stockmann.levels[Int(stockmann.defaultLevelIndex)].shortName == "0")
        let level0 = try #require(forum.levels.first { $0.shortName == "0" })
        let names = dataset.features(of: forum, on: level0).compactMap(\.name)
        #expect(names.contains("Alko"))
        #expect(!names.contains("Fazer 8th Floor"))
        let level7 = try #require(stockmann.levels.first { $0.shortName == "7" })
        #expect(dataset.features(of: stockmann, on: level7).contains { $0.osmID == "node/2270234281" })
        // Gigantti (node/3258885124) is tagged level=-1;0: on both levels.
        let gigantti = try #require(dataset.features(of: forum).first { $0.osmID == "node/3258885124" })
        #expect(gigantti.levels == [-1, 0])
    }

    @Test func locatorHonoursWaymarkDataDir() {
        let url = IndoorDataset.locate(environment: ["WAYMARK_DATA_DIR": "/srv/maps"])
        #expect(url.path == "/srv/maps/indoor.geojson")
        let found = IndoorDataset.locate(environment: [:], workingDirectory: Fixtures.repositoryRoot)
        #expect(found.path == Self.data.path)
    }

    @Test func focusFollowsTheCameraTargetAtZoom17AndAbove() throws {
        let dataset = try IndoorDataset.load(contentsOf: Self.data)
        let rule = IndoorFocusRule()
        #expect(rule.focusedBuilding(target: Self.alko, zoom: 17, in: dataset.buildings)?.name == "Forum")
        #expect(rule.focusedBuilding(target: Self.alko, zoom: 16.99, in: dataset.buildings) == nil)
        #expect(rule.focusedBuilding(target: Self.fazer, zoom: 19, in: dataset.buildings)?.name == "Stockmann")
        #expect(rule.focusedBuilding(target: Self.senateSquare, zoom: 18, in: dataset.buildings) == nil)
        #expect(rule.focusedBuilding(target: kCLLocationCoordinate2DInvalid, zoom: 18, in: dataset.buildings) == nil)
    }

    @Test func overlappingBuildingsFocusTheSmaller() {
        let data = SyntheticIndoor()
        let rule = IndoorFocusRule()
        let buildings = [data.big, data.small, data.hall]
        #expect(
            rule.focusedBuilding(target: .init(latitude: 60, longitude: 25), zoom: 18, in: buildings) === data.small)
        #expect(
            rule.focusedBuilding(target: .init(latitude: 60.005, longitude: 25), zoom: 18, in: buildings) === data.big)
        #expect(
            rule.focusedBuilding(target: .init(latitude: 61, longitude: 25.005), zoom: 18, in: buildings) === data.hall)
    }

    @Test func buildingChangeUpdatesTheLevelFirstThenCallsBuildingThenLevel() {
        let data = SyntheticIndoor()
        let display = GMSIndoorDisplay()
        let recorder = IndoorRecorder()
        recorder.display = display
        display.delegate = recorder
        #expect(display.activeBuilding == nil)
        #expect(display.activeLevel == nil)
        display.focus(data.big)
        #expect(recorder.events == ["building Big level=1", "level 1"])
        #expect(display.activeLevel === data.big.levels[1])
        display.focus(data.big)  // same building: nothing
        #expect(recorder.events.count == 2)
        display.focus(data.small)
        display.focus(nil)
        #expect(
            recorder.events == [
                "building Big level=1", "level 1", "building Small level=1", "level 1", "building nil level=nil",
                "level nil",
            ])
        #expect(display.activeLevel == nil)
    }

    @Test func validAssignmentsChangeTheLevelAndNotifyOnce() {
        let data = SyntheticIndoor()
        let display = GMSIndoorDisplay()
        let recorder = IndoorRecorder()
        display.delegate = recorder
        display.focus(data.big)
        recorder.events.removeAll()
        display.activeLevel = data.big.levels[0]
        #expect(display.activeLevel === data.big.levels[0])
        #expect(recorder.events == ["level 2"])
        display.activeLevel = data.big.levels[0]  // unchanged: no callback
        #expect(recorder.events == ["level 2"])
        display.activeLevel = data.shared  // a shared level is a member of this building too
        #expect(display.activeLevel === data.shared)
        #expect(recorder.events == ["level 2", "level C"])
    }

    @Test func invalidAssignmentsAreIgnored() {
        let data = SyntheticIndoor()
        let display = GMSIndoorDisplay()
        let recorder = IndoorRecorder()
        display.delegate = recorder
        display.activeLevel = data.big.levels[0]  // no building
        #expect(display.activeLevel == nil)
        display.focus(data.big)
        recorder.events.removeAll()
        let before = display.activeLevel
        display.activeLevel = data.small.levels[0]  // another building's level, even with the same names
        #expect(display.activeLevel === before)
        display.activeLevel = GMSIndoorLevel(name: "Level 2", shortName: "2", ordinal: 2)  // look-alike
        #expect(display.activeLevel === before)
        display.activeLevel = nil  // not underground
        #expect(display.activeLevel === before)
        #expect(recorder.events.isEmpty)
    }

    @Test func undergroundBuildingMayBeHiddenWithNil() {
        let data = SyntheticIndoor()
        let display = GMSIndoorDisplay()
        let recorder = IndoorRecorder()
        display.delegate = recorder
        display.focus(data.hall)
        recorder.events.removeAll()
        display.activeLevel = nil
        #expect(display.activeLevel == nil)
        #expect(display.activeBuilding === data.hall)  // stays active
        #expect(recorder.events == ["level nil"])
        display.activeLevel = data.hall.levels[1]
        #expect(recorder.events == ["level nil", "level -1"])
    }

    @Test func levelEqualityIsIdentity() {
        let data = SyntheticIndoor()
        let twin = GMSIndoorLevel(name: "Concourse", shortName: "C", ordinal: 0)
        #expect(data.shared == data.shared)
        #expect(data.shared != twin)
        #expect(data.big.levels.last == data.hall.levels.first)  // the same object in two buildings
        #expect(data.big.levels[1] != data.small.levels[0])  // both "Level 1", different objects
    }

    @Test func controllerDrivesTheDisplayFromTheCameraAndFiltersFeaturesByLevel() throws {
        let controller = IndoorController(dataset: try IndoorDataset.load(contentsOf: Self.data))
        controller.update(target: Self.alko, zoom: 18)
        let forum = try #require(controller.display.activeBuilding)
        #expect(forum.name == "Forum")
        #expect(!controller.visibleFeatures().contains { $0.name == "Alko" })  // Alko is on level 0, not 1
        controller.display.activeLevel = forum.levels.first { $0.shortName == "0" }
        #expect(controller.visibleFeatures().contains { $0.name == "Alko" })
        #expect(controller.visibleFeatures().allSatisfy { $0.levels.contains(0) })
        controller.update(target: Self.alko, zoom: 18.5)  // same building: the chosen level stays
        #expect(controller.display.activeLevel?.shortName == "0")
        controller.isEnabled = false
        #expect(controller.display.activeBuilding == nil)
        controller.update(target: Self.alko, zoom: 18)
        #expect(controller.display.activeBuilding == nil)
        controller.isEnabled = true
        controller.update(target: Self.fazer, zoom: 18)
        #expect(controller.display.activeBuilding?.name == "Stockmann")
        #expect(controller.display.activeLevel?.shortName == "0")
        controller.update(target: Self.fazer, zoom: 15)
        #expect(controller.visibleFeatures().isEmpty)
    }

    @Test(arguments: [
        ("not json", "not a JSON object"),
        (#"{"type":"Feature"}"#, "FeatureCollection"),
        (
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"kind":"indoor","building_id":"x","levels":[0]},"geometry":{"type":"Point","coordinates":[24,60]}}]}"#,
            "feature 0"
        ),
        (
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"kind":"building","building_id":"b","name":"B","levels":[{"ordinal":0}],"default_level":3},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}]}"#,
            "default_level"
        ),
        (
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"kind":"building","building_id":"b","name":"B","levels":[{"ordinal":0}],"default_level":0},"geometry":{"type":"Point","coordinates":[0,0]}}]}"#,
            "Polygon"
        ),
    ])
    func malformedDataNamesTheFileAndTheProblem(text: String, expected: String) {
        do {
            _ = try IndoorDataset.parse(Data(text.utf8), path: "broken.geojson")
            Issue.record("parsed")
        } catch {
            #expect(error.description.contains("broken.geojson"))
            #expect(error.description.contains(expected), "\(error)")
        }
    }
}
