/// Cuts a byte stream into lines (`\n`, with an optional `\r` before it), across arbitrary chunks.
///
/// A line longer than `maximumLength` is dropped whole (its start, its rest up to the next newline),
/// counted in `overlongLines` and `overlongBytes`; memory stays bounded whatever the peer sends: the
/// partial line's buffer is reserved once, at `maximumLength`, and never grows.
struct LineSplitter: Sendable {
    let maximumLength: Int
    private var partial: [UInt8] = []
    private var discarding = false
    private(set) var overlongLines = 0
    /// Bytes of over-long lines thrown away (their line ends not counted).
    private(set) var overlongBytes = 0

    init(maximumLength: Int) {
        precondition(maximumLength > 0)
        self.maximumLength = maximumLength
        partial.reserveCapacity(maximumLength)
    }

    /// Calls `onLine` for every line the bytes complete (without its line ending).
    mutating func feed(_ bytes: [UInt8], onLine: ([UInt8]) -> Void) {
        bytes.withUnsafeBytes { feed($0, onLine: onLine) }
    }

    /// Calls `onLine` for every line the bytes complete (without its line ending).
    mutating func feed(_ bytes: UnsafeRawBufferPointer, onLine: ([UInt8]) -> Void) {
        var start = 0
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                append(UnsafeRawBufferPointer(rebasing: bytes[start...]))
                return
            }
            append(UnsafeRawBufferPointer(rebasing: bytes[start..<newline]))
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
        partial.removeAll(keepingCapacity: true)
        discarding = false
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !discarding else {
            overlongBytes += bytes.count
            return
        }
        if partial.count + bytes.count > maximumLength {
            overlongBytes += partial.count + bytes.count
            partial.removeAll(keepingCapacity: true)
            discarding = true
            overlongLines += 1
            return
        }
        partial.append(contentsOf: bytes)
    }
}
