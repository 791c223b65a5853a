import Foundation
import LocationEngine
import LocationProtocol

extension LocationEngine {
    /// The events of one subscription as an async sequence; cancelling the iteration ends it.
    func events(_ request: UpdateRequest) -> AsyncStream<StreamEvent> {
        AsyncStream { continuation in
            let subscription = subscribe(request) { continuation.yield($0) }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }
}
