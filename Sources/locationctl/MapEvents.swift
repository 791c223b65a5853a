import Foundation
import LocationGeofencing
import LocationProtocol

/// Where a fence's enter or exit event fired: at the fix that decided it.
struct MapEvent: Equatable, Sendable {
    enum Kind: String, Sendable {
        case enter, exit
    }

    var fenceIdentifier: String
    var kind: Kind
    var latitude: Double
    var longitude: Double
    var timestamp: Date
}

/// The events a map shows: the fixes judged by the service's own evaluator (`GeofenceEvaluator`),
/// so the map fires where an app's region monitoring would. An event is a change from one known
/// state to the other; the state first learned is not an event.
enum MapEvents {
    static func events(fixes: [Fix], fences: [MapFence]) -> [MapEvent] {
        let evaluator = GeofenceEvaluator()
        var identifiers: [FenceKey: String] = [:]
        for fence in fences {
            guard let key = evaluator.add(FenceCircle(latitude: fence.latitude, longitude: fence.longitude, radius: fence.radius)) else {
                continue
            }
            identifiers[key] = fence.identifier
        }
        var events: [MapEvent] = []
        for fix in fixes {
            for change in evaluator.evaluate(fix).sorted(by: { $0.key < $1.key }) where change.from != .unknown {
                guard let identifier = identifiers[change.key], change.to == .inside || change.to == .outside else { continue }
                events.append(MapEvent(fenceIdentifier: identifier, kind: change.to == .inside ? .enter : .exit,
                                       latitude: fix.latitude, longitude: fix.longitude, timestamp: fix.timestamp))
            }
        }
        return events
    }
}
