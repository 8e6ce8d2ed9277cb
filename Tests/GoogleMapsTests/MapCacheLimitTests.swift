import MapPipeline
import Testing

@testable import GoogleMaps

/// `GMSServices.mapCacheByteLimit` (Waymark's own, issue 17): the byte budget of the process's one map engine.
@MainActor @Suite struct MapCacheLimitTests {
    @Test func theLimitIsTheSharedEnginesBudget() {
        let before = GMSServices.mapCacheByteLimit
        #expect(before == MapEngine.shared.byteBudget)
        defer { GMSServices.mapCacheByteLimit = before }
        // Raised (lowering it would evict other tests' tiles while they run in parallel).
        GMSServices.mapCacheByteLimit = before + (64 << 20)
        #expect(MapEngine.shared.byteBudget == before + (64 << 20))
        #expect(MapEngine.shared.cacheBytes <= MapEngine.shared.byteBudget)
    }

    @Test func negativeLimitsCountAsZeroOnAnEngineOfItsOwn() {
        let engine = MapEngine(byteBudget: -5)
        #expect(engine.byteBudget == 0)
        #expect(MapEngine().byteBudget == 256 << 20)
    }
}
