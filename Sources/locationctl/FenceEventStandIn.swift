import Foundation
import LocationGeodesy
import LocationProtocol

/// Where a fence's enter or exit event fired: at a fix.
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

/// A stand-in for the real geofence evaluator, only for drawing maps: a fix is inside a fence when
/// its whole accuracy circle is (distance + accuracy ≤ radius), outside when its whole accuracy
/// circle is outside (distance − accuracy ≥ radius), and otherwise leaves the fence's state as it
/// was. An event fires when a fence's state changes from one known state to the other; the state
/// first learned is not an event. Fixes without a valid position or accuracy are skipped.
enum FenceEventStandIn {
    static func events(fixes: [Fix], fences: [MapFence]) -> [MapEvent] {
        var inside: [Bool?] = Array(repeating: nil, count: fences.count)
        var events: [MapEvent] = []
        for fix in fixes where fix.hasValidPosition {
            for (index, fence) in fences.enumerated() {
                let distance = Geodesic.wgs84.distance(latitude1: fix.latitude, longitude1: fix.longitude,
                                                       latitude2: fence.latitude, longitude2: fence.longitude)
                let now: Bool
                if distance + fix.horizontalAccuracy <= fence.radius {
                    now = true
                } else if distance - fix.horizontalAccuracy >= fence.radius {
                    now = false
                } else {
                    continue
                }
                if let before = inside[index], before != now {
                    events.append(MapEvent(fenceIdentifier: fence.identifier, kind: now ? .enter : .exit,
                                           latitude: fix.latitude, longitude: fix.longitude, timestamp: fix.timestamp))
                }
                inside[index] = now
            }
        }
        return events
    }
}
