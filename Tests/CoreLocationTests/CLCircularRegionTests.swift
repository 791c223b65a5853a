import CoreLocation
import Testing

@Suite struct CLCircularRegionTests {
    let center = CLLocationCoordinate2D(latitude: 37.33233141, longitude: -122.03121860)

    @Test func properties() {
        let region = CLCircularRegion(center: center, radius: 150, identifier: "apple-park")
        #expect(region.center.latitude == center.latitude && region.center.longitude == center.longitude)
        #expect(region.radius == 150)
        #expect(region.identifier == "apple-park")
    }

    @Test func containsCenterAndNearbyPoints() {
        let region = CLCircularRegion(center: center, radius: 100, identifier: "r")
        #expect(region.contains(center))
        // 0.0005° of latitude is about 55 m, 0.0015° about 167 m.
        #expect(region.contains(CLLocationCoordinate2D(latitude: center.latitude + 0.0005, longitude: center.longitude)))
        #expect(!region.contains(CLLocationCoordinate2D(latitude: center.latitude + 0.0015, longitude: center.longitude)))
        #expect(!region.contains(CLLocationCoordinate2D(latitude: -center.latitude, longitude: center.longitude)))
    }

    /// The boundary belongs to the region, measured exactly like `CLLocation.distance(from:)`.
    @Test(arguments: [
        CLLocationCoordinate2D(latitude: 37.3400, longitude: -122.0312),
        CLLocationCoordinate2D(latitude: 37.3323, longitude: -122.0100),
        CLLocationCoordinate2D(latitude: 37.2000, longitude: -121.9000),
    ])
    func boundaryUsesGeodesicDistance(point: CLLocationCoordinate2D) {
        let distance = CLLocation(latitude: center.latitude, longitude: center.longitude)
            .distance(from: CLLocation(latitude: point.latitude, longitude: point.longitude))
        #expect(CLCircularRegion(center: center, radius: distance, identifier: "edge").contains(point))
        #expect(!CLCircularRegion(center: center, radius: distance.nextDown, identifier: "inside").contains(point))
    }

    @Test func invalidCoordinatesAreNeverInside() {
        let everywhere = CLCircularRegion(center: center, radius: CLLocationDistanceMax, identifier: "all")
        #expect(everywhere.contains(CLLocationCoordinate2D(latitude: -89, longitude: 179)))
        #expect(!everywhere.contains(kCLLocationCoordinate2DInvalid))
        #expect(!everywhere.contains(CLLocationCoordinate2D(latitude: .nan, longitude: 0)))
    }

    @Test func descriptionUsesApplesFormat() {
        let region = CLCircularRegion(center: center, radius: 70.65, identifier: "home")
        #expect(region.description == "CLCircularRegion (identifier:'home', center:<+37.33233141,-122.03121860>, radius:70.65m)")
    }

    @Test func secureCodingRoundTrip() throws {
        let region = CLCircularRegion(center: center, radius: 42.5, identifier: "x")
        region.notifyOnExit = false
        let decoded = try #require(try archiveRoundTrip(region))
        #expect(decoded == region)
        #expect(decoded.radius == 42.5 && decoded.center.longitude == center.longitude)
        #expect(decoded.notifyOnEntry && !decoded.notifyOnExit)
    }
}
