import Foundation
import LocationGeodesy
import Testing
@testable import LocationSources

@Suite struct TimedTrackTests {
    /// 0.001° of latitude north of (37, -122): about 111 m due north.
    let north = TimedTrack(points: [
        .init(time: 0, latitude: 37, longitude: -122, altitude: 10),
        .init(time: 10, latitude: 37.001, longitude: -122, altitude: 20),
        .init(time: 30, latitude: 37.001, longitude: -122, altitude: nil),
    ])

    @Test func interpolatesAlongTheGeodesicAtConstantSpeed() throws {
        let length = distance((37, -122), (37.001, -122))
        let middle = north.position(at: 5)
        #expect(abs(distance((37, -122), (middle.latitude, middle.longitude)) - length / 2) < 0.001)
        #expect(abs(distance((middle.latitude, middle.longitude), (37.001, -122)) - length / 2) < 0.001)
        #expect(middle.altitude == 15)
        let state = north.state(at: 5)
        #expect(abs(state.speed - length / 10) < 1e-6)
        #expect(angleBetween(try #require(state.course), 0) < 1e-6)
    }

    @Test func standingStillHasNoCourse() throws {
        let state = north.state(at: 20)
        #expect(state.speed == 0)
        #expect(state.course == nil)
        // Altitude is known only where both ends of the leg have one.
        #expect(state.altitude == nil)
        #expect(north.position(at: 10).altitude == 20)
    }

    @Test func finiteTracksClampAndUseTheFirstSecondAtTheStart() {
        #expect(north.position(at: -5) == TimedTrack.Point(time: -5, latitude: 37, longitude: -122, altitude: 10))
        #expect(north.position(at: 99).latitude == 37.001)
        #expect(north.state(at: 0).speed > 11)   // moving north from the start
        #expect(north.duration == 30)
    }

    @Test func loopingTracksWrapAround() throws {
        let loop = TimedTrack(points: [
            .init(time: 0, latitude: 0, longitude: 0),
            .init(time: 10, latitude: 0, longitude: 0.001),
            .init(time: 20, latitude: 0, longitude: 0),
        ], isLooping: true)
        let a = loop.position(at: 5), b = loop.position(at: 25), c = loop.position(at: -15)
        #expect(a == TimedTrack.Point(time: 5, latitude: b.latitude, longitude: b.longitude))
        #expect(abs(c.longitude - a.longitude) < 1e-12)
        // At the start of a lap the motion is the end of the previous lap: heading west.
        let state = loop.state(at: 20)
        #expect(angleBetween(try #require(state.course), 270) < 0.01)
    }
}
