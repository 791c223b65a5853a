import Foundation
import LocationBootstrap
import LocationCore
import LocationProtocol

/// A declaration that the app keeps using location in the background. On Linux a running process
/// is always in use, so the session changes nothing about delivery; like Apple's, holding one is
/// an implicit When In Use service session (asking for authorization if it is not determined)
/// unless the app sets `NSLocationRequireExplicitServiceSession`, and its diagnostics say why
/// location is not available.
public final class CLBackgroundActivitySession: Sendable {
    private let broadcast: DiagnosticBroadcast<Diagnostic>
    private let connection: any ClientConnection
    private let sessions: (registry: ServiceSessionRegistry, observation: UInt64)?
    private let ended = Locked(false)

    public init() {
        let system = LocationSystem.current
        let explicit = system.info.requiresExplicitServiceSession
        let broadcast = DiagnosticBroadcast(Diagnostic(authorization: nil, requestInProgress: false, sessionRequired: explicit))
        self.broadcast = broadcast
        let observed = Locked(Observed(sessionRequired: explicit))
        connection = system.provider.connect(app: system.app, info: system.info, process: system.process) { event in
            let diagnostic = observed.withLock { observed -> Diagnostic? in
                switch event {
                case .authorizationChanged(let authorization): observed.authorization = authorization
                case .authorizationRequestInProgress(let inProgress): observed.requestInProgress = inProgress
                default: return nil
                }
                return observed.diagnostic
            }
            if let diagnostic { broadcast.update(diagnostic) }
        }
        if let initial = connection.initialAuthorization {
            broadcast.update(observed.withLock { $0.authorization = initial; return $0.diagnostic })
        }
        if explicit {
            let registry = ServiceSessionRegistry.registry(for: system)
            sessions = (registry, registry.observe { held in
                broadcast.update(observed.withLock { $0.sessionRequired = !held; return $0.diagnostic })
            })
        } else {
            sessions = nil
            // The implicit When In Use session asks when the status is not determined (the
            // service ignores the request otherwise).
            connection.send(.requestAuthorization(.whenInUse))
        }
    }

    deinit {
        invalidate()
    }

    /// The session's diagnostics: the current one at once, then each change, until invalidated.
    public final var diagnostics: Diagnostics { Diagnostics(broadcast) }

    /// Ends the session. Idempotent.
    public final func invalidate() {
        guard !ended.withLock({ ended in defer { ended = true }; return ended }) else { return }
        if let sessions { sessions.registry.stopObserving(sessions.observation) }
        connection.close()
        broadcast.finish()
    }

    private struct Observed {
        var authorization: EffectiveAuthorization?
        var requestInProgress = false
        var sessionRequired: Bool

        var diagnostic: Diagnostic {
            Diagnostic(authorization: authorization, requestInProgress: requestInProgress, sessionRequired: sessionRequired)
        }
    }
}
