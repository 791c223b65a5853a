import Foundation
import LocationCore
import LocationProtocol
import Logging

/// Headings from a Linux IIO magnetometer (`iio`, `iio:/sys/bus/iio/devices/iio:deviceN`), tilt
/// compensated with an accelerometer when the machine has one.
///
/// Every `interval` of loop time it reads the sensors (sysfs attributes, or the records queued on
/// `/dev/iio:deviceN` with `?mode=buffered`), feeds the calibrator and emits the newest heading as
/// `.heading`. Headings are for the device in portrait: the engine applies `headingOrientation`.
/// `headingAccuracy` stays negative until the calibrator has seen the device turned through enough
/// directions; the calibration survives stop and start.
///
/// **Outages.** A device that cannot be found or read gives one `.noFix(reason:)`, a warning in the
/// log, and a new attempt every `retryInterval` (the device is found again, as after a driver reload).
public final class IIOMagnetometerSource: LocationSource {
    public let descriptor: SourceDescriptor
    /// The device directory, nil to use the first magnetometer under `root`.
    public let devicePath: String?
    /// The sysfs directory devices are discovered under.
    public let root: String
    public let mode: IIOCompassReader.Mode

    /// Seconds of loop time between readings: 10 Hz, the rate magnetometers' low-power presets run at.
    public static let interval: TimeInterval = 0.1
    /// Seconds of loop time before a failed device is tried again.
    public static let retryInterval: TimeInterval = 1

    private struct State {
        var run = SourceRun()
        var pending: ScheduledWork?
        var reader: IIOCompassReader?
        var calibrator = MagnetometerCalibrator()
        var failing = false
    }

    private let state = Locked(State())

    public init(devicePath: String? = nil, root: String = IIODiscovery.defaultRoot,
                mode: IIOCompassReader.Mode = .polled, name: String? = nil) {
        self.devicePath = devicePath
        self.root = root
        self.mode = mode
        descriptor = SourceDescriptor(name: name ?? (devicePath.map { "iio:\($0)" } ?? "iio"), kind: .iio,
                                      typicalAccuracy: .infinity, power: PublishedPowerFigures.magnetometer,
                                      measures: .heading)
    }

    public func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        guard let generation = state.withLock({ $0.run.begin() }) else { return }
        sourcesLogger.debug("started", metadata: ["source": "\(descriptor.name)"])
        schedule(tick: 0, from: loop.now, generation: generation, on: loop, emit: emit)
    }

    public func stop() {
        let stopped: (ScheduledWork?, IIOCompassReader?)? = state.withLock { state in
            guard state.run.end() else { return nil }
            defer { state.pending = nil; state.reader = nil; state.failing = false }
            if let reader = state.reader { state.calibrator = reader.processor.calibrator }
            return (state.pending, state.reader)
        }
        guard let stopped else { return }
        stopped.0?.cancel()
        stopped.1?.stop()
        sourcesLogger.debug("stopped", metadata: ["source": "\(descriptor.name)"])
    }

    /// The calibration learnt so far (nil until the device has been turned enough).
    public var calibration: MagnetometerCalibration? {
        state.withLock { $0.reader?.processor.calibrator.calibration ?? $0.calibrator.calibration }
    }

    /// Reading number `tick` at `start + tick × interval` (absolute deadlines, so no drift); after a
    /// failure the count starts again `retryInterval` later.
    private func schedule(tick: Int, from start: Date, generation: UInt64, on loop: any EngineLoop,
                          emit: @escaping @Sendable (SourceEvent) -> Void) {
        let deadline = start.addingTimeInterval(Double(tick) * Self.interval)
        let work = loop.schedule(at: deadline) { [self] in
            guard let healthy = read(generation: generation, now: loop.now, emit: emit) else { return }
            if healthy {
                schedule(tick: tick + 1, from: start, generation: generation, on: loop, emit: emit)
            } else {
                schedule(tick: 0, from: deadline.addingTimeInterval(Self.retryInterval), generation: generation,
                         on: loop, emit: emit)
            }
        }
        let current = state.withLock { state -> Bool in
            guard state.run.isCurrent(generation) else { return false }
            state.pending = work
            return true
        }
        if !current { work.cancel() }
    }

    /// One reading; returns whether the device is open (false: retry later), nil when stopped meanwhile.
    private func read(generation: UInt64, now: Date, emit: @Sendable (SourceEvent) -> Void) -> Bool? {
        let outcome: Result<CompassReading?, IIOError>? = state.withLock { state in
            guard state.run.isCurrent(generation) else { return nil }
            do throws(IIOError) {
                let reader: IIOCompassReader
                if let open = state.reader {
                    reader = open
                } else {
                    reader = try open(calibrator: state.calibrator)
                    state.reader = reader
                }
                state.failing = false
                return .success(try reader.read(at: now).last)
            } catch {
                if let reader = state.reader {
                    state.calibrator = reader.processor.calibrator
                    reader.stop()
                }
                state.reader = nil
                defer { state.failing = true }
                return state.failing ? .success(nil) : .failure(error)
            }
        }
        guard let outcome else { return nil }
        switch outcome {
        case .success(let reading):
            if let reading {
                emit(.heading(HeadingSample(magneticHeading: reading.magneticHeading,
                                            headingAccuracy: reading.headingAccuracy,
                                            x: reading.field.x, y: reading.field.y, z: reading.field.z,
                                            timestamp: reading.timestamp)))
            }
            return state.withLock { $0.reader != nil }
        case .failure(let error):
            sourcesLogger.warning("magnetometer unavailable", metadata: ["source": "\(descriptor.name)", "error": "\(error)"])
            emit(.noFix(reason: "magnetometer unavailable: \(error)"))
            return false
        }
    }

    private func open(calibrator: MagnetometerCalibrator) throws(IIOError) -> IIOCompassReader {
        let (magnetometer, accelerometer) = if let devicePath {
            try IIODiscovery.compass(at: devicePath)
        } else {
            try IIODiscovery.compass(under: root)
        }
        let reader = try IIOCompassReader(magnetometer: magnetometer, accelerometer: accelerometer, mode: mode,
                                          processor: CompassProcessor(calibrator: calibrator))
        try reader.start()
        sourcesLogger.info("magnetometer opened", metadata: [
            "source": "\(descriptor.name)", "magnetometer": "\(magnetometer.name) \(magnetometer.path)",
            "accelerometer": "\(accelerometer.map { "\($0.name) \($0.path)" } ?? "none")",
        ])
        return reader
    }
}
