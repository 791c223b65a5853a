import Foundation

/// Polls `condition` every `interval` (5 ms unless a poll is costly) until it holds or `timeout`
/// passes (and a few polls were made), suspending between polls so that no thread of the test pool is
/// held. Returns whether it held: use it inside `#expect`/`#require` (which report the condition's source
/// text when it did not), or negated for "did not happen within".
///
/// This is the tests' one polling loop: waiting on another thread's progress goes through it.
public func eventually(
    timeout: Duration = .seconds(5), every interval: Duration = .milliseconds(5), _ condition: () throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    // All tests start at once on a pool of as many threads as cores, so a poller can wait longer than
    // its whole timeout for a thread (on two cores CI has seen tests wait a minute): the wait ends only
    // after some polls as well — a fifth of those an unhurried wait makes, at most 200.
    let minimumPolls = interval > .zero ? min(200, Int(timeout / interval) / 5) : 0
    var polls = 0
    while clock.now < deadline || polls < minimumPolls {
        if try condition() { return true }
        polls += 1
        try? await Task.sleep(for: interval)
    }
    return try condition()
}
