extension CLMonitor {
    /// A condition a monitor watches, and the last event it produced.
    public struct Record: Sendable {
        public let condition: any CLCondition
        /// Until the condition's state is known, an event with the state `.unknown` (or the state
        /// it was assumed to be in), dated when the condition was added.
        public let lastEvent: CLMonitor.Event
    }
}
