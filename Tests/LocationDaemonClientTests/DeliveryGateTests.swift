import Dispatch
import Foundation
import LocationCore
import Testing
@testable import LocationDaemonClient

@Suite struct DeliveryGateTests {
    @Test func closeWaitsForADeliveryInProgressAndNothingFollowsIt() {
        let delivered = Locked([Int]())
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let gate = DeliveryGate<Int> { value in
            if value == 1 {
                inside.signal()
                release.wait()
            }
            delivered.withLock { $0.append(value) }
        }
        let deliverer = DispatchGroup()
        DispatchQueue.global().async(group: deliverer) { gate.deliver(1) }
        inside.wait()
        let closed = Locked(false)
        let closer = DispatchGroup()
        DispatchQueue.global().async(group: closer) {
            gate.close()
            closed.withLock { $0 = true }
        }
        #expect(closer.wait(timeout: .now() + 0.2) == .timedOut, "close waits for the callback in progress")
        #expect(!closed.withLock { $0 })
        release.signal()
        #expect(closer.wait(timeout: .now() + 5) == .success)
        gate.deliver(2)
        #expect(delivered.withLock { $0 } == [1])
        #expect(deliverer.wait(timeout: .now() + 5) == .success)
    }

    @Test func aReceiverMayCloseFromItsOwnCallback() {
        let count = Locked(0)
        let gate = Locked<DeliveryGate<Int>?>(nil)
        let made = DeliveryGate<Int> { _ in
            count.withLock { $0 += 1 }
            gate.withLock { $0 }?.close()
        }
        gate.withLock { $0 = made }
        made.deliver(1)
        made.deliver(2)
        #expect(count.withLock { $0 } == 1)
        #expect(made.isClosed)
    }
}
