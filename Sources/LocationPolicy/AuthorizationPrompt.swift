import LocationProtocol

/// Something that can ask the user (or answer on the user's behalf).
public protocol AuthorizationPrompter: Sendable {
    /// Calls `completion` exactly once, on any thread: the answer, or nil when nobody can answer now
    /// (the request then stays pending and the caller logs how to answer it).
    func prompt(_ request: PromptRequest, completion: @escaping @Sendable (PromptAnswer?) -> Void)
}
