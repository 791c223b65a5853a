extension CLMonitor {
    /// The monitor's events, oldest first: every change of a condition's state, and every reason a
    /// condition is not watched.
    ///
    /// A monitor has one stream of events, however it is iterated: each event is delivered once,
    /// to the iteration that asks for it first (to the one that has waited longest when several
    /// tasks wait at once). Events that occur while nobody iterates wait for the next iteration;
    /// an iteration that ends leaves the following events to the next one. Iterating establishes
    /// an implicit When-In-Use service session: if the app's authorization is not determined, the
    /// first iteration asks for it (unless the Info.plist sets
    /// `NSLocationRequireExplicitServiceSession`).
    public struct Events: AsyncSequence, Sendable {
        public typealias Element = CLMonitor.Event

        let session: MonitorSession

        public func makeAsyncIterator() -> Iterator {
            session.beginIteration()
            return Iterator(session: session)
        }

        /// Iterates the monitor's events; `next()` returns nil once its task is cancelled.
        public struct Iterator: AsyncIteratorProtocol {
            let session: MonitorSession

            public mutating func next() async throws -> CLMonitor.Event? {
                await session.queue.next()
            }
        }
    }
}
