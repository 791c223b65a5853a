/// What the subscribers that need a source now (neither paused nor resting) ask for, kept as they
/// change: recounting every subscriber at each subscribe and cancel was quadratic — ten thousand
/// apps connecting kept the engine's loop busy for seconds, and its source unread.
final class DemandLedger {
    /// One demanding subscriber's share.
    struct Share: Equatable {
        let service: String
        let account: String
        let requiredAccuracy: Double
    }

    private(set) var count = 0
    /// Demanding subscribers by service name and by account, as the energy meter books them.
    private(set) var services: [String: Int] = [:]
    private(set) var accounts: [String: Int] = [:]
    /// Required accuracies with their counts: few distinct values, whatever the subscribers.
    private var requiredAccuracies: [Double: Int] = [:]

    /// The strictest required accuracy among demanding subscribers (0 is "none required").
    var strictestRequiredAccuracy: Double? { requiredAccuracies.keys.min() }

    func add(_ share: Share) {
        count += 1
        services[share.service, default: 0] += 1
        accounts[share.account, default: 0] += 1
        requiredAccuracies[share.requiredAccuracy, default: 0] += 1
    }

    func remove(_ share: Share) {
        count -= 1
        Self.decrement(&services, share.service)
        Self.decrement(&accounts, share.account)
        Self.decrement(&requiredAccuracies, share.requiredAccuracy)
    }

    private static func decrement<Key: Hashable>(_ counts: inout [Key: Int], _ key: Key) {
        guard let count = counts[key] else { return }
        counts[key] = count > 1 ? count - 1 : nil
    }
}
