// Code the way libraries and apps written for Apple platforms write it: only `import CoreLocation`
// (Foundation must come with it), their own `Equatable` on `CLLocationCoordinate2D` (which must not
// be redundant), mutable coordinates, and CLLocation's 2-, 5- and 7-argument initializers.
import CoreLocation
import Testing

extension CLLocationCoordinate2D: Equatable {
    public static func == (lhs: CLLocationCoordinate2D, rhs: CLLocationCoordinate2D) -> Bool {
        lhs.latitude == rhs.latitude && lhs.longitude == rhs.longitude
    }
}

/// A Turf-style helper: moves a coordinate by assigning its components.
private func offset(_ coordinate: CLLocationCoordinate2D, by degrees: CLLocationDegrees) -> CLLocationCoordinate2D {
    var moved = coordinate
    moved.latitude += degrees
    moved.longitude -= degrees
    return moved
}

/// A Polyline-style helper: builds locations from coordinates with timestamps.
private func locations(along coordinates: [CLLocationCoordinate2D], start: Date, interval: TimeInterval) -> [CLLocation] {
    coordinates.enumerated().map { index, coordinate in
        CLLocation(
            coordinate: coordinate, altitude: 0, horizontalAccuracy: 5, verticalAccuracy: -1,
            timestamp: start.addingTimeInterval(Double(index) * interval))
    }
}

@Suite struct LibraryCompatibilityTests {
    @Test func appDeclaredEquatableWorks() {
        let a = CLLocationCoordinate2D(latitude: 1, longitude: 2)
        #expect(a == CLLocationCoordinate2DMake(1, 2))
        #expect(a != kCLLocationCoordinate2DInvalid)
        #expect([a, kCLLocationCoordinate2DInvalid].firstIndex(of: kCLLocationCoordinate2DInvalid) == 1)
    }

    @Test func coordinatesAreAssignable() {
        let moved = offset(CLLocationCoordinate2D(latitude: 10, longitude: 20), by: 0.5)
        #expect(moved == CLLocationCoordinate2D(latitude: 10.5, longitude: 19.5))
    }

    @Test func foundationComesWithCoreLocation() {
        let start = Date(timeIntervalSince1970: 0)
        let track = locations(
            along: [CLLocationCoordinate2D(latitude: 0, longitude: 0), CLLocationCoordinate2D(latitude: 0, longitude: 0.001)],
            start: start, interval: 10)
        #expect(track.map(\.timestamp) == [start, start.addingTimeInterval(10)])
        let uuid: UUID = UUID()
        #expect(CLBeaconRegion(uuid: uuid, identifier: "x").uuid == uuid)
        let interval: TimeInterval = track[1].timestamp.timeIntervalSince(track[0].timestamp)
        #expect(interval == 10)
    }

    @Test func theInitializersLibrariesUse() {
        let two = CLLocation(latitude: 51.5, longitude: -0.12)
        let five = CLLocation(
            coordinate: two.coordinate, altitude: 11, horizontalAccuracy: 3, verticalAccuracy: 4, timestamp: Date())
        let seven = CLLocation(
            coordinate: two.coordinate, altitude: 11, horizontalAccuracy: 3, verticalAccuracy: 4,
            course: 180, speed: 1.5, timestamp: five.timestamp)
        #expect(five.coordinate == two.coordinate && seven.coordinate == two.coordinate)
        #expect(seven.altitude == 11 && seven.verticalAccuracy == 4 && seven.horizontalAccuracy == 3)
        #expect(seven.course == 180 && seven.speed == 1.5)
        let speed: CLLocationSpeed = seven.distance(from: two) / max(seven.timestamp.timeIntervalSince(five.timestamp), 1)
        #expect(speed == 0)
    }

    @Test func headingsAsLibrariesReadThem() {
        final class North: CLHeading {
            override var trueHeading: CLLocationDirection { 0 }
            override var magneticHeading: CLLocationDirection { 13 }
        }
        let heading: CLHeading = North()
        let direction = heading.trueHeading >= 0 ? heading.trueHeading : heading.magneticHeading
        #expect(direction == 0)
    }
}
