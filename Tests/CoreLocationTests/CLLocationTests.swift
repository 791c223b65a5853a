import CoreLocation
import LocationCore
import LocationProtocol
import Testing

@Suite struct CLLocationTests {
    let cupertino = CLLocationCoordinate2D(latitude: 37.33233141, longitude: -122.03121860)
    let date = Date(timeIntervalSince1970: 1_700_000_000)

    // Apple's documented defaults of init(latitude:longitude:).
    @Test func twoArgumentInitializerDefaults() {
        let before = Date()
        let location = CLLocation(latitude: 48.8566, longitude: 2.3522)
        let after = Date()
        #expect(location.coordinate.latitude == 48.8566)
        #expect(location.coordinate.longitude == 2.3522)
        #expect(location.altitude == 0)
        #expect(location.ellipsoidalAltitude == 0)
        #expect(location.horizontalAccuracy == 0)
        #expect(location.verticalAccuracy == -1)
        #expect(location.speed == -1)
        #expect(location.course == -1)
        #expect(location.speedAccuracy == -1)
        #expect(location.courseAccuracy == -1)
        #expect(location.timestamp >= before && location.timestamp <= after)
        #expect(location.floor == nil)
        #expect(location.sourceInformation == nil)
    }

    @Test func noArgumentInitializerIsTheOrigin() {
        let location = CLLocation()
        #expect(location.coordinate.latitude == 0 && location.coordinate.longitude == 0)
        #expect(location.horizontalAccuracy == 0)
        #expect(location.verticalAccuracy == -1)
        #expect(location.speed == -1 && location.course == -1)
    }

    @Test func fiveArgumentInitializer() {
        let location = CLLocation(
            coordinate: cupertino, altitude: 52, horizontalAccuracy: 5, verticalAccuracy: 3, timestamp: date)
        #expect(location.coordinate.latitude == cupertino.latitude)
        #expect(location.coordinate.longitude == cupertino.longitude)
        #expect(location.altitude == 52)
        #expect(location.horizontalAccuracy == 5)
        #expect(location.verticalAccuracy == 3)
        #expect(location.timestamp == date)
        #expect(location.speed == -1 && location.course == -1)
        #expect(location.speedAccuracy == -1 && location.courseAccuracy == -1)
        #expect(location.sourceInformation == nil)
    }

    @Test func sevenArgumentInitializer() {
        let location = CLLocation(
            coordinate: cupertino, altitude: 52, horizontalAccuracy: 5, verticalAccuracy: 3,
            course: 271.5, speed: 12.25, timestamp: date)
        #expect(location.course == 271.5)
        #expect(location.speed == 12.25)
        #expect(location.courseAccuracy == -1)
        #expect(location.speedAccuracy == -1)
        #expect(location.timestamp == date)
    }

    @Test func nineAndTenArgumentInitializers() {
        let nine = CLLocation(
            coordinate: cupertino, altitude: 52, horizontalAccuracy: 5, verticalAccuracy: 3,
            course: 90, courseAccuracy: 7.5, speed: 3, speedAccuracy: 0.5, timestamp: date)
        #expect(nine.course == 90 && nine.courseAccuracy == 7.5)
        #expect(nine.speed == 3 && nine.speedAccuracy == 0.5)
        #expect(nine.sourceInformation == nil)

        let info = CLLocationSourceInformation(softwareSimulationState: true, andExternalAccessoryState: false)
        let ten = CLLocation(
            coordinate: cupertino, altitude: 52, horizontalAccuracy: 5, verticalAccuracy: 3,
            course: 90, courseAccuracy: 7.5, speed: 3, speedAccuracy: 0.5, timestamp: date, sourceInfo: info)
        #expect(ten.sourceInformation === info)
        #expect(ten.sourceInformation?.isSimulatedBySoftware == true)
        #expect(ten.floor == nil)
    }

    // verticalAccuracy ≤ 0 invalidates both altitudes; ellipsoidalAltitude then reads 0.
    @Test(arguments: [0.0, -1.0, -0.001])
    func ellipsoidalAltitudeIsZeroWhenVerticalAccuracyIsNotPositive(verticalAccuracy: Double) {
        let location = CLLocation(
            coordinate: cupertino, altitude: 120, horizontalAccuracy: 5, verticalAccuracy: verticalAccuracy,
            timestamp: date)
        #expect(location.ellipsoidalAltitude == 0)
        // The invalid altitude is reported as given; only the ellipsoidal one is documented as 0.
        #expect(location.altitude == 120)
    }

