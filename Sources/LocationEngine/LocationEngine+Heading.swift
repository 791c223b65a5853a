import Foundation
import LocationCore
import LocationProtocol
import LocationSources
import Logging

/// Heading demand, separate from location demand: heading sources run only while some subscriber
/// wants headings. A location source that reports headings too (a simulated route, a receiver with
/// a compass) serves them while it runs; otherwise the cheapest heading source runs for them alone.
extension LocationEngine {
    /// Whether the engine was given a source that reports headings (`headingAvailable()`).
    public var hasHeadingSources: Bool { sources.contains { $0.descriptor.measures.contains(.heading) } }

    /// Starts delivering headings to `handler`: each sample that changed by at least the request's
    /// filter, with `trueHeading` filled in from the World Magnetic Model at the engine's latest
    /// position when the source did not measure it itself (nil while no position is known).
    ///
    /// - Parameter account: whom the energy of a heading source run for this subscriber is booked
    ///   to (`EnergyReport.byAccount`, service `heading`).
    public func subscribeHeading(
        _ request: HeadingRequest, account: String = "", handler: @escaping @Sendable (HeadingSample) -> Void
    ) -> EngineHeadingSubscription {
        let id = lastID.withLock { last in
            last += 1
            return last
        }
        loop.execute {
            self.headingSubscriptions[id] = HeadingSubscriptionState(request: request, account: account, handler: handler)
            self.reconcileDemand()
        }
        return EngineHeadingSubscription(id: id, engine: self)
    }

    func updateHeading(_ id: UInt64, request: HeadingRequest) {
        loop.execute { self.headingSubscriptions[id]?.request = request }
    }

    func cancelHeading(_ id: UInt64) {
        loop.execute {
            guard self.headingSubscriptions.removeValue(forKey: id) != nil else { return }
            self.reconcileDemand()
        }
    }

    // MARK: Loop-confined

    /// The source to run for headings alone: none without heading demand, or when `locationSource`
    /// reports headings itself; else the cheapest unfinished heading source.
    func headingSourceWanted(alongside locationSource: (any LocationSource)?) -> (any LocationSource)? {
        guard !headingSubscriptions.isEmpty else { return nil }
        if let locationSource, locationSource.descriptor.measures.contains(.heading) { return nil }
        return sources
            .filter { $0.descriptor.measures.contains(.heading) && !finishedSources.contains(ObjectIdentifier($0)) }
            .min { $0.descriptor.powerCost < $1.descriptor.powerCost }
    }

    /// Tells the heading meter who demands the heading source now.
    func accountHeadingDemand() {
        var accounts: [String: Int] = [:]
        for state in headingSubscriptions.values { accounts[state.account, default: 0] += 1 }
        let services = headingSubscriptions.isEmpty ? [:] : ["heading": headingSubscriptions.count]
        headingEnergy.demandChanged(services: services, accounts: accounts, at: loop.now)
    }

    func startHeadingSource(_ source: any LocationSource) {
        headingGeneration += 1
        let current = headingGeneration
        headingActive = source
        headingEnergy.started(name: source.descriptor.name, power: source.descriptor.power, at: loop.now)
        logger.debug("starting heading source", metadata: ["source": "\(source.descriptor.name)"])
        source.start(on: loop) { event in
            self.loop.preconditionInLoop()
            guard current == self.headingGeneration else { return }
            switch event {
            case .heading(let sample):
                self.headingEnergy.receivedFix(at: self.loop.now)
                self.deliverHeading(sample)
            case .fix, .noFix, .beacon:
                // Positions come from the location source and beacons from the beacon source; one
                // running for headings alone is not running for anyone's location or ranging.
                break
            case .finished:
                self.finishedSources.insert(ObjectIdentifier(source))
                self.stopHeadingSource()
                self.reconcileDemand()
            }
        }
    }

    func stopHeadingSource() {
        guard let source = headingActive else { return }
        headingGeneration += 1
        headingActive = nil
        source.stop()
        headingEnergy.stopped(at: loop.now)
        logger.debug("stopped heading source", metadata: ["source": "\(source.descriptor.name)"])
    }

    func deliverHeading(_ sample: HeadingSample) {
        guard !headingSubscriptions.isEmpty else { return }
        var sample = sample
        if sample.trueHeading == nil, let fix = lastFix {
            sample.trueHeading = TrueNorth.heading(magnetic: sample.magneticHeading, at: fix, on: sample.timestamp)
        }
        for state in headingSubscriptions.values where state.isDue(sample) {
            state.lastDelivered = sample
            state.handler(sample)
        }
    }
}

/// A heading subscriber's handle. Dropping it does not cancel: call `cancel()`.
public final class EngineHeadingSubscription: Sendable {
    public let id: UInt64
    private let engine: LocationEngine

    init(id: UInt64, engine: LocationEngine) {
        self.id = id
        self.engine = engine
    }

    /// Changes the heading filter.
    public func update(_ request: HeadingRequest) { engine.updateHeading(id, request: request) }
    public func cancel() { engine.cancelHeading(id) }
}

/// Loop-confined.
final class HeadingSubscriptionState {
    var request: HeadingRequest
    let account: String
    let handler: @Sendable (HeadingSample) -> Void
    var lastDelivered: HeadingSample?

    init(request: HeadingRequest, account: String, handler: @escaping @Sendable (HeadingSample) -> Void) {
        self.request = request
        self.account = account
        self.handler = handler
    }

    /// The first sample, every sample without a filter, a sample whose validity or true heading's
    /// availability changed, or one that turned by at least the filter.
    func isDue(_ sample: HeadingSample) -> Bool {
        guard let last = lastDelivered, request.filter >= 0 else { return true }
        guard sample.timestamp >= last.timestamp else { return false }
        if sample.isValid != last.isValid || (sample.trueHeading == nil) != (last.trueHeading == nil) { return true }
        return TrueNorth.separation(sample.magneticHeading, last.magneticHeading) >= request.filter
    }
}
