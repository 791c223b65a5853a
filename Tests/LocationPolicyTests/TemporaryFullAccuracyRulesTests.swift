import Foundation
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import TestSupport
import Testing

/// Apple's rules for `requestTemporaryFullAccuracyAuthorization`, the answer's effect on the record,
/// the terminal's dialogue for it, and settings that end a grant.
@Suite struct TemporaryFullAccuracyRulesTests {
    let app = AppIdentity(id: "com.example.maps", displayName: "Maps", executablePath: "/opt/maps")
    let info = AppInfo(whenInUseUsageDescription: "x", temporaryUsageDescriptions: ["Navigation": "Directions need it."])
    let asker = ProcessStamp(pid: 321, startTime: 9)
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func effective(_ status: AuthorizationStatus, _ accuracy: AccuracyAuthorization, enabled: Bool = true) -> EffectiveAuthorization {
        EffectiveAuthorization(status: status, accuracy: accuracy, servicesEnabled: enabled)
    }

    @Test func anAuthorizedReducedAppIsAskedWithThePurposeString() {
        for status in [AuthorizationStatus.authorizedWhenInUse, .authorizedAlways] {
            let outcome = AuthorizationRules.evaluateTemporaryFullAccuracy(
                purposeKey: "Navigation", app: app, info: info, effective: effective(status, .reducedAccuracy))
            guard case .prompt(let prompt) = outcome else { Issue.record("\(outcome)"); continue }
            #expect(prompt.kind == .temporaryFullAccuracy(purposeKey: "Navigation"))
            #expect(prompt.usageDescription == "Directions need it.")
            #expect(prompt.app == app)
        }
    }

