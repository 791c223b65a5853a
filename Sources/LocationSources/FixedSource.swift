import Foundation
import LocationCore
import LocationProtocol
import Logging

/// A device that never moves: the same point once per second of loop time.
///
/// The first fix comes as soon as the loop runs after `start`, then one every second, stamped with the
/// loop's time. The device is known to stand still, so fixes report `speed` 0 with `speedAccuracy` 0
/// (exactly known) and no course (`course` and `courseAccuracy` -1, as `CLLocation` does for a course
/// it cannot know). Altitude is reported only when given (`verticalAccuracy` -1 otherwise).
/// Time runs at loop speed: the playback `speed` of other sources means nothing here.
public final class FixedSource: LocationSource {
    public let descriptor: SourceDescriptor
    public let latitude: Double
    public let longitude: Double
    public let horizontalAccuracy: Double
    public let altitude: Double?

    /// Seconds of loop time between fixes.
    public static let interval: TimeInterval = 1
    /// Metres (1σ) claimed for a given altitude.
    public static let verticalAccuracy: Double = 8

    private let ticker = PeriodicTicker(interval: FixedSource.interval)


    /// - Parameters:
    ///   - name: the spec the source is known by; defaults to `fixed:LAT,LON,ACCURACY`.
    /// - Precondition: latitude in [-90, 90], longitude in [-180, 180], accuracy finite and not
    ///   negative, altitude finite when given. `SourceSpec` checks user input before it gets here.
    public init(latitude: Double, longitude: Double, horizontalAccuracy: Double = 5,
                altitude: Double? = nil, name: String? = nil) {
        precondition(latitude.isFinite && abs(latitude) <= 90, "latitude out of range")
        precondition(longitude.isFinite && abs(longitude) <= 180, "longitude out of range")
        precondition(horizontalAccuracy.isFinite && horizontalAccuracy >= 0, "accuracy must not be negative")
        precondition(altitude?.isFinite ?? true, "altitude must be finite")
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.altitude = altitude
        descriptor = SourceDescriptor(name: name ?? "fixed:\(latitude),\(longitude),\(horizontalAccuracy)",
                                      kind: .fixed, typicalAccuracy: horizontalAccuracy, powerCost: 0)
    }

    /// The fix this source reports at `timestamp`.
    public func fix(at timestamp: Date) -> Fix {
        Fix(latitude: latitude, longitude: longitude,
            altitude: altitude ?? 0, ellipsoidalAltitude: 0,
            horizontalAccuracy: horizontalAccuracy, verticalAccuracy: altitude == nil ? -1 : Self.verticalAccuracy,
            speed: 0, speedAccuracy: 0, course: -1, courseAccuracy: -1,
            timestamp: timestamp, isSimulated: true)
    }

    public func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        guard ticker.start(on: loop, { [self] now in emit(.fix(fix(at: now))) }) else { return }
        sourcesLogger.debug("started", metadata: ["source": "\(descriptor.name)"])
    }

    public func stop() {
        guard ticker.stop() else { return }
        sourcesLogger.debug("stopped", metadata: ["source": "\(descriptor.name)"])
    }
}
