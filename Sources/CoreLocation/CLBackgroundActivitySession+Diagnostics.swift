extension CLBackgroundActivitySession {
    /// The session's diagnostics as an asynchronous sequence.
    public final class Diagnostics: AsyncSequence, Sendable {
        public typealias Element = CLBackgroundActivitySession.Diagnostic

        private let broadcast: DiagnosticBroadcast<Diagnostic>

        init(_ broadcast: DiagnosticBroadcast<Diagnostic>) {
            self.broadcast = broadcast
        }

        public func makeAsyncIterator() -> Iterator {
            Iterator(broadcast.stream().makeAsyncIterator())
        }

        public struct Iterator: AsyncIteratorProtocol {
            private var base: AsyncStream<Diagnostic>.Iterator

            init(_ base: AsyncStream<Diagnostic>.Iterator) {
                self.base = base
            }

            public mutating func next() async throws -> Diagnostic? {
                await base.next()
            }
        }
    }
}
