import Foundation
import LocationCore
import LocationProtocol
import Testing
@testable import LocationDaemonClient

/// The rules that keep an app's view consistent across reconnections, without sockets.
@Suite struct LinkStateTests {
    static let continuous = UpdateRequest(mode: .continuous, desiredAccuracy: 10)
    static let single = UpdateRequest(mode: .single, desiredAccuracy: 100)

    /// A state that reported `initial` and is welcomed with it.
    static func connected(_ initial: EffectiveAuthorization = .whenInUse) -> LinkState {
        var state = LinkState()
        _ = state.welcomed(initial)
        #expect(state.reportInitial() == initial)
        return state
    }

    @Test func initialAuthorizationIsTheWelcomesOrNotDetermined() {
        var welcomed = LinkState()
        _ = welcomed.welcomed(.approximate)
        #expect(welcomed.reportInitial() == .approximate)
        #expect(welcomed.reportInitial() == .approximate, "fixed at the first report")

        var unreachable = LinkState()
        #expect(unreachable.reportInitial() == .notDetermined)
        // A late welcome with another answer is a change the app must see.
        let late = unreachable.welcomed(.denied)
        #expect(late.events == [.authorizationChanged(.denied)])
    }

    @Test func requestsWaitForAWelcomeAndAreSentOnceWhenItComes() {
        var state = LinkState()
        _ = state.reportInitial()
        #expect(state.appSent(.requestAuthorization(.whenInUse)) == nil)
        #expect(state.appSent(.startUpdates(1, Self.continuous)) == nil)
        #expect(state.appSent(.resumeUpdates(1)) == nil)
        let welcome = state.welcomed(.notDetermined)
        #expect(welcome.events.isEmpty)
        #expect(welcome.resend == [.requestAuthorization(.whenInUse), .startUpdates(1, Self.continuous)])
        #expect(state.appSent(.changeUpdates(1, Self.single)) == .changeUpdates(1, Self.single))
    }

    @Test func aReconnectionResendsTheLatestRequestOfEveryActiveStream() {
        var state = Self.connected()
        _ = state.appSent(.startUpdates(1, Self.continuous))
        _ = state.appSent(.startUpdates(2, Self.single))
        _ = state.appSent(.startUpdates(3, Self.continuous))
        _ = state.appSent(.stopUpdates(3))
        state.disconnected()
        var changed = Self.continuous
        changed.distanceFilter = 50
        #expect(state.appSent(.changeUpdates(1, changed)) == nil, "nothing is sent while disconnected")
        let welcome = state.welcomed(.whenInUse)
        #expect(welcome.events.isEmpty, "same authorization: no callback")
        #expect(welcome.resend == [.startUpdates(1, changed), .startUpdates(2, Self.single)])

        // The single request is answered: it is not asked again after the next restart.
        #expect(state.received(.stream(2, .locations([.at(1)]))) != nil)
        #expect(state.received(.stream(2, .completed)) == .stream(2, .completed))
        state.disconnected()
        #expect(state.welcomed(.whenInUse).resend == [.startUpdates(1, changed)])
    }

    @Test func anUnansweredAuthorizationRequestIsResentOnlyWhileStillUndetermined() {
        var state = Self.connected(.notDetermined)
        #expect(state.appSent(.requestAuthorization(.whenInUse)) == .requestAuthorization(.whenInUse))
        state.disconnected()
        #expect(state.welcomed(.notDetermined).resend == [.requestAuthorization(.whenInUse)])
        state.disconnected()
        // Answered while the daemon was away (locationctl grant, or the prompt just before the crash).
        let answered = state.welcomed(.whenInUse)
        #expect(answered.events == [.authorizationChanged(.whenInUse)])
        #expect(answered.resend.isEmpty)
        state.disconnected()
        #expect(state.welcomed(.whenInUse).resend.isEmpty)
    }

    @Test func anUpgradeAskedWhileDisconnectedIsSentOnceButNeverRepeated() {
        var state = Self.connected(.whenInUse)
        state.disconnected()
        #expect(state.appSent(.requestAuthorization(.always)) == nil)
        #expect(state.welcomed(.whenInUse).resend == [.requestAuthorization(.always)])
        state.disconnected()
        #expect(state.welcomed(.whenInUse).resend.isEmpty, "Always is asked once")
    }

    @Test func fixesOlderThanTheLastGoOnWhenTheClockWentBack() {
        var state = Self.connected()
        _ = state.appSent(.startUpdates(1, Self.continuous))
        let last = Fix.at(3600).timestamp
        #expect(state.received(.stream(1, .locations([.at(3600)])), now: last) != nil)
        // The clock went back an hour: the last fix lies in the future of now.
        let now = last.addingTimeInterval(-3600 + 1)
        #expect(state.received(.stream(1, .locations([.at(1)])), now: now) == .stream(1, .locations([.at(1)])))
        #expect(state.received(.stream(1, .locations([.at(1)])), now: now) == nil, "a repeat is still one")
        #expect(state.received(.stream(1, .locations([.at(2)])), now: now) != nil)
    }

    @Test func replayedAndOlderFixesAreDroppedPerStream() {
        var state = Self.connected()
        _ = state.appSent(.startUpdates(1, Self.continuous))
        _ = state.appSent(.startUpdates(2, Self.continuous))
        #expect(state.received(.stream(1, .locations([.at(1), .at(2)]))) == .stream(1, .locations([.at(1), .at(2)])))
        state.disconnected()
        _ = state.welcomed(.whenInUse)
        // A restarted daemon replays its cached last fix, then goes on.
        #expect(state.received(.stream(1, .locations([.at(2)]))) == nil)
        #expect(state.received(.stream(1, .locations([.at(2), .at(3)]))) == .stream(1, .locations([.at(3)])))
        #expect(state.received(.stream(1, .locations([.at(2.5)]))) == nil, "older than the last delivered")
        // Another stream has its own history.
        #expect(state.received(.stream(2, .locations([.at(2)]))) == .stream(2, .locations([.at(2)])))
    }

    @Test func eventsOfStoppedOrUnknownStreamsAreNotDelivered() {
        var state = Self.connected()
        _ = state.appSent(.startUpdates(1, Self.continuous))
        _ = state.appSent(.stopUpdates(1))
        for event: ServiceEvent in [
            .stream(1, .locations([.at(1)])), .stream(1, .failed(.locationUnknown)), .stream(1, .paused), .stream(1, .stationary(true)),
            .stream(1, .sourceFinished), .stream(1, .completed), .stream(9, .locations([.at(1)])),
        ] {
            #expect(state.received(event) == nil, "\(event)")
        }
        #expect(state.activeStreams.isEmpty)
    }

    @Test func duplicateAuthorizationAndPromptEventsAreDropped() {
        var state = Self.connected(.notDetermined)
        #expect(state.received(.authorizationRequestInProgress(true)) == .authorizationRequestInProgress(true))
        state.disconnected()
        _ = state.welcomed(.notDetermined)
        #expect(state.received(.authorizationRequestInProgress(true)) == nil, "the re-sent request prompts again")
        #expect(state.received(.authorizationChanged(.notDetermined)) == nil)
        #expect(state.received(.authorizationChanged(.whenInUse)) == .authorizationChanged(.whenInUse))
        #expect(state.received(.authorizationRequestInProgress(false)) == .authorizationRequestInProgress(false))
    }

    @Test func anAuthorizationChangeBeforeTheInitialReportIsFoldedIntoIt() {
        var state = LinkState()
        _ = state.welcomed(.notDetermined)
        #expect(state.received(.authorizationChanged(.denied)) == nil)
        #expect(state.reportInitial() == .denied)
    }
}
