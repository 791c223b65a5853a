import Foundation
import LocationCore
import LocationDBus
import LocationProtocol
import Logging

/// Headings from iio-sensor-proxy's compass (`sensorproxy`): `net.hadess.SensorProxy` on the system
/// bus, object `/net/hadess/SensorProxy/Compass`, interface `net.hadess.SensorProxy.Compass`.
///
/// **Claiming.** iio-sensor-proxy polls the magnetometer only while some client has called
/// `ClaimCompass()`. The source claims it when it starts (the engine starts a heading source only while
/// some app wants headings) and calls `ReleaseCompass()` when it stops; the proxy also releases the
/// claim of a client that leaves the bus.
///
/// **Headings.** `CompassHeading` (degrees clockwise from magnetic north) is read once after the
/// claim and then from `PropertiesChanged`, which the proxy sends to each claiming client when the
/// heading changes. A value outside 0…360 or not finite means no reading yet (the proxy's mock and
/// Geoclue use -1) and is not reported.
///
/// **Accuracy.** The proxy reports none and says nothing of calibration, so every heading claims
/// `headingAccuracy` degrees: a conservative figure for a consumer e-compass whose calibration state is
/// unknown, rather than the few degrees of a calibrated one.
///
/// **Outages.** No compass (`HasCompass` false), the proxy not running or leaving the bus, the bus
/// itself unreachable, a refused claim: one `.noFix(reason:)` per outage, and the source recovers by
/// itself when the proxy (re)appears (`NameOwnerChanged`) or the bus comes back.
///
/// **Permission.** iio-sensor-proxy's bus policy lets only Geoclue's user use the compass interface;
/// elsewhere the claim is refused (`AccessDenied`) and the reason says so. Run locationd as that user,
/// or add a bus policy that allows its user.
public final class SensorProxyCompassSource: LocationSource {
    public static let service = "net.hadess.SensorProxy"
    public static let path = "/net/hadess/SensorProxy/Compass"
    public static let interface = "net.hadess.SensorProxy.Compass"

    /// Degrees claimed as every heading's accuracy (see the type's documentation).
    public static let headingAccuracy = 15.0

    public let descriptor: SourceDescriptor
    public let bus: DBusBus

    private let link: DBusServiceLink
    private let run = Locked(SourceRun())

    /// - Parameters:
    ///   - bus: the system bus by default; tests give a private bus's address.
    ///   - backoff: delays between attempts to reach the bus after it went away.
    public init(bus: DBusBus = .system, name: String? = nil, backoff: Backoff = Backoff(initial: 0.5, maximum: 10)) {
        self.bus = bus
        let name = name ?? "sensorproxy"
        descriptor = SourceDescriptor(name: name, kind: .sensorproxy, typicalAccuracy: .infinity,
                                      power: PublishedPowerFigures.magnetometer, measures: .heading)
        link = DBusServiceLink(
            bus: bus, service: Self.service,
            matches: [DBusMatchRule(sender: Self.service, interface: DBusConnection.propertiesInterface,
                                    member: "PropertiesChanged", path: Self.path)],
            label: name, backoff: backoff)
    }

    public func start(on loop: any EngineLoop, emit: @escaping @Sendable (SourceEvent) -> Void) {
        guard let generation = run.withLock({ $0.begin() }) else { return }
        sourcesLogger.debug("started", metadata: ["source": "\(descriptor.name)"])
        let handlers = DBusServiceLink.Handlers(
            appeared: { [weak self] connection in self?.claim(on: connection, generation: generation, loop: loop, emit: emit) },
            vanished: { [weak self] reason in
                guard self?.isCurrent(generation) == true else { return }
                emit(.noFix(reason: reason))
            },
            signal: { [weak self] signal in self?.received(signal, generation: generation, loop: loop, emit: emit) })
        link.start(on: loop, handlers: handlers)
    }

    public func stop() {
        guard run.withLock({ $0.end() }) else { return }
        link.stop { connection in
            connection.call(Self.compassCall("ReleaseCompass")) { _ in }
        }
        sourcesLogger.debug("stopped", metadata: ["source": "\(descriptor.name)"])
    }

    private func isCurrent(_ generation: UInt64) -> Bool {
        run.withLock { $0.isCurrent(generation) }
    }

    private static func compassCall(_ member: String) -> DBusMethodCall {
        DBusMethodCall(destination: service, path: path, interface: interface, member: member)
    }

    /// Claims the compass, then reads whether there is one and its heading.
    private func claim(on connection: DBusConnection, generation: UInt64, loop: any EngineLoop,
                       emit: @escaping @Sendable (SourceEvent) -> Void) {
        connection.call(Self.compassCall("ClaimCompass")) { [weak self] result in
            loop.execute { [weak self] in
                guard let self, isCurrent(generation) else { return }
                if case .failure(let failure) = result {
                    let hint = if case .remote(DBusFailure.accessDenied, _) = failure {
                        " (iio-sensor-proxy lets only Geoclue's user use the compass; run as that user or add a bus policy)"
                    } else { "" }
                    link.reportUnavailable("iio-sensor-proxy refused the compass claim: \(failure)\(hint)")
                    return
                }
                connection.allProperties(of: Self.interface, at: Self.path, on: Self.service) { [weak self] result in
                    loop.execute { [weak self] in
                        guard let self, isCurrent(generation) else { return }
                        switch result {
                        case .success(let properties):
                            apply(properties, generation: generation, loop: loop, emit: emit)
                        case .failure(let failure):
                            link.reportUnavailable("cannot read iio-sensor-proxy's compass: \(failure)")
                        }
                    }
                }
            }
        }
    }

    private func received(_ signal: DBusSignal, generation: UInt64, loop: any EngineLoop,
                          emit: @escaping @Sendable (SourceEvent) -> Void) {
        guard isCurrent(generation), signal.path == Self.path, let change = DBusPropertiesChanged(signal),
              change.interface == Self.interface else { return }
        apply(change.changed, generation: generation, loop: loop, emit: emit)
    }

    /// `HasCompass` false: no heading (reported once); a valid `CompassHeading`: a heading.
    private func apply(_ properties: [String: DBusValue], generation: UInt64, loop: any EngineLoop,
                       emit: @escaping @Sendable (SourceEvent) -> Void) {
        if let hasCompass = properties["HasCompass"]?.bool {
            guard hasCompass else {
                link.reportUnavailable("iio-sensor-proxy has no compass")
                return
            }
            link.markAvailable()
        }
        guard let heading = properties["CompassHeading"]?.double, let sample = Self.sample(heading: heading, at: loop.now) else {
            return
        }
        emit(.heading(sample))
    }

    /// The heading sample for a `CompassHeading` value, nil when the value is no reading.
    public static func sample(heading: Double, at timestamp: Date) -> HeadingSample? {
        guard heading.isFinite, heading >= 0, heading <= 360 else { return nil }
        return HeadingSample(magneticHeading: heading == 360 ? 0 : heading, headingAccuracy: headingAccuracy,
                             timestamp: timestamp)
    }
}
