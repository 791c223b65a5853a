import Foundation
import LocationEngine
import LocationPolicy
import LocationProtocol
import Logging

/// Beacon ranging, per client stream: each `startRanging` holds one engine beacon subscription
/// while the client may range, so the engine scans only while some app ranges (or monitors beacons).
///
/// Apple's rules: ranging needs When In Use or Always (not determined, denied or restricted fail
/// with `denied`) and full accuracy (an app with reduced accuracy cannot range: `rangingUnavailable`);
/// location services off, no beacon source or an adapter that cannot scan are `rangingUnavailable`.
/// A stream that cannot range stays registered: it is told why once, and ranges when it can.
extension LocationService {
    func startRanging(_ streamID: StreamID, _ constraint: BeaconConstraint, clientID id: UInt64) {
        guard let client = clients[id] else { return }
        client.rangings.removeValue(forKey: streamID)?.subscription?.cancel()
        client.rangings[streamID] = Ranging(constraint: constraint)
        enforceRanging(clientID: id, streamID: streamID)
    }

    func stopRanging(_ streamID: StreamID, clientID id: UInt64) {
        clients[id]?.rangings.removeValue(forKey: streamID)?.subscription?.cancel()
    }

    /// Why a client may not range now, or nil when it may.
    func rangingRefusal(_ authorization: EffectiveAuthorization) -> StreamFailure? {
        guard engine.hasBeaconSources, authorization.servicesEnabled else { return .rangingUnavailable }
        guard authorization.status.isAuthorized else { return .denied }
        return authorization.accuracy == .fullAccuracy ? nil : .rangingUnavailable
    }

    /// Makes every ranging stream of a client match its authorization (after a change of it).
    func enforceRangings(clientID id: UInt64) {
        guard let client = clients[id] else { return }
        for streamID in client.rangings.keys.sorted() { enforceRanging(clientID: id, streamID: streamID) }
    }

    /// Subscribes a ranging stream the client may run, or cancels it and says why it cannot.
    private func enforceRanging(clientID id: UInt64, streamID: StreamID) {
        guard let client = clients[id], let ranging = client.rangings[streamID] else { return }
        if let refusal = rangingRefusal(client.authorization) {
            ranging.subscription?.cancel()
            ranging.subscription = nil
            reportRangingFailure(refusal, to: client, streamID: streamID)
            return
        }
        guard ranging.subscription == nil else { return }
        ranging.reported = nil
        ranging.subscription = engine.subscribeBeacons([ranging.constraint], account: client.app.id) { event in
            self.deliverRanging(event, clientID: id, streamID: streamID)
        }
    }

    /// Where an engine scan becomes a service event: checked again at delivery, and narrowed to the
    /// stream's constraint, so a client never sees a beacon it did not range.
    private func deliverRanging(_ event: BeaconScanEvent, clientID id: UInt64, streamID: StreamID) {
        guard let client = clients[id], let ranging = client.rangings[streamID], ranging.subscription != nil else { return }
        if let refusal = rangingRefusal(client.authorization) {
            return reportRangingFailure(refusal, to: client, streamID: streamID)
        }
        switch event {
        case .ranged(let beacons):
            ranging.reported = nil
            client.events(.stream(streamID, .beacons(beacons.filter { ranging.constraint.matches($0.identity) })))
        case .unavailable(let reason):
            logger.debug("beacon ranging unavailable", metadata: ["app": "\(client.app.id)", "reason": "\(reason)"])
            reportRangingFailure(.rangingUnavailable, to: client, streamID: streamID)
        }
    }

    /// A failure is reported once until the stream ranges again or the reason changes.
    private func reportRangingFailure(_ failure: StreamFailure, to client: Client, streamID: StreamID) {
        guard let ranging = client.rangings[streamID], ranging.reported != failure else { return }
        ranging.reported = failure
        client.events(.stream(streamID, .failed(failure)))
    }
}

/// One ranging stream of a client (loop-confined). A class, so that its subscription and what it
/// last reported change in place.
final class Ranging {
    let constraint: BeaconConstraint
    var subscription: EngineBeaconSubscription?
    /// The failure last reported, until the stream ranges again.
    var reported: StreamFailure?

    init(constraint: BeaconConstraint) {
        self.constraint = constraint
    }
}
