import CoreLocation
import Testing

@Suite struct ConstantsTests {
    @Test(arguments: [
        ("kCLDistanceFilterNone", kCLDistanceFilterNone, -1.0),
        ("kCLHeadingFilterNone", kCLHeadingFilterNone, -1.0),
        ("kCLLocationAccuracyBestForNavigation", kCLLocationAccuracyBestForNavigation, -2.0),
        ("kCLLocationAccuracyBest", kCLLocationAccuracyBest, -1.0),
        ("kCLLocationAccuracyNearestTenMeters", kCLLocationAccuracyNearestTenMeters, 10.0),
        ("kCLLocationAccuracyHundredMeters", kCLLocationAccuracyHundredMeters, 100.0),
        ("kCLLocationAccuracyKilometer", kCLLocationAccuracyKilometer, 1000.0),
        ("kCLLocationAccuracyThreeKilometers", kCLLocationAccuracyThreeKilometers, 3000.0),
        ("kCLLocationAccuracyReduced", kCLLocationAccuracyReduced, 6_380_000.0),
        ("CLLocationDistanceMax", CLLocationDistanceMax, Double.greatestFiniteMagnitude),
        ("CLTimeIntervalMax", CLTimeIntervalMax, Double.greatestFiniteMagnitude),
    ])
    func numericConstant(name: String, value: Double, expected: Double) {
        #expect(value == expected, "\(name)")
    }

    @Test(arguments: [
        ("kCLErrorDomain", kCLErrorDomain, "kCLErrorDomain"),
        ("kCLErrorUserInfoAlternateRegionKey", kCLErrorUserInfoAlternateRegionKey, "kCLErrorUserInfoAlternateRegionKey"),
        ("CLLocationPushServiceErrorDomain", CLLocationPushServiceErrorDomain, "CLLocationPushServiceErrorDomain"),
    ])
    func stringConstant(name: String, value: String, expected: String) {
        #expect(value == expected, "\(name)")
    }

    @Test func invalidCoordinateSentinel() {
        #expect(kCLLocationCoordinate2DInvalid.latitude == -180)
        #expect(kCLLocationCoordinate2DInvalid.longitude == -180)
    }

    @Test func accuracyConstantsAreOrderedFromFinestToCoarsest() {
        let ordered = [
            kCLLocationAccuracyBestForNavigation, kCLLocationAccuracyBest, kCLLocationAccuracyNearestTenMeters,
            kCLLocationAccuracyHundredMeters, kCLLocationAccuracyKilometer, kCLLocationAccuracyThreeKilometers,
            kCLLocationAccuracyReduced,
        ]
        #expect(ordered == ordered.sorted())
    }

    @Test func typealiasesAreExactlyTheStandardTypes() {
        #expect(CLLocationDegrees.self == Double.self)
        #expect(CLLocationDistance.self == Double.self)
        #expect(CLLocationAccuracy.self == Double.self)
        #expect(CLLocationSpeed.self == Double.self)
        #expect(CLLocationSpeedAccuracy.self == Double.self)
        #expect(CLLocationDirection.self == Double.self)
        #expect(CLLocationDirectionAccuracy.self == Double.self)
        #expect(CLHeadingComponentValue.self == Double.self)
        #expect(CLBeaconMajorValue.self == UInt16.self)
        #expect(CLBeaconMinorValue.self == UInt16.self)
    }
}
