import CoreLocation
import Testing

@Suite struct CLProximityTests {
    @Test(arguments: [(CLProximity.unknown, 0), (.immediate, 1), (.near, 2), (.far, 3)])
    func rawValue(proximity: CLProximity, raw: Int) {
        #expect(proximity.rawValue == raw)
        #expect(CLProximity(rawValue: raw) == proximity)
    }

    @Test func rawType() {
        #expect(CLProximity.RawValue.self == Int.self)
        #expect(CLProximity(rawValue: 4) == nil)
    }
}
