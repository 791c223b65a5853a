import LocationProtocol

extension CLServiceSession {
    /// What stands between a service session and the service it asks for.
    public struct Diagnostic: Sendable, Equatable {
        /// The session asked for full accuracy and the app does not have it.
        public let accuracyLimited: Bool
        /// The session requires Always and the app has When In Use only.
        public let alwaysAuthorizationDenied: Bool
        public let authorizationDenied: Bool
        public let authorizationDeniedGlobally: Bool
        public let authorizationRequestInProgress: Bool
        public let authorizationRestricted: Bool
        /// The session named a full-accuracy purpose and the app still has reduced accuracy.
        public let fullAccuracyDenied: Bool
        /// NOTE: a running Linux process always counts as in use, so this is never set on Linux.
        public let insufficientlyInUse: Bool
        /// Never set for a session: it is the session the requirement asks for.
        public let serviceSessionRequired: Bool

        init(
            authorization: EffectiveAuthorization?, requirement: AuthorizationRequirement, fullAccuracyRequested: Bool,
            requestInProgress: Bool
        ) {
            let status = authorization?.status
            let globallyOff = authorization.map { !$0.servicesEnabled } ?? false
            authorizationDeniedGlobally = globallyOff
            authorizationDenied = globallyOff || status == .denied
            authorizationRestricted = status == .restricted
            authorizationRequestInProgress = requestInProgress
            let reduced = authorization?.accuracy == .reducedAccuracy && status?.isAuthorized == true
            accuracyLimited = reduced
            fullAccuracyDenied = fullAccuracyRequested && reduced && !requestInProgress
            alwaysAuthorizationDenied = requirement == .always && status == .authorizedWhenInUse && !requestInProgress
            insufficientlyInUse = false
            serviceSessionRequired = false
        }
    }
}
