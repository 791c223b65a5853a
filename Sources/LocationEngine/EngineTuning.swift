import Foundation
import LocationProtocol

/// The engine's documented time and distance constants, in one place so tests and docs agree.
public struct EngineTuning: Sendable, Equatable {
    /// A single request delivers its best fix (or `locationUnknown`) after this long, seconds.
    /// Apple does not document its value; ~10 s matches what iOS apps observe.
    public var singleRequestTimeout: TimeInterval = 10
    /// Movement within this radius (metres, or twice the fix accuracy if larger) counts as standing still.
    public var stationaryRadius: Double = 25
    /// A continuous request whose desired accuracy is at least this coarse (metres) gets an implicit
    /// distance filter of half its desired accuracy: such apps asked for coarse data, not a stream.
    public var coarseAccuracyThreshold: Double = 100
    /// A fix counts as "more accurate" (and is delivered inside the distance filter) when its
    /// horizontal accuracy is at most this fraction of the last delivered one.
    public var accuracyImprovementRatio: Double = 0.5
    /// Significant change wakes the source this often, seconds (and takes any fix other demand
    /// brings meanwhile).
    public var significantWakeInterval: TimeInterval = UpdateRequest.significantInterval
    /// A wake that brings no fix good enough to tell 500 m gives up after this long, seconds, and
    /// the source rests until the next wake.
    public var significantWakeLimit: TimeInterval = 60
    /// Visit detection's thresholds and duty cycle (its wakes give up after `significantWakeLimit`).
    public var visits = VisitDetector.Parameters()
    /// Beacon ranging reports this often, seconds (Core Location ranges about once a second).
    public var beaconRangingInterval: TimeInterval = 1
    /// How beacon sightings become distances and proximities.
    public var beaconRanging = BeaconRanger.Parameters()

    public init() {}

    /// How long the device must stand still before updates pause (continuous) or are reported as
    /// stationary (live), by activity. Traffic lights must never pause a drive.
    public func stationaryDelay(for activity: UpdateRequest.Activity) -> TimeInterval {
        switch activity {
        case .other: 5 * 60
        case .automotiveNavigation: 10 * 60
        case .fitness: 10 * 60
        case .otherNavigation: 10 * 60
        case .airborne: 30 * 60
        }
    }
}
