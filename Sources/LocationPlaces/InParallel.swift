import Dispatch

/// Runs `body` for parts `0..<parts` at once, one thread a part (the caller's among them); returns when
/// all have. Used by the batch's sort and by opening the database.
func inParallel(_ parts: Int, _ body: (Int) -> Void) {
    if parts == 1 {
        body(0)
    } else {
        withoutActuallyEscaping(body) { body in
            let shared = Shared(body)
            DispatchQueue.concurrentPerform(iterations: parts) { shared.value($0) }
        }
    }
}

/// A value the parts of a parallel step share: each writes only its own words (or counters, or results),
/// and `concurrentPerform` returns only when every part has.
struct Shared<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
