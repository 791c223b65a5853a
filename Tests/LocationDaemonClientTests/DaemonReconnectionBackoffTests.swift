import LocationCore
import Testing
@testable import LocationDaemonClient

@Suite struct DaemonReconnectionBackoffTests {
    @Test func doublesFromATenthOfASecondUpToOneAndStartsOverAfterSuccess() {
        var backoff = Backoff.daemonReconnection
        #expect((0..<7).map { _ in backoff.nextDelay() } == [0.1, 0.2, 0.4, 0.8, 1, 1, 1])
        backoff.reset()
        #expect(backoff.nextDelay() == 0.1)
    }
}
