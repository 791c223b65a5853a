import Foundation
import LocationPolicy
import LocationProtocol
import Testing

/// Apple's authorization rules as pure functions: When-In-Use only from `.notDetermined`, Always
/// once more from When-In-Use, usage descriptions required, the device-wide switch first.
@Suite struct AuthorizationRulesTests {
    let app = AppIdentity(id: "com.example.app", displayName: "App", executablePath: "/usr/bin/app")
    let info = AppInfo(
        whenInUseUsageDescription: "Shows nearby places.",
        alwaysAndWhenInUseUsageDescription: "Logs your trips.")
    let me = ProcessStamp(pid: 100, startTime: 5)
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func effective(_ status: AuthorizationStatus, services: Bool = true) -> EffectiveAuthorization {
        EffectiveAuthorization(status: status, accuracy: .fullAccuracy, servicesEnabled: services)
    }

    private func record(_ status: AuthorizationStatus, alwaysUsed: Bool = false, once: ProcessStamp? = nil) -> AppRecord {
        AppRecord(status: status, alwaysRequestUsed: alwaysUsed, allowOnce: once,
                  displayName: "App", executablePath: "/usr/bin/app", updated: now)
    }

    @Test func whenInUsePromptsOnlyFromNotDetermined() {
        if case .prompt(let request) = AuthorizationRules.evaluate(.whenInUse, app: app, info: info, record: nil, effective: effective(.notDetermined)) {
            #expect(request.kind == .initial)
            #expect(request.level == .whenInUse)
            #expect(request.usageDescription == "Shows nearby places.")
            #expect(request.preciseByDefault)
        } else {
            Issue.record("expected a prompt")
        }
        for status in [AuthorizationStatus.denied, .restricted, .authorizedWhenInUse, .authorizedAlways] {
            let outcome = AuthorizationRules.evaluate(.whenInUse, app: app, info: info, record: record(status), effective: effective(status))
            #expect(outcome.isIgnored, "\(status)")
        }
    }

