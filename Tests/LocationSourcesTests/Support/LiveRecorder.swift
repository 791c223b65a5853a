import Foundation
import LocationCore
@testable import LocationSources
import LocationProtocol
import TestSupport

/// Records what a source emits on a real-time loop, with the wall-clock time of each event, and checks
/// that every emission happens inside the loop.
final class LiveRecorder: Sendable {
    struct Entry: Sendable {
        var time: Date
        var event: SourceEvent
    }

    let loop: RealtimeLoop
    private let entries = Locked<[Entry]>([])
    private let outsideLoop = Locked(0)

    init(label: String = "test.sources.live") { loop = RealtimeLoop(label: label) }

    var emit: @Sendable (SourceEvent) -> Void {
        { [entries, outsideLoop, loop] event in
            if !loop.inLoop { outsideLoop.withLock { $0 += 1 } }
            entries.withLock { $0.append(Entry(time: Date(), event: event)) }
        }
    }

    func start(_ source: any LocationSource) { loop.sync { source.start(on: loop, emit: emit) } }
    func stop(_ source: any LocationSource) { loop.sync { source.stop() } }

    var all: [Entry] { entries.withLock { $0 } }
    var events: [SourceEvent] { all.map(\.event) }
    var fixes: [Fix] { events.compactMap { if case .fix(let fix) = $0 { fix } else { nil } } }
    var noFixReasons: [String] { events.compactMap { if case .noFix(let reason) = $0 { reason } else { nil } } }
    var count: Int { entries.withLock { $0.count } }
    var emissionsOutsideLoop: Int { outsideLoop.withLock { $0 } }

    /// Waits until `condition` holds; false on timeout.
    @discardableResult
    func wait(timeout: Double = 10, until condition: (LiveRecorder) -> Bool) async -> Bool {
        await eventually(timeout: .seconds(timeout)) { condition(self) }
    }
}
