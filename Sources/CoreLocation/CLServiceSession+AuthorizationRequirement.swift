extension CLServiceSession {
    /// The authorization a service session asks for and needs.
    public enum AuthorizationRequirement: Equatable, Hashable, Sendable {
        /// Asks for nothing: the session only satisfies `NSLocationRequireExplicitServiceSession`
        /// (with whatever authorization the app already has).
        case none
        /// Asks for When In Use authorization if the app's is not determined.
        case whenInUse
        /// Asks for Always authorization: from not determined, or once as an upgrade from When In Use.
        case always
    }
}