    /// Our documented choice for the public initializers: the given altitude, geoid separation unknown.
    @Test func ellipsoidalAltitudeOfCreatedLocationIsTheGivenAltitude() {
        let location = CLLocation(
            coordinate: cupertino, altitude: 120, horizontalAccuracy: 5, verticalAccuracy: 4, timestamp: date)
        #expect(location.ellipsoidalAltitude == 120)
    }

    @Test func sentinelsAreReportedAsGiven() {
        let location = CLLocation(
            coordinate: cupertino, altitude: 0, horizontalAccuracy: -1, verticalAccuracy: -1,
            course: -1, courseAccuracy: -1, speed: -1, speedAccuracy: -1, timestamp: date)
        #expect(location.horizontalAccuracy < 0)
        #expect(location.verticalAccuracy <= 0)
        #expect(location.speed < 0 && location.course < 0)
        #expect(location.speedAccuracy < 0 && location.courseAccuracy < 0)
    }

    // distance(from:) is measured on the surface; altitude is ignored.
    @Test func distanceIsZeroToItself() {
        let a = CLLocation(latitude: 51.5074, longitude: -0.1278)
        #expect(a.distance(from: a) == 0)
        #expect(a.distance(from: CLLocation(latitude: 51.5074, longitude: -0.1278)) == 0)
    }

    @Test func distanceIsSymmetric() {
        let paris = CLLocation(latitude: 48.8566, longitude: 2.3522)
        let london = CLLocation(latitude: 51.5074, longitude: -0.1278)
        #expect(paris.distance(from: london) == london.distance(from: paris))
    }

    @Test func distanceIgnoresAltitude() {
        let low = CLLocation(
            coordinate: cupertino, altitude: 0, horizontalAccuracy: 5, verticalAccuracy: 5, timestamp: date)
        let high = CLLocation(
            coordinate: cupertino, altitude: 8_000, horizontalAccuracy: 5, verticalAccuracy: 5, timestamp: date)
        #expect(low.distance(from: high) == 0)
        let sf = CLLocation(latitude: 37.7749, longitude: -122.4194)
        #expect(low.distance(from: sf) == high.distance(from: sf))
    }

    /// Paris–London on the WGS 84 ellipsoid: 343,923.12 m (GeographicLib 2.1, `Geodesic.WGS84.Inverse`).
    /// Exact values are the geodesy module's tests; here only "roughly right" (0.5 %).
    @Test func distanceOfAKnownPair() {
        let paris = CLLocation(latitude: 48.8566, longitude: 2.3522)
        let london = CLLocation(latitude: 51.5074, longitude: -0.1278)
        #expect(relativeError(paris.distance(from: london), 343_923.12) < 0.005)
    }

    @Test func deprecatedGetDistanceFromMatchesDistance() {
        struct GetDistance: DeprecatedAPICall {
            let a: CLLocation, b: CLLocation
            @available(*, deprecated)
            func call() -> CLLocationDistance { a.getDistanceFrom(b) }
        }
        let paris = CLLocation(latitude: 48.8566, longitude: 2.3522)
        let london = CLLocation(latitude: 51.5074, longitude: -0.1278)
        #expect(callDeprecated(GetDistance(a: paris, b: london)) == paris.distance(from: london))
    }

    @Test func descriptionUsesApplesFormat() {
        let location = CLLocation(
            coordinate: cupertino, altitude: 0, horizontalAccuracy: 5, verticalAccuracy: -1,
            course: -1, speed: 0, timestamp: date)
        let prefix = "<+37.33233141,-122.03121860> +/- 5.00m (speed 0.00 mps / course -1.00) @ "
        #expect(location.description.hasPrefix(prefix))
        #expect(location.description.count > prefix.count)
        let south = CLLocation(latitude: -33.865143, longitude: 151.2099)
        #expect(south.description.hasPrefix("<-33.86514300,+151.20990000> +/- 0.00m (speed -1.00 mps / course -1.00) @ "))
    }

    @Test func copyIsTheSameImmutableObject() {
        let location = CLLocation(latitude: 1, longitude: 2)
        #expect(location.copy() as AnyObject === location)
    }

    @Test func isSendable() {
        func requireSendable<T: Sendable>(_ value: T) -> Bool { true }
        #expect(requireSendable(CLLocation(latitude: 1, longitude: 2)))
    }

