import CoreLocation
import Testing

@Suite struct CLAuthorizationStatusTests {
    @Test(arguments: [
        (CLAuthorizationStatus.notDetermined, Int32(0)), (.restricted, 1), (.denied, 2),
        (.authorizedAlways, 3), (.authorizedWhenInUse, 4),
    ])
    func rawValue(status: CLAuthorizationStatus, raw: Int32) {
        #expect(status.rawValue == raw)
        #expect(CLAuthorizationStatus(rawValue: raw) == status)
    }

    @Test func rawTypeAndBounds() {
        #expect(CLAuthorizationStatus.RawValue.self == Int32.self)
        #expect(CLAuthorizationStatus(rawValue: 3) == .authorizedAlways)
        #expect(CLAuthorizationStatus(rawValue: 5) == nil)
        #expect(CLAuthorizationStatus(rawValue: -1) == nil)
    }

    @Test func deprecatedAuthorizedIsAuthorizedAlways() {
        struct Authorized: DeprecatedAPICall {
            @available(*, deprecated)
            func call() -> CLAuthorizationStatus { .authorized }
        }
        #expect(callDeprecated(Authorized()) == .authorizedAlways)
    }
}
