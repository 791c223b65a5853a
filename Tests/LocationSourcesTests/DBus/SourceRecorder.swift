import LocationCore
import LocationProtocol
import LocationSources

/// Collects what a source emits, from whatever thread or loop it emits on.
final class SourceRecorder: Sendable {
    private let events = Locked<[SourceEvent]>([])

    var emit: @Sendable (SourceEvent) -> Void {
        { [events] event in events.withLock { $0.append(event) } }
    }

    var all: [SourceEvent] { events.withLock { $0 } }

    var headings: [HeadingSample] {
        all.compactMap { if case .heading(let sample) = $0 { sample } else { nil } }
    }

    var sightings: [BeaconSighting] {
        all.compactMap { if case .beacon(let sighting) = $0 { sighting } else { nil } }
    }

    var noFixReasons: [String] {
        all.compactMap { if case .noFix(let reason) = $0 { reason } else { nil } }
    }

    /// What arrived after the first `count` events.
    func since(_ count: Int) -> [SourceEvent] { Array(all.dropFirst(count)) }
}