    @Test func declinedWithoutAPrompt() {
        let cases: [(String, EffectiveAuthorization, String)] = [
            ("Radar", effective(.authorizedWhenInUse, .reducedAccuracy), "no purpose string"),
            ("Navigation", effective(.authorizedWhenInUse, .fullAccuracy), "already has full accuracy"),
            ("Navigation", effective(.notDetermined, .reducedAccuracy), "not authorized"),
            ("Navigation", effective(.denied, .reducedAccuracy), "not authorized"),
            ("Navigation", effective(.authorizedAlways, .reducedAccuracy, enabled: false), "switched off"),
        ]
        for (key, authorization, reason) in cases {
            let outcome = AuthorizationRules.evaluateTemporaryFullAccuracy(
                purposeKey: key, app: app, info: info, effective: authorization)
            guard case .declined(let why) = outcome else { Issue.record("\(key) \(authorization): \(outcome)"); continue }
            #expect(why.contains(reason), "\(why)")
        }
        // An empty purpose string is no purpose string.
        let empty = AppInfo(temporaryUsageDescriptions: ["Navigation": ""])
        #expect(AuthorizationRules.evaluateTemporaryFullAccuracy(
            purposeKey: "Navigation", app: app, info: empty, effective: effective(.authorizedWhenInUse, .reducedAccuracy))
            != .prompt(PromptRequest(app: app, kind: .temporaryFullAccuracy(purposeKey: "Navigation"), level: .whenInUse,
                                     usageDescription: "", preciseByDefault: false)))
    }

    var prompt: PromptRequest {
        PromptRequest(app: app, kind: .temporaryFullAccuracy(purposeKey: "Navigation"), level: .whenInUse,
                      usageDescription: "Directions need it.", preciseByDefault: false)
    }

    var reducedRecord: AppRecord {
        AppRecord(status: .authorizedWhenInUse, accuracy: .reducedAccuracy, displayName: "Maps", executablePath: "/opt/maps",
                  updated: now.addingTimeInterval(-60))
    }

    @Test func allowOnceBindsTheGrantToTheAskingProcessAndNothingElseChanges() {
        let granted = AuthorizationRules.apply(.allowTemporaryFullAccuracy, to: reducedRecord, request: prompt, process: asker, now: now)
        #expect(granted.temporaryFullAccuracy == TemporaryFullAccuracy(purposeKey: "Navigation", process: asker))
        #expect(granted.status == .authorizedWhenInUse && granted.accuracy == .reducedAccuracy && !granted.alwaysRequestUsed)
        let database = AuthorizationDatabase(apps: [app.id: granted])
        #expect(database.effectiveAuthorization(for: app.id, isAlive: { $0 == asker }, now: now).accuracy == .fullAccuracy)
        #expect(database.effectiveAuthorization(for: app.id, isAlive: { _ in false }, now: now).accuracy == .reducedAccuracy,
                "the stamp of a dead process")
        // A process with the same pid but another start time is another process.
        let reused = ProcessStamp(pid: asker.pid, startTime: asker.startTime + 1)
        #expect(database.effectiveAuthorization(for: app.id, isAlive: { $0 == reused }, now: now).accuracy == .reducedAccuracy)
    }

    @Test(arguments: [PromptAnswer.denyTemporaryFullAccuracy, .changeToAlways, .allowWhileUsing(precise: true), .allowOnce(precise: true)])
    func anyOtherAnswerChangesNothing(_ answer: PromptAnswer) {
        #expect(AuthorizationRules.apply(answer, to: reducedRecord, request: prompt, process: asker, now: now) == reducedRecord)
    }

    @Test func aTemporaryAnswerToAnotherQuestionGrantsNothing() {
        let initial = PromptRequest(app: app, kind: .initial, level: .whenInUse, usageDescription: "x", preciseByDefault: true)
        let record = AuthorizationRules.apply(.allowTemporaryFullAccuracy, to: nil, request: initial, process: asker, now: now)
        #expect(record.status == .notDetermined && record.temporaryFullAccuracy == nil)
        var whileUsing = reducedRecord
        whileUsing.accuracy = .fullAccuracy
        let upgrade = PromptRequest(app: app, kind: .upgradeToAlways, level: .always, usageDescription: "x", preciseByDefault: true)
        #expect(AuthorizationRules.apply(.allowTemporaryFullAccuracy, to: whileUsing, request: upgrade, process: asker, now: now)
            == whileUsing)
        // And the first question's answers do not answer the upgrade (an agent cannot smuggle Always in).
        #expect(AuthorizationRules.apply(.changeToAlways, to: nil, request: initial, process: asker, now: now).status == .notDetermined)
    }

    @Test func grantAndRevokeEndATemporaryGrant() throws {
        var granted = reducedRecord
        granted.temporaryFullAccuracy = TemporaryFullAccuracy(purposeKey: "Navigation", process: asker)
        for change in [SettingsChange.grant(app: app.id, always: false, approximate: true),
                       .grant(app: app.id, always: false, approximate: false), .revoke(app: app.id)] {
            var database = AuthorizationDatabase(apps: [app.id: granted])
            try change.apply(to: &database, now: now)
            #expect(database.apps[app.id]?.temporaryFullAccuracy == nil, "\(change)")
        }
    }

    @Test(arguments: [("o\n", PromptAnswer.allowTemporaryFullAccuracy), ("d\n", .denyTemporaryFullAccuracy),
                      ("w\na\nallow once\n", .allowTemporaryFullAccuracy), ("Don't Allow\n", .denyTemporaryFullAccuracy)])
    func theTerminalShowsThePurposeStringAndTakesAllowOnceOrDontAllow(typed: String, answer: PromptAnswer) async throws {
        let terminal = PipeTerminal()
        terminal.type(typed)
        #expect(await terminal.ask(prompt) == answer)
        let screen = try terminal.screenText()
        #expect(screen.contains("Directions need it."))
        #expect(screen.contains("\"Maps\" would like to use your precise location"))
        #expect(screen.contains("[o] Allow Once") && screen.contains("[d] Don't Allow"))
        #expect(!screen.contains("Precise: On") && !screen.contains("Allow While Using App"))
    }
}
