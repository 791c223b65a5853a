import CoreLocation
import Testing

@Suite struct CLLocationPushServiceErrorTests {
    @Test(arguments: [
        (CLLocationPushServiceError.Code.unknown, 0), (.missingPushExtension, 1),
        (.missingPushServerEnvironment, 2), (.missingEntitlement, 3), (.unsupportedPlatform, 4),
    ])
    func rawValue(code: CLLocationPushServiceError.Code, raw: Int) {
        #expect(code.rawValue == raw)
        #expect(CLLocationPushServiceError.Code(rawValue: raw) == code)
        let nsError = CLLocationPushServiceError(code) as NSError
        #expect(nsError.domain == CLLocationPushServiceErrorDomain)
        #expect(nsError.code == raw)
    }

    @Test func staticMembers() {
        let members: [CLLocationPushServiceError.Code] = [
            CLLocationPushServiceError.unknown, CLLocationPushServiceError.missingPushExtension,
            CLLocationPushServiceError.missingPushServerEnvironment, CLLocationPushServiceError.missingEntitlement,
            CLLocationPushServiceError.unsupportedPlatform,
        ]
        #expect(members.map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect(CLLocationPushServiceError.errorDomain == "CLLocationPushServiceErrorDomain")
    }

    @Test func catching() {
        func fail() throws { throw CLLocationPushServiceError(.unsupportedPlatform) }
        var caught = ""
        do {
            try fail()
        } catch CLError.denied {
            caught = "CLError"
        } catch CLLocationPushServiceError.unsupportedPlatform {
            caught = "unsupportedPlatform"
        } catch {
            caught = "other"
        }
        #expect(caught == "unsupportedPlatform")
        let error: any Error = CLLocationPushServiceError(.missingEntitlement)
        #expect((error as? CLLocationPushServiceError)?.code == .missingEntitlement)
        #expect(Set([CLLocationPushServiceError(.unknown), CLLocationPushServiceError(.unknown)]).count == 1)
    }
}
