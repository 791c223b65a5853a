import Foundation
import LocationCore
import LocationProtocol
import Logging

/// Plays a `TimedTrack` on an engine loop: one fix per second of *simulated* time.
///
/// The simulated clock starts at the loop's `now` the first time the player starts and runs `speed`
/// times as fast as loop time from then on, whether or not the player is running (a real device keeps
/// moving while nobody listens). Sample `k` is the track state `k` simulated seconds after the start,
/// stamped `origin + k` seconds and emitted at loop time `origin + k / speed`. A track that does not
/// loop also gets a last sample exactly at its end when that is not a whole second, then `.finished`.
///
/// Starting again after a stop resumes with the first sample not yet due, so the device appears where
/// it would have been. Each start bumps a generation number and every scheduled tick checks it, and
/// `stop()` cancels the pending tick, so a stopped player never emits.
final class TrackPlayer: Sendable {
    let track: TimedTrack
    let profile: FixProfile
    /// Simulated seconds per loop second.
    let speed: Double
    /// For log messages: the spec the source was made from.
    let name: String
    /// When set, each fix is followed by a heading along the course.
    let compass: SimulatedCompass?

    /// The loop can fall behind (a suspended process, a slow consumer): when more samples are due at
    /// once than the player emits in `maximumLag` of loop time, and more than `maximumBacklog`, the
    /// overdue ones are skipped rather than replayed in a burst. The limit is loop time, not a
    /// sample count alone, so that a fast replay (3600 samples per loop second) rides out the few
    /// milliseconds of scheduling jitter of a real clock instead of dropping a quarter of its fixes.
    static let maximumBacklog = 10
    static let maximumLag: TimeInterval = 0.25

    private struct State {
        var origin: Date?
        var running = false
        var generation: UInt64 = 0
        var pending: ScheduledWork?
        var nextIndex = 0
        var lastEmittedIndex = -1
        /// The course of the last moving sample: where a stopped traveller still points.
        var lastCourse: Double?
    }

    private enum Step {
        case done
        case finish
        case emit(offset: TimeInterval, origin: Date)
        case wait(until: Date)
    }

    private let state = Locked(State())
    /// Whole-second samples of a finite track (indices 0..<gridCount), and whether one more sample
    /// sits exactly at its fractional end.
    private let gridCount: Int
    private let hasEndSample: Bool
    /// Samples due at once beyond which the overdue ones are skipped.
    private let backlogLimit: Int

    init(track: TimedTrack, profile: FixProfile, speed: Double, name: String, compass: SimulatedCompass? = nil) {
        precondition(speed.isFinite && speed > 0, "speed must be a positive number")
        self.compass = compass
        self.track = track
        self.profile = profile
        self.speed = speed
        self.name = name
        let whole = (track.duration + 1e-9).rounded(.down)
        gridCount = Int(whole) + 1
        hasEndSample = track.duration - whole > 1e-6
        backlogLimit = max(Self.maximumBacklog, Int(min(Self.maximumLag * speed, 1e9)))
    }

    /// The simulated offset of sample `index`, or nil past the end of a finite track.
    private func offset(ofSample index: Int) -> TimeInterval? {
        if track.isLooping || index < gridCount { return TimeInterval(index) }
        if index == gridCount && hasEndSample { return track.duration }
        return nil
    }

    /// The index of the last sample due `elapsed` simulated seconds after the origin.
    private func lastSampleDue(simulatedElapsed elapsed: TimeInterval) -> Int {
        let whole = Int((elapsed + 1e-9).rounded(.down))
        if track.isLooping { return whole }
        if elapsed >= track.duration { return hasEndSample ? gridCount : gridCount - 1 }
        return min(whole, gridCount - 1)
    }

    /// Where the traveller is at loop time `now`, between samples too. A player that never started
    /// takes `now` as its origin, so whatever listens (a simulated beacon scanner) and the fixes
    /// share one simulated clock whichever starts first.
    func travellerPosition(at now: Date) -> TimedTrack.Point {
        let origin = state.withLock { state in
            let origin = state.origin ?? now
            state.origin = origin
            return origin
        }
        let elapsed = max(0, now.timeIntervalSince(origin)) * speed
        return track.position(at: elapsed)
    }

