import CoreLocation
import Testing

@Suite struct CLActivityTypeTests {
    @Test(arguments: [
        (CLActivityType.other, 1), (.automotiveNavigation, 2), (.fitness, 3), (.otherNavigation, 4), (.airborne, 5),
    ])
    func rawValue(type: CLActivityType, raw: Int) {
        #expect(type.rawValue == raw)
        #expect(CLActivityType(rawValue: raw) == type)
    }

    @Test func startsAtOne() {
        #expect(CLActivityType.RawValue.self == Int.self)
        #expect(CLActivityType(rawValue: 0) == nil)
    }
}
