import Foundation
import MapTestSupport
import Testing

@Suite struct TopLevelCLITests {
    @Test func noArgumentsIsAUsageError() throws {
        let r = try WaymarkProcess.run([])
        #expect(r.status == 2)
        #expect(r.stderr.contains("usage: waymark"))
    }

    @Test func helpListsEveryCommandAndSucceeds() throws {
        let r = try WaymarkProcess.run(["help"])
        #expect(r.status == 0)
        for name in ["demo", "decode-tile", "geocode"] {
            #expect(r.stdout.contains("  \(name) "), "help does not list \(name) on stdout")
        }
    }

    @Test func unknownCommandIsAUsageErrorNamingIt() throws {
        let r = try WaymarkProcess.run(["frobnicate"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("frobnicate"))
    }
}