    func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        let started: (generation: UInt64, deadline: Date)? = state.withLock { state in
            guard !state.running else { return nil }
            let now = loop.now
            let origin = state.origin ?? now
            state.origin = origin
            state.running = true
            state.generation &+= 1
            let elapsed = max(0, now.timeIntervalSince(origin)) * speed
            let firstDue = Int(min((elapsed - 1e-9).rounded(.up), Double(Int.max / 2)))
            state.nextIndex = max(0, firstDue, state.lastEmittedIndex + 1)
            let deadline = offset(ofSample: state.nextIndex).map { origin.addingTimeInterval($0 / speed) } ?? now
            return (state.generation, deadline)
        }
        guard let started else {
            sourcesLogger.debug("start ignored: already running", metadata: ["source": "\(name)"])
            return
        }
        sourcesLogger.debug("started", metadata: ["source": "\(name)", "speed": "\(speed)"])
        schedule(generation: started.generation, at: started.deadline, on: loop, emit: emit)
    }

    func stop() {
        let pending: ScheduledWork?? = state.withLock { state in
            guard state.running else { return .none }
            state.running = false
            state.generation &+= 1
            defer { state.pending = nil }
            return .some(state.pending)
        }
        guard let pending else { return }
        pending?.cancel()
        sourcesLogger.debug("stopped", metadata: ["source": "\(name)"])
    }

    private func emitHeading(_ compass: SimulatedCompass, fix: Fix, offset: TimeInterval,
                             emit: @escaping @Sendable (SourceEvent) -> Void) {
        let course: Double? = state.withLock { state in
            if fix.course >= 0 { state.lastCourse = fix.course }
            return state.lastCourse
        }
        guard let course, let sample = compass.sample(course: course, fix: fix, index: Int(offset)) else { return }
        emit(.heading(sample))
    }

    private func schedule(generation: UInt64, at deadline: Date, on loop: any EngineLoop,
                          emit: @escaping @Sendable (SourceEvent) -> Void) {
        let work = loop.schedule(at: deadline) { [self] in
            tick(generation: generation, on: loop, emit: emit)
        }
        let current = state.withLock { state -> Bool in
            guard state.running, state.generation == generation else { return false }
            state.pending = work
            return true
        }
        if !current { work.cancel() }
    }

    private func tick(generation: UInt64, on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        while true {
            let step: Step = state.withLock { state in
                guard state.running, state.generation == generation, let origin = state.origin else { return .done }
                let now = loop.now
                let elapsed = now.timeIntervalSince(origin) * speed
                let latest = lastSampleDue(simulatedElapsed: elapsed)
                if latest - state.nextIndex > backlogLimit {
                    sourcesLogger.debug("loop fell behind; skipping samples",
                                        metadata: ["source": "\(name)", "skipped": "\(latest - state.nextIndex)"])
                    state.nextIndex = latest
                }
                let index = state.nextIndex
                guard let offset = offset(ofSample: index) else {
                    state.running = false
                    state.pending = nil
                    return .finish
                }
                let due = origin.addingTimeInterval(offset / speed)
                if due > now { return .wait(until: due) }
                state.nextIndex = index + 1
                state.lastEmittedIndex = index
                return .emit(offset: offset, origin: origin)
            }
            switch step {
            case .done:
                return
            case .finish:
                sourcesLogger.debug("finished", metadata: ["source": "\(name)"])
                emit(.finished)
                return
            case .emit(let offset, let origin):
                let fix = profile.fix(for: track.state(at: offset), at: origin.addingTimeInterval(offset))
                emit(.fix(fix))
                if let compass { emitHeading(compass, fix: fix, offset: offset, emit: emit) }
            case .wait(let due):
                schedule(generation: generation, at: due, on: loop, emit: emit)
                return
            }
        }
    }
}
