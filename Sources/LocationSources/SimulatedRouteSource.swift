import Foundation
import LocationCore

/// A device travelling a simulated route: one fix per second of simulated time, forever, each
/// followed by a heading along the course with a few degrees of noise (`SimulatedCompass`).
///
/// Simulated time starts at the loop's `now` the first time the source starts and then runs `speed`
/// times as fast as the loop's clock: with `speed` 60 the source emits 60 fixes per loop second, one
/// every 1/60 s, each stamped one simulated second after the previous. Fix timestamps are in simulated
/// time, so speed and course always agree with positions and timestamps; with `speed` 1 they follow the
/// clock.
///
/// The simulated clock keeps running while the source is stopped, like a real device that keeps moving
/// while nobody listens: starting again resumes where the traveller would be by then, with the next
/// whole simulated second. `stop()` cancels all scheduled work; a stopped source never emits.
public final class SimulatedRouteSource: LocationSource {
    public let descriptor: SourceDescriptor
    /// The built-in route, when the source plays one.
    public let route: BuiltInRoute?
    public let track: TimedTrack
    /// Simulated seconds per loop second.
    public var speed: Double { player.speed }

    private let player: TrackPlayer

    /// A source playing a built-in route.
    ///
    /// - Precondition: `speed` positive and finite (`SourceSpec` checks user input).
    public convenience init(route: BuiltInRoute, speed: Double = 1) {
        self.init(name: "sim:\(route.name)", track: route.track, profile: route.profile, speed: speed, route: route)
    }

    /// A source playing any track: looping tracks repeat forever, others end with `.finished`.
    ///
    /// - Precondition: `speed` positive and finite.
    public convenience init(name: String, track: TimedTrack, profile: FixProfile, speed: Double = 1) {
        self.init(name: name, track: track, profile: profile, speed: speed, route: nil)
    }

    private init(name: String, track: TimedTrack, profile: FixProfile, speed: Double, route: BuiltInRoute?) {
        self.route = route
        self.track = track
        player = TrackPlayer(track: track, profile: profile, speed: speed, name: name, compass: SimulatedCompass())
        descriptor = SourceDescriptor(name: name, kind: .simulation,
                                      typicalAccuracy: profile.horizontalAccuracy, powerCost: 0,
                                      measures: [.location, .heading])
    }

    public func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        player.start(on: loop, emit: emit)
    }

    public func stop() { player.stop() }

    /// Where the traveller is at loop time `now` (the simulated clock of the fixes).
    public func travellerPosition(at now: Date) -> (latitude: Double, longitude: Double) {
        let point = player.travellerPosition(at: now)
        return (point.latitude, point.longitude)
    }
}
