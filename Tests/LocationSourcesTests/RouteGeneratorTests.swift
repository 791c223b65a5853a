import Foundation
import LocationGeodesy
import Testing
@testable import LocationSources

@Suite struct RouteGeneratorTests {
    typealias W = RouteGenerator.Waypoint

    /// A point `metres` north and `east` metres east of (37.4, -122.1).
    static func offset(north: Double, east: Double = 0) -> W {
        let up = Geodesic.wgs84.direct(latitude: 37.4, longitude: -122.1, azimuth: 0, distance: north)
        let across = Geodesic.wgs84.direct(latitude: up.latitude, longitude: up.longitude, azimuth: 90, distance: east)
        return W(across.latitude, across.longitude)
    }

    let car = RouteGenerator(cruiseSpeed: 10, acceleration: 1, deceleration: 2, lateralAcceleration: 2.5, turnRadius: 12)

    func speeds(_ track: TimedTrack) -> [Double] {
        (0...Int(track.duration)).map { track.state(at: Double($0)).speed }
    }

    @Test func isDeterministic() {
        for route in BuiltInRoute.allCases {
            #expect(route.generator.track(through: route.waypoints) == route.generator.track(through: route.waypoints))
        }
    }

    @Test func straightTripTakesTheTimeTheKinematicsGive() throws {
        let track = car.track(through: [Self.offset(north: 0), Self.offset(north: 1000)], closed: false)
        // 1000 m at 10 m/s, plus v/2a lost accelerating and v/2d braking: 107.5 s, rounded up to 108.
        #expect(track.duration == 108)
        #expect(abs(track.length - 1000) < 0.01)
        let v = speeds(track)
        // Starting from rest: ½·a·(1 s)² in the first second; braking to rest: ½·d·(1 s)² in the last.
        let stretch = 107.5 / 108
        #expect(abs(v[0] - 0.5 * stretch * stretch) < 0.01)
        #expect(abs(v[v.count - 1] - 1.0 * stretch * stretch) < 0.01)
        #expect(abs(try #require(v.max()) - 10 * 107.5 / 108) < 0.01)
        for i in 1..<v.count {
            #expect(v[i] - v[i - 1] <= 1.0 + 1e-6, "accelerating faster than 1 m/s² at \(i)")
            #expect(v[i - 1] - v[i] <= 2.0 + 1e-6, "braking harder than 2 m/s² at \(i)")
        }
    }

    @Test func aStopAddsItsDwellAndTheSpeedLostAroundIt() throws {
        let plain = car.track(through: [Self.offset(north: 0), Self.offset(north: 500), Self.offset(north: 1000)], closed: false)
        var stop = Self.offset(north: 500)
        stop.dwell = 30
        let stopping = car.track(through: [Self.offset(north: 0), stop, Self.offset(north: 1000)], closed: false)
        // Dwell 30 s, plus 5 s lost braking to 0 (v/2d = 2.5 s) and accelerating again (v/2a = 5 s).
        #expect(abs((stopping.duration - plain.duration) - 37.5) <= 1)
        let v = speeds(stopping)
        let standing = v.indices.filter { v[$0] == 0 && $0 > 0 && $0 < v.count - 1 }
        #expect(standing.count >= 29 && standing.count <= 31)
        let middle = try #require(standing.first.map { stopping.position(at: Double($0)) })
        #expect(distance((middle.latitude, middle.longitude), (stop.latitude, stop.longitude)) < 0.01)
    }

    @Test func slowsDownForARightAngleTurnButNotForAGentleBend() throws {
        let corner = car.track(through: [Self.offset(north: 0), Self.offset(north: 600),
                                         Self.offset(north: 600, east: 600)], closed: false)
        let v = speeds(corner)
        let turnTime = try #require((0...Int(corner.duration)).min { a, b in
            distance((corner.position(at: Double(a)).latitude, corner.position(at: Double(a)).longitude),
                     (Self.offset(north: 600).latitude, Self.offset(north: 600).longitude))
            < distance((corner.position(at: Double(b)).latitude, corner.position(at: Double(b)).longitude),
                       (Self.offset(north: 600).latitude, Self.offset(north: 600).longitude))
        })
        let around = v[(turnTime - 3)...(turnTime + 3)]
        // √(2.5 m/s² · 12 m) ≈ 5.5 m/s at the corner; a 1 s average across it is a little more. Never a stop.
        let slowest = try #require(around.min())
        #expect(slowest > 4.5 && slowest < 6.5)
        #expect(v[turnTime - 20] > 9.5)

        let bend = car.track(through: [Self.offset(north: 0), Self.offset(north: 600),
                                       Self.offset(north: 1200, east: 100)], closed: false)
        let bendSpeeds = speeds(bend)
        #expect(bendSpeeds[40...(bendSpeeds.count - 40)].allSatisfy { $0 > 9.5 })
    }

    @Test func circuitsCloseOnWholeSecondsAndOutAndBackTurnsAround() throws {
        let out = [Self.offset(north: 0), Self.offset(north: 300), Self.offset(north: 600)]
        let track = car.track(through: RouteData.outAndBack(out), closed: true)
        #expect(track.isLooping)
        #expect(track.duration == track.duration.rounded())
        #expect(track.points.first?.latitude == track.points.last?.latitude)
        #expect(track.points.first?.longitude == track.points.last?.longitude)
        let v = speeds(track)
        let far = try #require(v.indices.max { a, b in
            track.position(at: Double(a)).latitude < track.position(at: Double(b)).latitude
        })
        #expect(v[far] < 1.5 || v[far + 1] < 1.5, "the U-turn is taken nearly at a halt")
    }

    @Test func speedWaveStaysWithinItsAmplitude() throws {
        let wavy = RouteGenerator(cruiseSpeed: 20, acceleration: 2, deceleration: 2, speedVariation: 2,
                                  variationWavelength: 1000)
        let track = wavy.track(through: [Self.offset(north: 0), Self.offset(north: 5000)], closed: false)
        let cruising = speeds(track).dropFirst(30).dropLast(30)
        #expect(try #require(cruising.max()) > 21.5 && cruising.max()! <= 22.01)
        #expect(try #require(cruising.min()) < 18.5 && cruising.min()! >= 17.9)
    }

    @Test func altitudeFollowsTheWaypoints() throws {
        var a = Self.offset(north: 0), b = Self.offset(north: 1000)
        a.altitude = 100
        b.altitude = 0
        let track = car.track(through: [a, b], closed: false)
        let middle = (0...Int(track.duration)).first { track.position(at: Double($0)).altitude! <= 50 }
        #expect(middle != nil)
        #expect(track.points.first?.altitude == 100)
        #expect(abs(try #require(track.points.last?.altitude)) < 1e-9)
    }
}
