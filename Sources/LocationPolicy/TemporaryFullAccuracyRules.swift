import Foundation
import LocationProtocol

/// What a request for temporary full accuracy does, decided before anyone is asked.
public enum TemporaryFullAccuracyRequestOutcome: Sendable, Equatable {
    /// Nobody is asked and the request fails with `CLError.promptDeclined`; `reason` is for the log.
    case declined(reason: String)
    /// Ask the user (or the policy standing in for them).
    case prompt(PromptRequest)
}

/// Apple's rules for `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`.
///
/// The request fails with `promptDeclined` — no prompt — when the purpose key is missing from the
/// app's `NSLocationTemporaryUsageDescriptionDictionary`, when the app already has full accuracy, or
/// when it is not in use (never on Linux: a running process is in use). It only means something for
/// an app authorized When In Use or Always with reduced accuracy, so any other status declines too.
extension AuthorizationRules {
    public static func evaluateTemporaryFullAccuracy(
        purposeKey: String, app: AppIdentity, info: AppInfo, effective: EffectiveAuthorization
    ) -> TemporaryFullAccuracyRequestOutcome {
        guard let purpose = info.temporaryUsageDescriptions[purposeKey], !purpose.isEmpty else {
            return .declined(reason: "the Info.plist's NSLocationTemporaryUsageDescriptionDictionary has no purpose string for key \"\(purposeKey)\"")
        }
        guard effective.servicesEnabled else {
            return .declined(reason: "Location Services are switched off for this device")
        }
        guard effective.status.isAuthorized else {
            return .declined(reason: "the app is not authorized to use location")
        }
        guard effective.accuracy == .reducedAccuracy else {
            return .declined(reason: "the app already has full accuracy")
        }
        return .prompt(PromptRequest(
            app: app, kind: .temporaryFullAccuracy(purposeKey: purposeKey), level: .whenInUse,
            usageDescription: purpose, preciseByDefault: false))
    }

    /// The record after the user answered a temporary full accuracy prompt: Allow Once binds the grant
    /// to the asking process; anything else changes nothing.
    static func applyTemporaryFullAccuracy(
        _ answer: PromptAnswer, purposeKey: String, to record: AppRecord, process: ProcessStamp, now: Date
    ) -> AppRecord {
        guard answer == .allowTemporaryFullAccuracy else { return record }
        var result = record
        result.temporaryFullAccuracy = TemporaryFullAccuracy(purposeKey: purposeKey, process: process)
        result.updated = now
        return result
    }
}
