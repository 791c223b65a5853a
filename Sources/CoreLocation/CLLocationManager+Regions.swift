import Foundation
import LocationProtocol

/// Region monitoring's events (the API is in the class body, `open` as Apple's).
///
/// The service keeps the app's regions, watches them while the app may receive their events, and
/// persists them with their states; a crossing while the app is not running (with Always
/// authorization) is delivered to the first manager of its next launch.
extension CLLocationManager {
    // MARK: Events

    /// Runs on the callback context.
    func handleRegions(_ update: FenceUpdate) {
        switch update {
        case .snapshot(let records):
            for record in records where regionStates[record.definition.identifier] == nil {
                regionStates[record.definition.identifier] = record.lastEvent.state
            }
        case .started(let record):
            let identifier = record.definition.identifier
            guard awaitingStart.remove(identifier) != nil else {
                if regionStates[identifier] == nil { regionStates[identifier] = record.lastEvent.state }
                return
            }
            // The service's state of the region this manager started (kept when it was already
            // monitored with the same shape).
            regionStates[identifier] = record.lastEvent.state
            let region = ownRegions[identifier] ?? CLRegion.make(record.definition)
            delegate?.locationManager(self, didStartMonitoringFor: region)
        case let .failed(identifier, issue):
            guard let region = ownRegions[identifier] else { return }
            if issue.dropsRegion {
                ownRegions[identifier] = nil
                awaitingStart.remove(identifier)
                regionStates[identifier] = nil
            }
            reportRegionFailure(region, issue.regionErrorCode)
        case .changed(let event):
            guard let definition = regionBook.definition(event.identifier), event.issue == nil else { return }
            let previous = regionStates[event.identifier] ?? .unknown
            regionStates[event.identifier] = event.state
            guard event.state != previous, let state = CLRegionState(event.state) else { return }
            let region = ownRegions[event.identifier] ?? CLRegion.make(definition)
            if previous == .outside, event.state == .inside, definition.notifyOnEntry {
                delegate?.locationManager(self, didEnterRegion: region)
            } else if previous == .inside, event.state == .outside, definition.notifyOnExit {
                delegate?.locationManager(self, didExitRegion: region)
            }
            delegate?.locationManager(self, didDetermineState: state, for: region)
        case .removed(let identifier):
            // Stopped by another manager or process; a start of this manager on its way wins.
            guard !awaitingStart.contains(identifier) else { return }
            ownRegions[identifier] = nil
            regionStates[identifier] = nil
        case .determined(let event):
            guard let definition = regionBook.definition(event.identifier), let state = CLRegionState(event.state) else { return }
            delegate?.locationManager(self, didDetermineState: state, for: ownRegions[event.identifier] ?? CLRegion.make(definition))
        }
    }

    func reportRegionFailure(_ region: CLRegion, _ code: CLError.Code) {
        delegate?.locationManager(self, monitoringDidFailFor: region, withError: CLError(code))
    }
}

extension FenceIssue {
    /// The error `monitoringDidFailFor` reports.
    var regionErrorCode: CLError.Code {
        switch self {
        case .denied, .accuracyLimited: .regionMonitoringDenied
        case .invalidRegion, .limitExceeded, .unsupported, .persistenceUnavailable: .regionMonitoringFailure
        }
    }
}

extension CLRegionState {
    init?(_ state: FenceState) {
        switch state {
        case .unknown: self = .unknown
        case .inside: self = .inside
        case .outside: self = .outside
        case .unmonitored: return nil
        }
    }
}
