import CoreLocation
import CoreLocationTesting
import Foundation
import LocationAccess
import LocationCore
import LocationProtocol
import Testing

/// `CLMonitor` across launches of the app and restarts of the service: conditions and last events
/// come back, events that happened meanwhile are delivered once, and a state that did not change
/// produces no event.
@Suite struct CLMonitorPersistenceTests {
    /// The fences the service holds, with how many events wait for the app.
    private func listing(_ world: MonitorWorld) -> [GroupFences] {
        let result = Locked<[AppFences]>([])
        world.harness.service.listFences { fences in result.withLock { $0 = fences } }
        world.harness.settle()
        return result.withLock { $0 }.first?.groups ?? []
    }

    @Test func eventsWhileTheAppIsGoneWaitForItsNextMonitor() async throws {
        let world = try MonitorWorld(at: MonitorPlace.inside, authorization: .authorizedAlways)
        var monitor: CLMonitor? = try await world.open("commute")
        var recorder: MonitorEventRecorder? = MonitorEventRecorder(try #require(monitor).events)
        await monitor?.add(MonitorPlace.circle, identifier: "office")
        world.advance(by: 10)
        #expect(await recorder?.wait { $0.map(\.state) == [.satisfied] } == true)
        await recorder?.stop()
        recorder = nil
        monitor = nil

        // The app is gone; Always keeps the circle watched, and the exit waits for it.
        world.advance(by: 2)
        world.move(to: MonitorPlace.outside)
        world.advance(by: 20)
        #expect(listing(world).first?.pendingEvents == 1, "the monitor's connection closed with it")

        let relaunched = try await world.open("commute")
        #expect(await relaunched.record(for: "office")?.lastEvent.state == .unsatisfied)
        let events = MonitorEventRecorder(relaunched.events)
        #expect(await events.wait { $0.count == 1 })
        world.advance(by: 20)
        try await Task.sleep(for: .milliseconds(100))
        #expect(events.events.map(\.state) == [.unsatisfied], "delivered once")
        #expect(listing(world).first?.pendingEvents == 0)
        await events.stop()
    }

    @Test func aRestartedServiceRestoresConditionsAndReportsOnlyRealChanges() async throws {
        let storage = MemoryFenceStorage()
        do {
            let world = try MonitorWorld(at: MonitorPlace.inside, fenceStorage: storage)
            let monitor = try await world.open("restart")
            let recorder = MonitorEventRecorder(monitor.events)
            await monitor.add(MonitorPlace.circle, identifier: "office")
            await monitor.add(MonitorPlace.circle, identifier: "assumed", assuming: .satisfied)
            world.advance(by: 10)
            #expect(await recorder.wait { $0.map(\.state) == [.satisfied] })
            await recorder.stop()
        }

        // A new service on the same storage: the device has not moved.
        let world = try MonitorWorld(at: MonitorPlace.inside, fenceStorage: storage)
        let monitor = try await world.open("restart")
        #expect(await monitor.identifiers == ["office", "assumed"])
        let record = try #require(await monitor.record(for: "office"))
        #expect(record.lastEvent.state == .satisfied)
        #expect((record.condition as? CLMonitor.CircularGeographicCondition)?.radius == 200)
        let recorder = MonitorEventRecorder(monitor.events)
        world.advance(by: 30)
        try await Task.sleep(for: .milliseconds(100))
        #expect(recorder.events.isEmpty, "still inside: no event")

        world.move(to: MonitorPlace.outside)
        world.advance(by: 20)
        #expect(await recorder.wait { $0.count == 2 })
        #expect(recorder.events.map(\.identifier).sorted() == ["assumed", "office"])
        #expect(recorder.events.allSatisfy { $0.state == .unsatisfied })
        await recorder.stop()
    }
}
