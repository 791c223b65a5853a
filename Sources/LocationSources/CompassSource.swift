import Foundation
import LocationCore
import LocationProtocol
import Logging

/// A simulated compass: the same magnetic heading once per `interval` of loop time.
///
/// It reports headings only (no position), drawing what a magnetometer draws, so that a
/// configuration such as `fixed:48.85,2.35;compass:0` gives apps both a place and a heading. The
/// samples carry no raw field (a simulated angle has no measured vector) and a fixed accuracy.
public final class CompassSource: LocationSource {
    public let descriptor: SourceDescriptor
    /// Degrees clockwise from magnetic north, 0 ..< 360.
    public let magneticHeading: Double

    /// Seconds of loop time between samples (magnetometers report at 10 Hz or more; apps see the
    /// heading filter's result, so a simulated fixed heading needs no more than this).
    public static let interval: TimeInterval = 0.5
    /// Degrees claimed as the heading's accuracy: a calibrated consumer magnetometer.
    public static let headingAccuracy = 5.0

    private let ticker = PeriodicTicker(interval: CompassSource.interval)

    /// - Precondition: `magneticHeading` finite; `SourceSpec` checks user input before it gets here.
    public init(magneticHeading: Double, name: String? = nil) {
        precondition(magneticHeading.isFinite, "heading must be finite")
        let normalized = magneticHeading.truncatingRemainder(dividingBy: 360)
        self.magneticHeading = normalized < 0 ? normalized + 360 : normalized
        descriptor = SourceDescriptor(
            name: name ?? "compass:\(self.magneticHeading)", kind: .compass, typicalAccuracy: .infinity,
            power: PublishedPowerFigures.magnetometer, measures: .heading)
    }

    /// The sample this compass reports at `timestamp`.
    public func sample(at timestamp: Date) -> HeadingSample {
        HeadingSample(magneticHeading: magneticHeading, headingAccuracy: Self.headingAccuracy, timestamp: timestamp)
    }

    public func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        guard ticker.start(on: loop, { [self] now in emit(.heading(sample(at: now))) }) else { return }
        sourcesLogger.debug("started", metadata: ["source": "\(descriptor.name)"])
    }

    public func stop() {
        _ = ticker.stop()
    }
}
