import Foundation
import LocationProtocol
import Testing
@testable import LocationDaemonClient

/// A temporary full accuracy request survives a daemon restart: its caller's completion must be
/// called, so the link sends it again after a new welcome until an outcome arrives, and passes one
/// outcome on exactly once.
@Suite struct LinkStateTemporaryFullAccuracyTests {
    @Test func aRequestWithoutAnOutcomeIsSentAgainAfterANewWelcome() {
        var state = LinkStateTests.connected()
        let request = ClientRequest.requestTemporaryFullAccuracy(3, purposeKey: "Navigation")
        #expect(state.appSent(request) == request, "sent at once while welcomed")
        state.disconnected()
        let welcome = state.welcomed(.whenInUse)
        #expect(welcome.resend.contains(request))

        #expect(state.received(.temporaryFullAccuracy(3, .prompted)) == .temporaryFullAccuracy(3, .prompted))
        #expect(state.received(.temporaryFullAccuracy(3, .prompted)) == nil, "an outcome is passed on once")
        state.disconnected()
        #expect(!state.welcomed(.whenInUse).resend.contains(request), "answered: not sent again")
    }

    @Test func aRequestMadeWhileDisconnectedWaitsForTheWelcome() {
        var state = LinkStateTests.connected()
        state.disconnected()
        let request = ClientRequest.requestTemporaryFullAccuracy(1, purposeKey: "Navigation")
        #expect(state.appSent(request) == nil)
        #expect(state.welcomed(.whenInUse).resend.filter { $0 == request }.count == 1)
        #expect(state.received(.temporaryFullAccuracy(9, .declined)) == nil, "an outcome for no request is dropped")
    }
}
