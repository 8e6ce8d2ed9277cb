import Foundation
import Testing

@testable import GoogleMaps

/// gpsd JSON lines (gpsd_json(5)) parsed without a daemon.
@Suite struct LocationGPSDParseTests {
    @Test func versionLine() throws {
        let line = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
        #expect(try GPSDReport.parse(line: line) == .version(release: "3.22", protocolMajor: 3, protocolMinor: 14))
    }

    @Test func threeDimensionalTPVBecomesALocation() throws {
        let line = """
            {"class":"TPV","device":"/dev/pts/3","mode":3,"time":"2026-06-30T12:00:02.000Z","ept":0.005,\
            "lat":60.169900000,"lon":24.935200000,"altHAE":34.0000,"altMSL":15.0000,"alt":15.0000,"track":65.0000,\
            "speed":5.402,"geoidSep":19.000,"eph":17.100,"epv":23.5}
            """
        guard case .tpv(let fix?) = try GPSDReport.parse(line: line) else {
            Issue.record("no fix")
            return
        }
        let location = fix.location(receivedAt: Date(timeIntervalSince1970: 0))
        #expect(location.coordinate == CLLocationCoordinate2D(latitude: 60.1699, longitude: 24.9352))
        #expect(location.altitude == 15)  // altMSL, not altHAE
        #expect(location.horizontalAccuracy == 17.1)
        #expect(location.verticalAccuracy == 23.5)
        #expect(location.course == 65)
        #expect(location.speed == 5.402)
        // 2026-06-30T12:00:02Z = 1,782,820,800 s + 2 s after the Unix epoch.
        #expect(location.timestamp == Date(timeIntervalSince1970: 1_782_820_802))
    }

    @Test func twoDimensionalTPVWithAxisErrorsHasNoAltitude() throws {
        let line = #"{"class":"TPV","mode":2,"lat":60.1,"lon":24.9,"alt":99,"epx":12.5,"epy":30.25}"#
        guard case .tpv(let fix?) = try GPSDReport.parse(line: line) else {
            Issue.record("no fix")
            return
        }
        let received = Date(timeIntervalSince1970: 1234)
        let location = fix.location(receivedAt: received)
        #expect(location.horizontalAccuracy == 30.25)  // the larger of epx, epy
        #expect(location.verticalAccuracy == -1)
        #expect(location.altitude == 0)
        #expect(location.course == -1)
        #expect(location.speed == -1)
        #expect(location.timestamp == received)  // no time in the report
    }

    @Test(arguments: [
        #"{"class":"TPV","mode":1,"lat":60.1,"lon":24.9}"#,
        #"{"class":"TPV","mode":0}"#,
        #"{"class":"TPV","mode":3}"#,
        #"{"class":"TPV","lat":60.1,"lon":24.9}"#,
        #"{"class":"TPV","mode":3,"lat":95,"lon":24.9}"#,
    ])
    func reportsWithoutAFixAreNotLocations(line: String) throws {
        #expect(try GPSDReport.parse(line: line) == .tpv(nil))
    }

    @Test func skyCountsUsedSatellites() throws {
        let line = """
            {"class":"SKY","device":"/dev/pts/1","hdop":0.9,"satellites":[{"PRN":5,"el":45,"az":120,"ss":40,"used":true},\
            {"PRN":7,"el":10,"az":300,"ss":20,"used":false},{"PRN":9,"el":60,"az":30,"ss":44,"used":true}]}
            """
        #expect(try GPSDReport.parse(line: line) == .sky(visible: 3, used: 2))
        #expect(try GPSDReport.parse(line: #"{"class":"SKY","nSat":11,"uSat":7}"#) == .sky(visible: 11, used: 7))
    }

    @Test func otherClassesAreNamed() throws {
        #expect(try GPSDReport.parse(line: #"{"class":"DEVICES","devices":[]}"#) == .other(className: "DEVICES"))
        #expect(try GPSDReport.parse(line: #"{"class":"WATCH","enable":true}"#) == .other(className: "WATCH"))
    }

    @Test(arguments: ["", "garbage", "{\"class\":\"TPV\"", "[1,2,3]", "42"])
    func malformedLinesThrowNotJSON(line: String) {
        #expect(throws: GPSDReport.ParseError.notJSON(line: line)) { try GPSDReport.parse(line: line) }
    }

    @Test func objectWithoutClassThrows() {
        #expect(throws: GPSDReport.ParseError.noClass(line: #"{"mode":3}"#)) {
            try GPSDReport.parse(line: #"{"mode":3}"#)
        }
    }
}
