import Foundation
import LocationCore
import LocationProtocol
import LocationSources
import Logging

/// Beacon ranging, apart from location and heading demand: a beacon source scans only while some
/// subscriber ranges, alongside whatever runs for locations and headings. What it hears goes through
/// one `BeaconRanger` for the device; every ranging interval each subscriber gets the ranged beacons
/// matching its constraints. A beacon source's `.noFix` means it cannot scan now (adapter off, gone).
extension LocationEngine {
    /// Whether the engine was given a source that hears beacons (`isRangingAvailable()`).
    public var hasBeaconSources: Bool { sources.contains { $0.descriptor.measures.contains(.beacons) } }

    /// Starts ranging the beacons that match any of `constraints` for `handler`.
    ///
    /// - Parameter account: whom the energy of the beacon source is booked to
    ///   (`EnergyReport.byAccount`, service `beacon-ranging`).
    public func subscribeBeacons(
        _ constraints: [BeaconConstraint], account: String = "",
        handler: @escaping @Sendable (BeaconScanEvent) -> Void
    ) -> EngineBeaconSubscription {
        let id = lastID.withLock { last in
            last += 1
            return last
        }
        loop.execute {
            self.beaconSubscriptions[id] = BeaconSubscriptionState(constraints: constraints, account: account, handler: handler)
            self.reconcileDemand()
        }
        return EngineBeaconSubscription(id: id, engine: self)
    }

    func updateBeacons(_ id: UInt64, constraints: [BeaconConstraint]) {
        loop.execute { self.beaconSubscriptions[id]?.constraints = constraints }
    }

    func cancelBeacons(_ id: UInt64) {
        loop.execute {
            guard self.beaconSubscriptions.removeValue(forKey: id) != nil else { return }
            self.reconcileDemand()
        }
    }

    // MARK: Loop-confined

    /// The source to scan with: none without ranging demand, or when `locationSource` hears beacons
    /// itself; else the cheapest unfinished beacon source.
    func beaconSourceWanted(alongside locationSource: (any LocationSource)?) -> (any LocationSource)? {
        guard !beaconSubscriptions.isEmpty else { return nil }
        if let locationSource, locationSource.descriptor.measures.contains(.beacons) { return nil }
        return sources
            .filter { $0.descriptor.measures.contains(.beacons) && !finishedSources.contains(ObjectIdentifier($0)) }
            .min { $0.descriptor.powerCost < $1.descriptor.powerCost }
    }

    /// Tells the beacon meter who demands the beacon source now.
    func accountBeaconDemand() {
        var accounts: [String: Int] = [:]
        for state in beaconSubscriptions.values { accounts[state.account, default: 0] += 1 }
        let services = beaconSubscriptions.isEmpty ? [:] : ["beacon-ranging": beaconSubscriptions.count]
        beaconEnergy.demandChanged(services: services, accounts: accounts, at: loop.now)
    }

    func startBeaconSource(_ source: any LocationSource) {
        beaconGeneration += 1
        let current = beaconGeneration
        beaconActive = source
        beaconEnergy.started(name: source.descriptor.name, power: source.descriptor.power, at: loop.now)
        logger.debug("starting beacon source", metadata: ["source": "\(source.descriptor.name)"])
        beaconScanningResumed()
        source.start(on: loop) { event in
            self.loop.preconditionInLoop()
            guard current == self.beaconGeneration else { return }
            switch event {
            case .beacon(let sighting):
                self.beaconEnergy.receivedFix(at: self.loop.now)
                self.observeBeacon(sighting)
            case .noFix(let reason):
                self.beaconScanningUnavailable(reason)
            case .fix, .heading:
                // Positions and headings come from the sources run for them.
                break
            case .finished:
                self.logger.info("beacon source finished", metadata: ["source": "\(source.descriptor.name)"])
                self.finishedSources.insert(ObjectIdentifier(source))
                self.stopBeaconSource()
                self.reconcileDemand()
            }
        }
    }

    func stopBeaconSource() {
        guard let source = beaconActive else { return }
        beaconGeneration += 1
        beaconActive = nil
        source.stop()
        beaconEnergy.stopped(at: loop.now)
        // What one scan heard says nothing about the next.
        beaconRanger.reset()
        logger.debug("stopped beacon source", metadata: ["source": "\(source.descriptor.name)"])
    }

