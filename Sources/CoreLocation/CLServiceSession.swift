import Foundation
import LocationBootstrap
import LocationCore
import LocationProtocol

/// A declaration that the app is using location services and what authorization it needs: while
/// a session is held, an app that sets `NSLocationRequireExplicitServiceSession` receives live
/// updates and monitor events; a session that requires authorization asks for it when it can.
///
/// The session lasts until ``invalidate()`` or until it is released.
public final class CLServiceSession: Sendable {
    private let core: ServiceSessionCore

    /// Starts a session that needs `authorization`, asking for it if it can be asked for.
    public init(authorization: AuthorizationRequirement) {
        core = ServiceSessionCore(requirement: authorization, purposeKey: nil, system: LocationSystem.current)
    }

    /// Starts a session that needs `authorization` and full accuracy: once the app is authorized
    /// with reduced accuracy, it asks for temporary full accuracy with the purpose string under
    /// `fullAccuracyPurposeKey` in `NSLocationTemporaryUsageDescriptionDictionary`. Full accuracy
    /// obtained so lasts while a session that obtained it is held.
    public init(authorization: AuthorizationRequirement, fullAccuracyPurposeKey: String) {
        core = ServiceSessionCore(requirement: authorization, purposeKey: fullAccuracyPurposeKey, system: LocationSystem.current)
    }

    deinit {
        core.invalidate()
    }

    /// The session's diagnostics: why it is not (yet) getting what it asks for.
    public final var diagnostics: Diagnostics { Diagnostics(core.broadcast) }

    /// Ends the session. Idempotent.
    public final func invalidate() {
        core.invalidate()
    }
}

/// A session's connection to the service: it asks for the authorization (and full accuracy), follows
/// it for the diagnostics, and holds the session in the process's registry until invalidated.
final class ServiceSessionCore: Sendable {
    let broadcast: DiagnosticBroadcast<CLServiceSession.Diagnostic>
    private let connection: any ClientConnection
    private let registry: ServiceSessionRegistry
    private let holding: Locked<UInt64?>
    private let progress: Locked<Progress>

    /// What the session has heard and done.
    private struct Progress {
        let requirement: CLServiceSession.AuthorizationRequirement
        let purposeKey: String?
        var authorization: EffectiveAuthorization?
        var requestInProgress = false
        /// The temporary full accuracy request: sent, and whether it obtained full accuracy.
        var accuracyRequested = false
        var accuracyAnswered = false
        var obtainedFullAccuracy = false

        var diagnostic: CLServiceSession.Diagnostic {
            CLServiceSession.Diagnostic(
                authorization: authorization, requirement: requirement,
                fullAccuracyRequested: purposeKey != nil,
                requestInProgress: requestInProgress || (accuracyRequested && !accuracyAnswered))
        }

        /// Whether to ask for temporary full accuracy now: once, when authorized with reduced accuracy.
        mutating func shouldRequestFullAccuracy() -> Bool {
            guard purposeKey != nil, !accuracyRequested, let authorization, authorization.status.isAuthorized,
                  authorization.accuracy == .reducedAccuracy else { return false }
            accuracyRequested = true
            return true
        }
    }

    private static let accuracyRequest: AccuracyRequestID = 1

    init(requirement: CLServiceSession.AuthorizationRequirement, purposeKey: String?, system: LocationSystem) {
        let progress = Locked(Progress(requirement: requirement, purposeKey: purposeKey))
        self.progress = progress
        broadcast = DiagnosticBroadcast(progress.withLock { $0.diagnostic })
        let broadcast = broadcast
        let registry = ServiceSessionRegistry.registry(for: system)
        self.registry = registry
        let sender = Locked<(any ClientConnection)?>(nil)
        let connection = system.provider.connect(app: system.app, info: system.info, process: system.process) { event in
            let (diagnostic, ask) = progress.withLock { progress -> (CLServiceSession.Diagnostic?, Bool) in
                switch event {
                case .authorizationChanged(let authorization): progress.authorization = authorization
                case .authorizationRequestInProgress(let inProgress): progress.requestInProgress = inProgress
                case .temporaryFullAccuracy:
                    progress.accuracyAnswered = true
                    progress.obtainedFullAccuracy = progress.authorization?.accuracy == .fullAccuracy
                    if progress.obtainedFullAccuracy { registry.holdFullAccuracy() }
                default: return (nil, false)
                }
                return (progress.diagnostic, progress.shouldRequestFullAccuracy())
            }
            if let diagnostic { broadcast.update(diagnostic) }
            if ask, let purposeKey {
                sender.withLock { $0 }?.send(.requestTemporaryFullAccuracy(ServiceSessionCore.accuracyRequest, purposeKey: purposeKey))
            }
        }
        sender.withLock { $0 = connection }
        self.connection = connection
        holding = Locked(registry.hold())
        var ask = false
        if let initial = connection.initialAuthorization {
            let diagnostic = progress.withLock { progress -> CLServiceSession.Diagnostic in
                progress.authorization = initial
                ask = progress.shouldRequestFullAccuracy()
                return progress.diagnostic
            }
            broadcast.update(diagnostic)
        }
        // The service applies Apple's rules: When In Use is asked only while not determined,
        // Always once (from not determined, or as the one upgrade from When In Use).
        switch requirement {
        case .none: break
        case .whenInUse: connection.send(.requestAuthorization(.whenInUse))
        case .always: connection.send(.requestAuthorization(.always))
        }
        if ask, let purposeKey { connection.send(.requestTemporaryFullAccuracy(Self.accuracyRequest, purposeKey: purposeKey)) }
    }

    func invalidate() {
        guard let id = holding.withLock({ id in defer { id = nil }; return id }) else { return }
        registry.release(id)
        if progress.withLock({ $0.obtainedFullAccuracy }), registry.releaseFullAccuracy() {
            connection.send(.endTemporaryFullAccuracy)
        }
        connection.close()
        broadcast.finish()
    }
}
