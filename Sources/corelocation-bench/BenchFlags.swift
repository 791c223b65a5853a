// The `--flag value` arguments of the bench's commands that take only such pairs.

/// The arguments as `(flag, value)` pairs, in order; a flag without its value is a usage error.
func flagPairs(_ arguments: [String], usage: (String) -> Never) -> [(flag: String, value: String)] {
    var pairs: [(flag: String, value: String)] = []
    var it = arguments.makeIterator()
    while let flag = it.next() {
        guard let value = it.next() else { usage("missing value for \(flag)") }
        pairs.append((flag, value))
    }
    return pairs
}

/// `value` as a whole number of at least `minimum`; anything else is a usage error naming `flag`.
func wholeNumber(_ value: String, _ flag: String, minimum: Int, usage: (String) -> Never) -> Int {
    guard let number = Int(value), number >= minimum else { usage("bad value \(value) for \(flag)") }
    return number
}