    /// After demand changed: the ranging timer runs while someone ranges, and ranging is unavailable
    /// while nothing scans.
    func reconcileBeaconRanging(locationSource: (any LocationSource)?) {
        guard !beaconSubscriptions.isEmpty else {
            beaconTimer?.cancel()
            beaconTimer = nil
            beaconRanger.reset()
            beaconUnavailable = nil
            return
        }
        let scanning = beaconActive != nil || (locationSource?.descriptor.measures.contains(.beacons) ?? false)
        if !scanning { beaconScanningUnavailable("no beacon source available") }
        // A new subscriber hears at once that ranging is unavailable.
        if let reason = beaconUnavailable {
            for state in beaconSubscriptions.values where state.toldUnavailable != reason {
                state.toldUnavailable = reason
                state.handler(.unavailable(reason: reason))
            }
        }
        if beaconTimer == nil { scheduleRangingTick() }
    }

    func observeBeacon(_ sighting: BeaconSighting) {
        guard !beaconSubscriptions.isEmpty else { return }
        beaconScanningResumed()
        beaconRanger.observe(sighting)
    }

    private func beaconScanningUnavailable(_ reason: String) {
        guard beaconUnavailable != reason else { return }
        if beaconUnavailable == nil { logger.info("beacon ranging unavailable", metadata: ["reason": "\(reason)"]) }
        beaconUnavailable = reason
        beaconRanger.reset()
        for state in beaconSubscriptions.values where state.toldUnavailable != reason {
            state.toldUnavailable = reason
            state.handler(.unavailable(reason: reason))
        }
    }

    /// Ranging resumes: the next ranging reports `.ranged` again.
    private func beaconScanningResumed() {
        guard beaconUnavailable != nil else { return }
        logger.info("beacon ranging resumed")
        beaconUnavailable = nil
        for state in beaconSubscriptions.values { state.toldUnavailable = nil }
    }

    private func scheduleRangingTick() {
        beaconTimer = loop.schedule(after: tuning.beaconRangingInterval) { self.rangingTick() }
    }

    private func rangingTick() {
        beaconTimer = nil
        guard !beaconSubscriptions.isEmpty else { return }
        scheduleRangingTick()
        guard beaconUnavailable == nil else { return }
        let ranged = beaconRanger.range(at: loop.now)
        for state in beaconSubscriptions.values {
            state.handler(.ranged(ranged.filter { beacon in state.constraints.contains { $0.matches(beacon.identity) } }))
        }
    }
}

/// What a beacon subscriber receives.
public enum BeaconScanEvent: Sendable, Equatable {
    /// About once a second while subscribed: every tracked beacon matching any of the subscription's
    /// constraints, sorted by `BeaconIdentity` (may be empty: none in range).
    case ranged([RangedBeacon])
    /// No beacon source can scan now (adapter off, source gone): reason for the log; ranging resumes
    /// with `.ranged` when it recovers.
    case unavailable(reason: String)
}

/// A beacon subscriber's handle. Dropping it does not cancel: call `cancel()`.
public final class EngineBeaconSubscription: Sendable {
    public let id: UInt64
    private let engine: LocationEngine

    init(id: UInt64, engine: LocationEngine) {
        self.id = id
        self.engine = engine
    }

    /// Changes which beacons this subscriber ranges.
    public func update(_ constraints: [BeaconConstraint]) { engine.updateBeacons(id, constraints: constraints) }
    public func cancel() { engine.cancelBeacons(id) }
}

/// Loop-confined.
final class BeaconSubscriptionState {
    var constraints: [BeaconConstraint]
    let account: String
    let handler: @Sendable (BeaconScanEvent) -> Void
    /// The unavailability this subscriber was last told of, so it is told once.
    var toldUnavailable: String?

    init(constraints: [BeaconConstraint], account: String, handler: @escaping @Sendable (BeaconScanEvent) -> Void) {
        self.constraints = constraints
        self.account = account
        self.handler = handler
    }
}
