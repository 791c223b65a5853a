import Foundation
import LocationProtocol

/// What `locationctl map` draws: a track, circular fences, and where their events fired. Built
/// from data alone; `SVGMap` turns it into a picture.
struct MapDrawing: Sendable {
    /// One line of text above the map (the source, fix count, duration).
    var title: String
    /// The track, in order (latitude, longitude).
    var track: [(latitude: Double, longitude: Double)]
    var fences: [MapFence]
    var events: [MapEvent]
    /// With `--approximate`: the regions an approximate app is told along the track, in order.
    var approximate: [MapApproximateRegion]

    init(title: String, track: [(latitude: Double, longitude: Double)], fences: [MapFence], events: [MapEvent],
         approximate: [MapApproximateRegion] = []) {
        self.title = title
        self.track = track
        self.fences = fences
        self.events = events
        self.approximate = approximate
    }

    /// A drawing of fixes: the title says how many and over how long.
    init(source: String, fixes: [Fix], fences: [MapFence], events: [MapEvent], approximate: [MapApproximateRegion] = []) {
        var title = "\(source): \(fixes.count) fix\(fixes.count == 1 ? "" : "es")"
        if let first = fixes.first, let last = fixes.last {
            let seconds = Int(last.timestamp.timeIntervalSince(first.timestamp).rounded())
            title += String(format: " over %d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        }
        if !fences.isEmpty { title += ", \(fences.count) fence\(fences.count == 1 ? "" : "s"), \(events.count) event\(events.count == 1 ? "" : "s")" }
        if !approximate.isEmpty { title += ", \(approximate.count) approximate region\(approximate.count == 1 ? "" : "s")" }
        self.init(title: title, track: fixes.filter(\.hasValidPosition).map { ($0.latitude, $0.longitude) },
                  fences: fences, events: events, approximate: approximate)
    }
}
