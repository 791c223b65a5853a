import CoreLocation
import Testing

@Suite struct CLAccuracyAuthorizationTests {
    @Test func rawValues() {
        #expect(CLAccuracyAuthorization.RawValue.self == Int.self)
        #expect(CLAccuracyAuthorization.fullAccuracy.rawValue == 0)
        #expect(CLAccuracyAuthorization.reducedAccuracy.rawValue == 1)
        #expect(CLAccuracyAuthorization(rawValue: 1) == .reducedAccuracy)
        #expect(CLAccuracyAuthorization(rawValue: 2) == nil)
    }
}
