import Testing
@testable import LocationDaemonClient

@Suite struct ReconnectBackoffTests {
    @Test func doublesFromATenthOfASecondUpToOneAndStartsOverAfterSuccess() {
        var backoff = ReconnectBackoff()
        #expect((0..<7).map { _ in backoff.next() } == [0.1, 0.2, 0.4, 0.8, 1, 1, 1])
        backoff.reset()
        #expect(backoff.next() == 0.1)
    }
}
