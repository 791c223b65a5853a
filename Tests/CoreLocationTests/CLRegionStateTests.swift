import CoreLocation
import Testing

@Suite struct CLRegionStateTests {
    @Test(arguments: [(CLRegionState.unknown, 0), (.inside, 1), (.outside, 2)])
    func rawValue(state: CLRegionState, raw: Int) {
        #expect(state.rawValue == raw)
        #expect(CLRegionState(rawValue: raw) == state)
    }

    @Test func rawType() {
        #expect(CLRegionState.RawValue.self == Int.self)
        #expect(CLRegionState(rawValue: 3) == nil)
    }
}
