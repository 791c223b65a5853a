import Foundation
import LocationProtocol

/// What an authorization request does, decided before anyone is asked.
public enum AuthorizationRequestOutcome: Sendable, Equatable {
    /// Apple's documented no-op: no prompt and no delegate callback.
    case ignored(reason: String)
    /// The app's Info.plist lacks a required usage description: the request fails at once.
    case missingUsageDescription(key: String)
    /// Ask the user (or the policy standing in for them).
    case prompt(PromptRequest)
}

/// Apple's authorization rules as pure functions, shared by the in-process engine and `locationd`.
///
/// The rules, as Apple documents them: `requestWhenInUseAuthorization()` acts only from
/// `.notDetermined`; `requestAlwaysAuthorization()` from `.notDetermined`, or once from
/// `.authorizedWhenInUse`, never after Allow Once; the usage-description keys are required; the
/// device-wide Location Services switch wins over everything.
public enum AuthorizationRules {
    public static func evaluate(
        _ level: AuthorizationLevel, app: AppIdentity, info: AppInfo,
        record: AppRecord?, effective: EffectiveAuthorization
    ) -> AuthorizationRequestOutcome {
        guard effective.servicesEnabled else {
            return .ignored(reason: "Location Services are switched off for this device")
        }
        guard let whenInUse = info.whenInUseUsageDescription ?? info.legacyUsageDescription, !whenInUse.isEmpty else {
            return .missingUsageDescription(key: "NSLocationWhenInUseUsageDescription")
        }
        let preciseByDefault = !info.defaultAccuracyReduced
        switch level {
        case .whenInUse:
            guard effective.status == .notDetermined else {
                return .ignored(reason: "authorization was already determined")
            }
            return .prompt(PromptRequest(
                app: app, kind: .initial, level: .whenInUse,
                usageDescription: whenInUse, preciseByDefault: preciseByDefault))
        case .always:
            let always = info.alwaysAndWhenInUseUsageDescription ?? info.alwaysUsageDescription ?? info.legacyUsageDescription
            guard let always, !always.isEmpty else {
                return .missingUsageDescription(key: "NSLocationAlwaysAndWhenInUseUsageDescription")
            }
            switch effective.status {
            case .notDetermined:
                return .prompt(PromptRequest(
                    app: app, kind: .initial, level: .always,
                    usageDescription: always, preciseByDefault: preciseByDefault))
            case .authorizedWhenInUse:
                if record?.allowOnce != nil {
                    return .ignored(reason: "Always cannot be requested after Allow Once")
                }
                if record?.alwaysRequestUsed == true {
                    return .ignored(reason: "an app may request Always authorization only once")
                }
                return .prompt(PromptRequest(
                    app: app, kind: .upgradeToAlways, level: .always,
                    usageDescription: always, preciseByDefault: preciseByDefault))
            default:
                return .ignored(reason: "authorization was already determined")
            }
        }
    }

    /// The record after the user answered `request`. An answer to another kind of question leaves
    /// the decision as it was.
    public static func apply(
        _ answer: PromptAnswer, to record: AppRecord?, request: PromptRequest,
        process: ProcessStamp, now: Date
    ) -> AppRecord {
        if case .temporaryFullAccuracy(let purposeKey) = request.kind, let record {
            return applyTemporaryFullAccuracy(answer, purposeKey: purposeKey, to: record, process: process, now: now)
        }
        guard answer.answers(request.kind) else {
            return record ?? AppRecord(
                status: .notDetermined, displayName: request.app.displayName,
                executablePath: request.app.executablePath, updated: now)
        }
        var result = record ?? AppRecord(
            status: .notDetermined, displayName: request.app.displayName,
            executablePath: request.app.executablePath, updated: now)
        result.displayName = request.app.displayName
        result.executablePath = request.app.executablePath
        result.updated = now
        if request.level == .always { result.alwaysRequestUsed = true }
        switch answer {
        case .allowOnce(let precise):
            result.status = .authorizedWhenInUse
            result.accuracy = precise ? .fullAccuracy : .reducedAccuracy
            result.allowOnce = process
        case .allowWhileUsing(let precise):
            // From .notDetermined, an Always request answered "Allow While Using App" grants
            // provisional Always (Apple: the delegate receives .authorizedAlways).
            result.status = request.level == .always ? .authorizedAlways : .authorizedWhenInUse
            result.accuracy = precise ? .fullAccuracy : .reducedAccuracy
            result.allowOnce = nil
        case .dontAllow:
            result.status = .denied
            result.allowOnce = nil
        case .changeToAlways:
            result.status = .authorizedAlways
        case .keepWhileUsing, .allowTemporaryFullAccuracy, .denyTemporaryFullAccuracy:
            break
        }
        return result
    }
}

extension AuthorizationDatabase {
    /// What `appID` may do now: the global switch, Allow Once expiry and a temporary full accuracy
    /// grant whose process still runs applied to its record.
    public func effectiveAuthorization(
        for appID: String, isAlive: (ProcessStamp) -> Bool, now: Date
    ) -> EffectiveAuthorization {
        guard var record = apps[appID] else {
            return EffectiveAuthorization(
                status: servicesEnabled ? .notDetermined : .denied,
                accuracy: .fullAccuracy, servicesEnabled: servicesEnabled)
        }
        if let once = record.allowOnce, !isAlive(once) {
            record.status = .notDetermined
            record.accuracy = .fullAccuracy
        }
        if record.accuracy == .reducedAccuracy, record.status.isAuthorized,
           let temporary = record.temporaryFullAccuracy, isAlive(temporary.process) {
            record.accuracy = .fullAccuracy
        }
        return EffectiveAuthorization(
            status: servicesEnabled ? record.status : .denied,
            accuracy: record.accuracy, servicesEnabled: servicesEnabled)
    }

    /// Forgets Allow Once grants whose process has ended (the app is back to "not determined").
    public mutating func removeExpiredAllowOnce(isAlive: (ProcessStamp) -> Bool) {
        for (id, record) in apps {
            if let once = record.allowOnce, !isAlive(once) { apps[id] = nil }
        }
    }

    /// Forgets temporary full accuracy grants whose process has ended (the app is back to its
    /// reduced accuracy, which `effectiveAuthorization` already applies; this only tidies the store).
    public mutating func removeExpiredTemporaryFullAccuracy(isAlive: (ProcessStamp) -> Bool) {
        for (id, record) in apps {
            if let temporary = record.temporaryFullAccuracy, !isAlive(temporary.process) {
                apps[id]?.temporaryFullAccuracy = nil
            }
        }
    }
}
