import Testing
import WaymarkTime

@Suite struct ClockTests {
    @Test func manualClockStartsWhereToldAndAdvances() {
        let clock = ManualClock(start: 2)
        #expect(clock.now == 2)
        clock.advance(by: 0.25)
        clock.advance(by: 0)
        #expect(clock.now == 2.25)
    }

    @Test func systemClockIsMonotonic() {
        let clock = SystemClock()
        var last = clock.now
        for _ in 0..<1000 {
            let t = clock.now
            #expect(t >= last)
            last = t
        }
        #expect(last > 0)
    }
}
