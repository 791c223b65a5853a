import CoreLocation
import Testing

@Suite struct CLRegionTests {
    let center = CLLocationCoordinate2D(latitude: 37.33233141, longitude: -122.03121860)

    // Apple's defaults: notifyOnEntry and notifyOnExit are true.
    @Test func notifyDefaultsAreTrue() {
        let regions: [CLRegion] = [
            CLRegion(),
            CLCircularRegion(center: center, radius: 100, identifier: "c"),
            CLBeaconRegion(uuid: UUID(), identifier: "b"),
        ]
        for region in regions {
            #expect(region.notifyOnEntry, "\(type(of: region))")
            #expect(region.notifyOnExit, "\(type(of: region))")
        }
    }

    @Test func notifyFlagsAreSettable() {
        let region = CLCircularRegion(center: center, radius: 100, identifier: "c")
        region.notifyOnEntry = false
        #expect(!region.notifyOnEntry && region.notifyOnExit)
        region.notifyOnExit = false
        #expect(!region.notifyOnExit)
    }

    @Test func equalityIsClassAndIdentifier() {
        let a = CLCircularRegion(center: center, radius: 100, identifier: "home")
        let sameID = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 1, longitude: 2), radius: 5, identifier: "home")
        let otherID = CLCircularRegion(center: center, radius: 100, identifier: "work")
        let beacon = CLBeaconRegion(uuid: UUID(), identifier: "home")
        #expect(a == sameID)
        #expect(a.hash == sameID.hash)
        #expect(a != otherID)
        #expect((a as CLRegion) != (beacon as CLRegion))
        #expect(!a.isEqual(nil) && !a.isEqual("home"))
    }

    @Test func setOfRegionsHoldsOnePerIdentifierAndClass() {
        let regions: Set<CLRegion> = [
            CLCircularRegion(center: center, radius: 100, identifier: "home"),
            CLCircularRegion(center: center, radius: 200, identifier: "home"),
            CLCircularRegion(center: center, radius: 100, identifier: "work"),
            CLBeaconRegion(uuid: UUID(), identifier: "home"),
        ]
        #expect(regions.count == 3)
        #expect(regions.contains(CLCircularRegion(center: center, radius: 1, identifier: "work")))
    }

    @Test func deprecatedCircularBaseRegion() {
        struct Make: DeprecatedAPICall {
            let center: CLLocationCoordinate2D
            @available(*, deprecated)
            func call() -> (CLRegion, CLLocationCoordinate2D, CLLocationDistance, Bool, Bool) {
                let region = CLRegion(circularRegionWithCenter: center, radius: 500, identifier: "old")
                let near = CLLocationCoordinate2D(latitude: center.latitude + 0.001, longitude: center.longitude)
                let far = CLLocationCoordinate2D(latitude: center.latitude + 0.01, longitude: center.longitude)
                return (region, region.center, region.radius, region.contains(near), region.contains(far))
            }
        }
        let (region, regionCenter, radius, containsNear, containsFar) = callDeprecated(Make(center: center))
        #expect(type(of: region) == CLRegion.self)
        #expect(region.identifier == "old")
        #expect(regionCenter.latitude == center.latitude && regionCenter.longitude == center.longitude)
        #expect(radius == 500)
        #expect(containsNear)  // ~111 m away
        #expect(!containsFar)  // ~1.1 km away
    }

    @Test func plainRegion() throws {
        struct Circle: DeprecatedAPICall {
            let region: CLRegion
            @available(*, deprecated)
            func call() -> (CLLocationDistance, Bool) { (region.radius, region.contains(CLLocationCoordinate2D())) }
        }
        let region = CLRegion()
        #expect(region.identifier == "")
        let (radius, contains) = callDeprecated(Circle(region: region))
        #expect(radius == 0 && !contains)
        let decoded = try #require(try archiveRoundTrip(region))
        #expect(type(of: decoded) == CLRegion.self && decoded.identifier == "")
    }

    @Test func copyIsAnIndependentEqualRegion() throws {
        let region = CLCircularRegion(center: center, radius: 100, identifier: "home")
        region.notifyOnExit = false
        let copy = try #require(region.copy() as? CLCircularRegion)
        #expect(copy !== region)
        #expect(copy == region)
        #expect(!copy.notifyOnExit && copy.notifyOnEntry)
        #expect(copy.radius == 100)
        copy.notifyOnEntry = false
        #expect(region.notifyOnEntry)
    }

    @Test func secureCodingKeepsTheSubclass() throws {
        let region = CLCircularRegion(center: center, radius: 250, identifier: "home")
        region.notifyOnEntry = false
        let decoded = try #require(try archiveRoundTrip(region as CLRegion, as: CLRegion.self))
        let circular = try #require(decoded as? CLCircularRegion)
        #expect(circular.identifier == "home")
        #expect(circular.center.latitude == center.latitude && circular.center.longitude == center.longitude)
        #expect(circular.radius == 250)
        #expect(!circular.notifyOnEntry && circular.notifyOnExit)
    }
}
