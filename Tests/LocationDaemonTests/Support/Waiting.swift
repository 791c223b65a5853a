import Foundation

/// Polls `condition` every 10 ms without holding a thread of the test pool; false on timeout.
@discardableResult
func waitFor(timeout: Double, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
