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
        core = ServiceSessionCore(requirement: authorization, system: LocationSystem.current)
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

/// A session's connection to the service: it asks for the authorization, follows it for the
/// diagnostics, and holds the session in the process's registry until invalidated.
final class ServiceSessionCore: Sendable {
    let requirement: CLServiceSession.AuthorizationRequirement
    let broadcast: DiagnosticBroadcast<CLServiceSession.Diagnostic>
    private let connection: any ClientConnection
    private let registry: ServiceSessionRegistry
    private let holding: Locked<UInt64?>
    private let observed: Locked<(authorization: EffectiveAuthorization?, requestInProgress: Bool)>

    init(requirement: CLServiceSession.AuthorizationRequirement, system: LocationSystem) {
        self.requirement = requirement
        broadcast = DiagnosticBroadcast(CLServiceSession.Diagnostic(
            authorization: nil, requirement: requirement, fullAccuracyRequested: false, requestInProgress: false))
        let observed = Locked<(authorization: EffectiveAuthorization?, requestInProgress: Bool)>((nil, false))
        self.observed = observed
        let broadcast = broadcast
        connection = system.provider.connect(app: system.app, info: system.info, process: system.process) { event in
            let now = observed.withLock { observed -> (EffectiveAuthorization?, Bool)? in
                switch event {
                case .authorizationChanged(let authorization): observed.authorization = authorization
                case .authorizationRequestInProgress(let inProgress): observed.requestInProgress = inProgress
                default: return nil
                }
                return (observed.authorization, observed.requestInProgress)
            }
            guard let (authorization, inProgress) = now else { return }
            broadcast.update(CLServiceSession.Diagnostic(
                authorization: authorization, requirement: requirement, fullAccuracyRequested: false, requestInProgress: inProgress))
        }
        registry = ServiceSessionRegistry.registry(for: system)
        holding = Locked(registry.hold())
        let initial = connection.initialAuthorization
        if let initial {
            observed.withLock { $0.authorization = initial }
            broadcast.update(CLServiceSession.Diagnostic(
                authorization: initial, requirement: requirement, fullAccuracyRequested: false, requestInProgress: false))
        }
        // The service applies Apple's rules: When In Use is asked only while not determined,
        // Always once (from not determined, or as the one upgrade from When In Use).
        switch requirement {
        case .none: break
        case .whenInUse: connection.send(.requestAuthorization(.whenInUse))
        case .always: connection.send(.requestAuthorization(.always))
        }
    }

    func invalidate() {
        guard let id = holding.withLock({ id in defer { id = nil }; return id }) else { return }
        registry.release(id)
        connection.close()
        broadcast.finish()
    }
}