    @Test func secureCodingRoundTrip() throws {
        let original = CLLocation(
            fix: Fix(
                latitude: 37.33233141, longitude: -122.03121860, altitude: 52.5, ellipsoidalAltitude: 20.25,
                horizontalAccuracy: 4.5, verticalAccuracy: 3.5, speed: 1.25, speedAccuracy: 0.25,
                course: 181.5, courseAccuracy: 12, timestamp: date, isSimulated: true,
                isProducedByAccessory: true, floor: -2))
        let decoded = try #require(try archiveRoundTrip(original))
        #expect(decoded !== original)
        #expect(decoded.fix == original.fix)
        #expect(decoded.floor?.level == -2)
        #expect(decoded.sourceInformation?.isSimulatedBySoftware == true)
        #expect(decoded.sourceInformation?.isProducedByAccessory == true)

        let plain = CLLocation(latitude: 1, longitude: 2)
        let decodedPlain = try #require(try archiveRoundTrip(plain))
        #expect(decodedPlain.floor == nil && decodedPlain.sourceInformation == nil)
        #expect(decodedPlain.timestamp == plain.timestamp)
        #expect(decodedPlain.verticalAccuracy == -1)
    }

    // MARK: Bridge to LocationCore.Fix

    @Test func fixBridgeRoundTripsEveryField() {
        let fix = Fix(
            latitude: -33.865143, longitude: 151.2099, altitude: 58, ellipsoidalAltitude: 80.5,
            horizontalAccuracy: 6.5, verticalAccuracy: 2.5, speed: 3.75, speedAccuracy: 0.5,
            course: 45.25, courseAccuracy: 8, timestamp: date, isSimulated: true,
            isProducedByAccessory: true, floor: 3)
        let location = CLLocation(fix: fix)
        #expect(location.fix == fix)

        #expect(location.coordinate.latitude == fix.latitude)
        #expect(location.coordinate.longitude == fix.longitude)
        #expect(location.altitude == 58)
        #expect(location.ellipsoidalAltitude == 80.5)
        #expect(location.horizontalAccuracy == 6.5)
        #expect(location.verticalAccuracy == 2.5)
        #expect(location.speed == 3.75 && location.speedAccuracy == 0.5)
        #expect(location.course == 45.25 && location.courseAccuracy == 8)
        #expect(location.timestamp == date)
        #expect(location.floor?.level == 3)
        #expect(location.sourceInformation?.isSimulatedBySoftware == true)
        #expect(location.sourceInformation?.isProducedByAccessory == true)
    }

    @Test func fixBridgeKeepsInvalidValuesButMasksEllipsoidalAltitude() {
        let fix = Fix(
            latitude: 10, longitude: 20, altitude: 0, ellipsoidalAltitude: 50,
            horizontalAccuracy: 10, verticalAccuracy: -1, timestamp: date)
        let location = CLLocation(fix: fix)
        #expect(location.ellipsoidalAltitude == 0)
        #expect(location.fix == fix)
        #expect(location.floor == nil)
        // Delivered locations always say where they came from.
        #expect(location.sourceInformation?.isSimulatedBySoftware == false)
        #expect(location.sourceInformation?.isProducedByAccessory == false)
    }

    @Test func fixOfACreatedLocation() {
        let location = CLLocation(
            coordinate: cupertino, altitude: 52, horizontalAccuracy: 5, verticalAccuracy: 3,
            course: 90, speed: 2, timestamp: date)
        let fix = location.fix
        #expect(fix.latitude == cupertino.latitude && fix.longitude == cupertino.longitude)
        #expect(fix.altitude == 52 && fix.ellipsoidalAltitude == 52)
        #expect(fix.course == 90 && fix.courseAccuracy == -1 && fix.speed == 2 && fix.speedAccuracy == -1)
        #expect(!fix.isSimulated && !fix.isProducedByAccessory && fix.floor == nil)
    }

    /// Apps mock locations by subclassing; the overrides must be what the API reports.
    @Test func subclassOverridesAreUsed() {
        final class Fixed: CLLocation, @unchecked Sendable {
            override var coordinate: CLLocationCoordinate2D { CLLocationCoordinate2D(latitude: 48.8566, longitude: 2.3522) }
        }
        let mock = Fixed(latitude: 0, longitude: 0)
        let london = CLLocation(latitude: 51.5074, longitude: -0.1278)
        #expect(mock.distance(from: london) == CLLocation(latitude: 48.8566, longitude: 2.3522).distance(from: london))
        #expect(mock.description.hasPrefix("<+48.85660000,+2.35220000>"))
    }
}
