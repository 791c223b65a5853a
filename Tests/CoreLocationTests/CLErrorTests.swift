import CoreLocation
import Testing

@Suite struct CLErrorTests {
    static let codes: [(CLError.Code, Int)] = [
        (.locationUnknown, 0), (.denied, 1), (.network, 2), (.headingFailure, 3),
        (.regionMonitoringDenied, 4), (.regionMonitoringFailure, 5), (.regionMonitoringSetupDelayed, 6),
        (.regionMonitoringResponseDelayed, 7), (.geocodeFoundNoResult, 8), (.geocodeFoundPartialResult, 9),
        (.geocodeCanceled, 10), (.deferredFailed, 11), (.deferredNotUpdatingLocation, 12),
        (.deferredAccuracyTooLow, 13), (.deferredDistanceFiltered, 14), (.deferredCanceled, 15),
        (.rangingUnavailable, 16), (.rangingFailure, 17), (.promptDeclined, 18), (.historicalLocationError, 19),
    ]

    @Test(arguments: codes)
    func rawValue(code: CLError.Code, raw: Int) {
        #expect(code.rawValue == raw)
        #expect(CLError.Code(rawValue: raw) == code)
        let error = CLError(code)
        #expect(error.code == code)
        #expect(error.errorCode == raw)
        #expect((error as NSError).code == raw)
    }

    @Test func staticMembersAreTheCodes() {
        let members: [CLError.Code] = [
            CLError.locationUnknown, CLError.denied, CLError.network, CLError.headingFailure,
            CLError.regionMonitoringDenied, CLError.regionMonitoringFailure, CLError.regionMonitoringSetupDelayed,
            CLError.regionMonitoringResponseDelayed, CLError.geocodeFoundNoResult, CLError.geocodeFoundPartialResult,
            CLError.geocodeCanceled, CLError.deferredFailed, CLError.deferredNotUpdatingLocation,
            CLError.deferredAccuracyTooLow, CLError.deferredDistanceFiltered, CLError.deferredCanceled,
            CLError.rangingUnavailable, CLError.rangingFailure, CLError.promptDeclined, CLError.historicalLocationError,
        ]
        #expect(members.map(\.rawValue) == Array(0...19))
        #expect(CLError.Code(rawValue: 20) == nil)
        #expect(CLError.Code.RawValue.self == Int.self)
    }

    @Test func domain() {
        #expect(CLError.errorDomain == kCLErrorDomain)
        #expect(CLError.errorDomain == "kCLErrorDomain")
    }

    func fail(_ code: CLError.Code) throws { throw CLError(code) }

    @Test func catchByStaticMember() {
        var caught = ""
        do {
            try fail(.denied)
        } catch CLError.denied {
            caught = "denied"
        } catch CLError.locationUnknown {
            caught = "locationUnknown"
        } catch {
            caught = "other"
        }
        #expect(caught == "denied")

        do {
            try fail(.network)
        } catch CLError.denied {
            caught = "denied"
        } catch {
            caught = "other"
        }
        #expect(caught == "other")
    }

    @Test func catchAsCLErrorWhereCode() {
        var code: CLError.Code?
        do {
            try fail(.locationUnknown)
        } catch let error as CLError where error.code == .locationUnknown {
            code = error.code
        } catch {
            code = nil
        }
        #expect(code == .locationUnknown)
    }

    @Test func castFromAnyError() {
        let error: any Error = CLError(.denied)
        #expect((error as? CLError)?.code == .denied)
        guard let clError = error as? CLError else {
            Issue.record("not a CLError")
            return
        }
        switch clError.code {
        case .denied: break
        default: Issue.record("wrong code \(clError.code)")
        }
    }

    @Test func switchOnAnyError() {
        let error: any Error = CLError(.promptDeclined)
        switch error {
        case CLError.denied: Issue.record("matched denied")
        case CLError.promptDeclined: break
        default: Issue.record("no match")
        }
    }

    @Test func bridgesToNSError() {
        let error: any Error = CLError(.regionMonitoringFailure, userInfo: [NSLocalizedDescriptionKey: "too big"])
        let nsError = error as NSError
        #expect(nsError.domain == kCLErrorDomain)
        #expect(nsError.code == CLError.Code.regionMonitoringFailure.rawValue)
        #expect(nsError.localizedDescription == "too big")
        #expect(nsError.userInfo[NSLocalizedDescriptionKey] as? String == "too big")
    }

    /// On Apple platforms an NSError in kCLErrorDomain *is* a CLError; on Linux it cannot cast,
    /// but catching by code still works.
    @Test func catchingMatchesAPlainNSErrorInTheDomain() {
        func throwNSError(domain: String, code: Int) throws { throw NSError(domain: domain, code: code) }
        var matched = false
        do { try throwNSError(domain: kCLErrorDomain, code: 1) } catch CLError.denied { matched = true } catch {}
        #expect(matched)
        matched = false
        do { try throwNSError(domain: "OtherDomain", code: 1) } catch CLError.denied { matched = true } catch {}
        #expect(!matched)
        matched = false
        do { try throwNSError(domain: kCLErrorDomain, code: 2) } catch CLError.denied { matched = true } catch {}
        #expect(!matched)
    }

    @Test func userInfoAndAlternateRegion() {
        let alternate = CLCircularRegion(
            center: CLLocationCoordinate2D(latitude: 1, longitude: 2), radius: 300, identifier: "alt")
        let error = CLError(.regionMonitoringResponseDelayed, userInfo: [kCLErrorUserInfoAlternateRegionKey: alternate])
        #expect(error.alternateRegion === alternate)
        #expect(error.userInfo[kCLErrorUserInfoAlternateRegionKey] as? CLRegion === alternate)
        #expect(error.errorUserInfo.count == 1)
        #expect(CLError(.denied).alternateRegion == nil)
        #expect(CLError(.denied).userInfo.isEmpty)
    }

    @Test func equatableAndHashable() {
        #expect(CLError(.denied) == CLError(.denied))
        #expect(CLError(.denied) != CLError(.network))
        // NSError.hash traps in swift-corelibs-foundation; ours must not.
        #expect(CLError(.denied).hashValue == CLError(.denied).hashValue)
        let set: Set<CLError> = [CLError(.denied), CLError(.denied), CLError(.network)]
        #expect(set.count == 2)
    }

    @Test func wrapsAnExistingNSError() {
        let error = CLError(_nsError: NSError(domain: kCLErrorDomain, code: 17))
        #expect(error.code == .rangingFailure)
    }

    @Test func isSendable() {
        func requireSendable<T: Sendable>(_: T.Type) -> Bool { true }
        #expect(requireSendable(CLError.self))
        #expect(requireSendable(CLError.Code.self))
    }
}
