/// Cuts a byte stream into lines (`\n`, with an optional `\r` before it), across arbitrary chunks.
///
/// A line longer than `maximumLength` is dropped whole (its start, its rest up to the next newline),
/// counted in `overlongLines`; memory stays bounded whatever the peer sends.
struct LineSplitter: Sendable {
    let maximumLength: Int
    private var partial: [UInt8] = []
    private var discarding = false
    private(set) var overlongLines = 0

    init(maximumLength: Int) {
        precondition(maximumLength > 0)
        self.maximumLength = maximumLength
    }

    /// Calls `onLine` for every line the bytes complete (without its line ending).
    mutating func feed(_ bytes: [UInt8], onLine: ([UInt8]) -> Void) {
        var start = 0
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                append(bytes[start...])
                return
            }
            append(bytes[start..<newline])
            if !discarding {
                if partial.last == UInt8(ascii: "\r") { partial.removeLast() }
                onLine(partial)
            }
            partial.removeAll(keepingCapacity: true)
            discarding = false
            start = newline + 1
        }
    }

    /// Forgets a partial line (the connection it came from is gone).
    mutating func reset() {
        partial.removeAll()
        discarding = false
    }

    private mutating func append(_ slice: ArraySlice<UInt8>) {
        guard !discarding else { return }
        if partial.count + slice.count > maximumLength {
            partial.removeAll()
            discarding = true
            overlongLines += 1
            return
        }
        partial.append(contentsOf: slice)
    }
}
