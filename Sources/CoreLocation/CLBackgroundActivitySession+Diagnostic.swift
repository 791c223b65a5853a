import LocationProtocol

extension CLBackgroundActivitySession {
    /// What stands between a background activity session and location.
    public struct Diagnostic: Sendable, Equatable {
        public let authorizationDenied: Bool
        public let authorizationDeniedGlobally: Bool
        public let authorizationRequestInProgress: Bool
        public let authorizationRestricted: Bool
        /// NOTE: a running Linux process always counts as in use, so this is never set on Linux.
        public let insufficientlyInUse: Bool
        /// The app requires explicit service sessions and holds no `CLServiceSession`.
        public let serviceSessionRequired: Bool

        init(authorization: EffectiveAuthorization?, requestInProgress: Bool, sessionRequired: Bool) {
            let globallyOff = authorization.map { !$0.servicesEnabled } ?? false
            authorizationDeniedGlobally = globallyOff
            authorizationDenied = globallyOff || authorization?.status == .denied
            authorizationRestricted = authorization?.status == .restricted
            authorizationRequestInProgress = requestInProgress
            insufficientlyInUse = false
            serviceSessionRequired = sessionRequired
        }
    }
}
