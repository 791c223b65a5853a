import Foundation
import LocationCore
import LocationPolicy
import LocationProtocol
import Logging

/// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)` in the service, and the end of the
/// grants that last as long as a process (temporary full accuracy, Allow Once).
///
/// A request is judged by ``AuthorizationRules/evaluateTemporaryFullAccuracy(purposeKey:app:info:effective:)``;
/// a declined one is answered at once. Otherwise the prompter shows the purpose string; an Allow Once
/// answer stores a grant bound to the asking process, the store is reloaded (every client of the app
/// is told its new accuracy), and only then does the client hear the outcome — so an `async` caller
/// that resumes already reads `.fullAccuracy`. A prompt nobody can answer was not shown: the request
/// is declined, not left pending, because Apple's completion is always called.
extension LocationService {
    func requestTemporaryFullAccuracy(_ request: AccuracyRequestID, purposeKey: String, clientID id: UInt64) {
        guard let client = clients[id] else { return }
        let outcome: TemporaryFullAccuracyRequestOutcome
        if storeError != nil {
            outcome = .declined(reason: "the authorization store is unreadable")
        } else if temporaryFullAccuracyPrompts.contains(client.app.id) {
            outcome = .declined(reason: "a temporary full accuracy prompt for this app is already showing")
        } else {
            outcome = AuthorizationRules.evaluateTemporaryFullAccuracy(
                purposeKey: purposeKey, app: client.app, info: client.info, effective: client.authorization)
        }
        switch outcome {
        case .declined(let reason):
            if client.info.temporaryUsageDescriptions[purposeKey] == nil {
                logger.error("""
                    \(client.app.displayName): temporary full accuracy request failed: the app's Info.plist has no \
                    purpose string for "\(purposeKey)" in NSLocationTemporaryUsageDescriptionDictionary. Add one \
                    telling the user why the app needs their precise location.
                    """)
            } else {
                logger.info("temporary full accuracy request declined", metadata: [
                    "app": "\(client.app.id)", "purposeKey": "\(purposeKey)", "reason": "\(reason)",
                ])
            }
            client.events(.temporaryFullAccuracy(request, .declined))
        case .prompt(let prompt):
            temporaryFullAccuracyPrompts.insert(client.app.id)
            let process = client.process
            guard let prompter else {
                return temporaryFullAccuracyAnswered(nil, prompt: prompt, process: process, request: request, clientID: id)
            }
            prompter.prompt(prompt) { answer in
                self.loop.execute {
                    self.temporaryFullAccuracyAnswered(answer, prompt: prompt, process: process, request: request, clientID: id)
                }
            }
        }
    }

    private func temporaryFullAccuracyAnswered(
        _ answer: PromptAnswer?, prompt: PromptRequest, process: ProcessStamp, request: AccuracyRequestID, clientID id: UInt64
    ) {
        let app = prompt.app
        temporaryFullAccuracyPrompts.remove(app.id)
        guard let answer else {
            logger.notice("""
                \(app.displayName) asked for temporary precise location and nobody can answer here (no agent, \
                terminal or prompt policy): the request is declined.
                """)
            clients[id]?.events(.temporaryFullAccuracy(request, .declined))
            return
        }
        if answer == .allowTemporaryFullAccuracy {
            do {
                try store.update { db in
                    db.removeExpiredTemporaryFullAccuracy { $0 == process || self.isAlive($0) }
                    // Reset meanwhile (`locationctl reset`): there is no decision left to lift.
                    guard let record = db.apps[app.id] else { return }
                    db.apps[app.id] = AuthorizationRules.apply(
                        answer, to: record, request: prompt, process: process, now: self.loop.now)
                }
            } catch {
                logger.error("could not record the temporary full accuracy grant", metadata: ["error": "\(error)"])
            }
            reloadStore(force: true)
        }
        clients[id]?.events(.temporaryFullAccuracy(request, .prompted))
    }

    /// Ends the temporary full accuracy the client's process holds; a grant to another process of
    /// the app (or none) is left as it is.
    func endTemporaryFullAccuracy(clientID id: UInt64) {
        guard let client = clients[id], storeError == nil,
              database.apps[client.app.id]?.temporaryFullAccuracy?.process == client.process else { return }
        do {
            try store.update { db in
                guard db.apps[client.app.id]?.temporaryFullAccuracy?.process == client.process else { return }
                db.apps[client.app.id]?.temporaryFullAccuracy = nil
            }
        } catch {
            logger.error("could not end the temporary full accuracy grant", metadata: ["error": "\(error)"])
        }
        reloadStore(force: true)
    }

    /// Re-judges the clients of apps holding a grant that lasts as long as a process, so that other
    /// running instances of the app learn when that process has ended (the store does not change
    /// then, so polling it would not tell). Runs with every store poll and when a client leaves.
    func reauthorizeProcessBoundGrants() {
        guard storeError == nil else { return }
        // This runs several times a second with every app connected: the few apps holding such a
        // grant are found in the store first, so that a tick with none costs nothing per client.
        let bound = Set(database.apps.compactMap { app, record in
            record.temporaryFullAccuracy != nil || record.allowOnce != nil ? app : nil
        })
        guard !bound.isEmpty else { return }
        for (id, client) in clients where bound.contains(client.app.id) {
            reauthorize(clientID: id)
        }
    }
}
