import Foundation

/// Polls `condition` every `interval` (5 ms unless a poll is costly) until it holds or `timeout`
/// passes, suspending between polls so that no thread of the test pool is held. Returns whether it held:
/// use it inside `#expect`/`#require` (which report the condition's source text when it did not), or
/// negated for "did not happen within".
///
/// This is the tests' one polling loop: waiting on another thread's progress goes through it.
public func eventually(
    timeout: Duration = .seconds(5), every interval: Duration = .milliseconds(5), _ condition: () throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return try condition()
}