    @Test(arguments: [AuthorizationLevel.whenInUse, .always])
    func missingWhenInUseKeyFailsEveryRequest(level: AuthorizationLevel) {
        var bare = info
        bare.whenInUseUsageDescription = nil
        #expect(AuthorizationRules.evaluate(level, app: app, info: bare, record: nil, effective: effective(.notDetermined))
                == .missingUsageDescription(key: "NSLocationWhenInUseUsageDescription"))
    }

    @Test func alwaysNeedsTheAlwaysKeyAndAcceptsTheDeprecatedOne() {
        var noAlways = info
        noAlways.alwaysAndWhenInUseUsageDescription = nil
        #expect(AuthorizationRules.evaluate(.always, app: app, info: noAlways, record: nil, effective: effective(.notDetermined))
                == .missingUsageDescription(key: "NSLocationAlwaysAndWhenInUseUsageDescription"))
        noAlways.alwaysUsageDescription = "Old key."
        #expect(!AuthorizationRules.evaluate(.always, app: app, info: noAlways, record: nil, effective: effective(.notDetermined)).isIgnored)
    }

    @Test(arguments: [AuthorizationLevel.whenInUse, .always])
    func macOSsOneUsageDescriptionServesBothLevels(level: AuthorizationLevel) {
        let macApp = AppInfo(legacyUsageDescription: "Shows where your photos were taken.")
        guard case .prompt(let request) = AuthorizationRules.evaluate(level, app: app, info: macApp, record: nil, effective: effective(.notDetermined)) else {
            Issue.record("expected a prompt")
            return
        }
        #expect(request.usageDescription == "Shows where your photos were taken.")
        // The level's own key wins when both are there.
        var both = info
        both.legacyUsageDescription = "Old text."
        if case .prompt(let own) = AuthorizationRules.evaluate(level, app: app, info: both, record: nil, effective: effective(.notDetermined)) {
            #expect(own.usageDescription != "Old text.")
        } else {
            Issue.record("expected a prompt")
        }
    }

    @Test func alwaysUpgradeIsOfferedOnceAndNeverAfterAllowOnce() {
        let upgrade = AuthorizationRules.evaluate(.always, app: app, info: info, record: record(.authorizedWhenInUse), effective: effective(.authorizedWhenInUse))
        guard case .prompt(let request) = upgrade else {
            Issue.record("expected an upgrade prompt")
            return
        }
        #expect(request.kind == .upgradeToAlways)
        #expect(AuthorizationRules.evaluate(.always, app: app, info: info, record: record(.authorizedWhenInUse, alwaysUsed: true), effective: effective(.authorizedWhenInUse)).isIgnored)
        #expect(AuthorizationRules.evaluate(.always, app: app, info: info, record: record(.authorizedWhenInUse, once: me), effective: effective(.authorizedWhenInUse)).isIgnored)
        #expect(AuthorizationRules.evaluate(.always, app: app, info: info, record: record(.denied), effective: effective(.denied)).isIgnored)
        #expect(AuthorizationRules.evaluate(.always, app: app, info: info, record: record(.authorizedAlways), effective: effective(.authorizedAlways)).isIgnored)
    }

    @Test func servicesOffIgnoresRequests() {
        #expect(AuthorizationRules.evaluate(.whenInUse, app: app, info: info, record: nil, effective: effective(.denied, services: false)).isIgnored)
    }

    @Test func answersBecomeRecords() {
        let initial = PromptRequest(app: app, kind: .initial, level: .whenInUse, usageDescription: "x", preciseByDefault: true)
        let always = PromptRequest(app: app, kind: .initial, level: .always, usageDescription: "x", preciseByDefault: true)
        let upgrade = PromptRequest(app: app, kind: .upgradeToAlways, level: .always, usageDescription: "x", preciseByDefault: true)

        let once = AuthorizationRules.apply(.allowOnce(precise: false), to: nil, request: initial, process: me, now: now)
        #expect(once.status == .authorizedWhenInUse && once.accuracy == .reducedAccuracy && once.allowOnce == me)

        let whileUsing = AuthorizationRules.apply(.allowWhileUsing(precise: true), to: nil, request: initial, process: me, now: now)
        #expect(whileUsing.status == .authorizedWhenInUse && whileUsing.allowOnce == nil && !whileUsing.alwaysRequestUsed)

        let provisional = AuthorizationRules.apply(.allowWhileUsing(precise: true), to: nil, request: always, process: me, now: now)
        #expect(provisional.status == .authorizedAlways && provisional.alwaysRequestUsed)

        #expect(AuthorizationRules.apply(.dontAllow, to: nil, request: initial, process: me, now: now).status == .denied)

        let kept = AuthorizationRules.apply(.keepWhileUsing, to: whileUsing, request: upgrade, process: me, now: now)
        #expect(kept.status == .authorizedWhenInUse && kept.alwaysRequestUsed)
        let upgraded = AuthorizationRules.apply(.changeToAlways, to: whileUsing, request: upgrade, process: me, now: now)
        #expect(upgraded.status == .authorizedAlways && upgraded.accuracy == .fullAccuracy)
    }

    @Test func allowOnceEndsWithItsProcess() {
        var database = AuthorizationDatabase(apps: [app.id: record(.authorizedWhenInUse, once: me)])
        #expect(database.effectiveAuthorization(for: app.id, isAlive: { $0 == me }, now: now).status == .authorizedWhenInUse)
        #expect(database.effectiveAuthorization(for: app.id, isAlive: { _ in false }, now: now).status == .notDetermined)
        database.removeExpiredAllowOnce { _ in false }
        #expect(database.apps[app.id] == nil)
    }

    @Test func globalSwitchDeniesAndRestores() {
        var database = AuthorizationDatabase(apps: [app.id: record(.authorizedAlways)])
        database.servicesEnabled = false
        let off = database.effectiveAuthorization(for: app.id, isAlive: { _ in true }, now: now)
        #expect(off.status == .denied && !off.servicesEnabled)
        #expect(database.effectiveAuthorization(for: "unknown.app", isAlive: { _ in true }, now: now).status == .denied)
        database.servicesEnabled = true
        #expect(database.effectiveAuthorization(for: app.id, isAlive: { _ in true }, now: now).status == .authorizedAlways)
        #expect(database.effectiveAuthorization(for: "unknown.app", isAlive: { _ in true }, now: now).status == .notDetermined)
    }

    @Test func temporaryFullAccuracyLastsAsLongAsTheProcessThatAsked() {
        var approximate = record(.authorizedWhenInUse)
        approximate.accuracy = .reducedAccuracy
        approximate.temporaryFullAccuracy = TemporaryFullAccuracy(purposeKey: "Navigation", process: me)
        var database = AuthorizationDatabase(apps: [app.id: approximate])
        let accuracy = { (database: AuthorizationDatabase, alive: Bool, when: Date) in
            database.effectiveAuthorization(for: app.id, isAlive: { $0 == me && alive }, now: when).accuracy
        }
        #expect(accuracy(database, true, now) == .fullAccuracy)
        #expect(accuracy(database, true, now.addingTimeInterval(86_400 * 30)) == .fullAccuracy, "no time limit while it runs")
        #expect(accuracy(database, false, now) == .reducedAccuracy, "the stamp of a dead process grants nothing")
        // Tidying the store forgets the dead grant and nothing else.
        database.removeExpiredTemporaryFullAccuracy { _ in true }
        #expect(database.apps[app.id]?.temporaryFullAccuracy != nil)
        database.removeExpiredTemporaryFullAccuracy { _ in false }
        #expect(database.apps[app.id]?.temporaryFullAccuracy == nil)
        #expect(database.apps[app.id]?.status == .authorizedWhenInUse && database.apps[app.id]?.accuracy == .reducedAccuracy)
    }

    @Test func temporaryFullAccuracyGrantsNothingWithoutAuthorization() {
        for status in [AuthorizationStatus.denied, .restricted, .notDetermined] {
            var denied = record(status)
            denied.accuracy = .reducedAccuracy
            denied.temporaryFullAccuracy = TemporaryFullAccuracy(purposeKey: "Navigation", process: me)
            let effective = AuthorizationDatabase(apps: [app.id: denied]).effectiveAuthorization(
                for: app.id, isAlive: { _ in true }, now: now)
            #expect(effective.status == status && effective.accuracy == .reducedAccuracy)
        }
        // Nor once the Allow Once process that held authorization has ended.
        var once = record(.authorizedWhenInUse, once: me)
        once.accuracy = .reducedAccuracy
        once.temporaryFullAccuracy = TemporaryFullAccuracy(purposeKey: "Navigation", process: me)
        let database = AuthorizationDatabase(apps: [app.id: once])
        #expect(database.effectiveAuthorization(for: app.id, isAlive: { $0 == me }, now: now).accuracy == .fullAccuracy)
        #expect(database.effectiveAuthorization(for: app.id, isAlive: { _ in false }, now: now).status == .notDetermined)
        // Switched off: denied, whatever the grant.
        var off = database
        off.servicesEnabled = false
        #expect(off.effectiveAuthorization(for: app.id, isAlive: { $0 == me }, now: now).status == .denied)
    }
}

extension AuthorizationRequestOutcome {
    var isIgnored: Bool { if case .ignored = self { true } else { false } }
}
