/// Streaming NMEA 0183 decoder: bytes in (any chunking), one event per completed epoch out.
///
/// Reads GGA, RMC, GSA, GSV, VTG, GLL, GST, ZDA, HDT and THS from any talker; other valid sentences
/// (proprietary `$P…`, `!AIVDM`, `TXT`, …) are skipped and counted. How sentences become epochs,
/// and when an epoch is emitted, is described on `EpochAssembler`; how accuracies are estimated,
/// on `NMEAAccuracy`.
///
/// Framing: a sentence starts at `$` or `!` and ends at CR or LF (CRLF, LF and CR alone all work).
/// Anything between sentences — binary data, noise — is skipped up to the next start character. A
/// line that breaks the rules (bad or missing checksum, a control character, no line end within
/// `maximumLineLength` bytes, a field out of range) is counted in `statistics` and dropped; the
/// search for the next sentence resumes right after its start character, so a sentence that a
/// damaged one ran into is still found. The same bytes give the same events and statistics however
/// they are split into `feed` calls.
///
/// Performance: complete lines are decoded in place in the caller's buffer — no copy, no
/// allocation per sentence; only a line split between two `feed` calls is copied (at most
/// `maximumLineLength` bytes, into a buffer reserved once).
public struct NMEADecoder: Sendable {
    public struct Options: Sendable, Equatable {
        /// Accept sentences without a `*hh` checksum (only for sources configured to allow it).
        public var allowMissingChecksum: Bool
        public init(allowMissingChecksum: Bool = false) { self.allowMissingChecksum = allowMissingChecksum }
    }

    /// The longest line accepted, from its `$` to the end of its checksum: NMEA 0183 allows 82
    /// characters including `$` and CRLF (79 between them); real receivers exceed that (high-precision
    /// GGA from RTK receivers, NMEA 4.11 additions, proprietary sentences), so we accept three times as
    /// much and treat anything longer as noise.
    public static let maximumLineLength = 255

    public let options: Options

    /// Counts of what was seen and rejected.
    public internal(set) var statistics = NMEAStatistics()

    var assembler = EpochAssembler()
    /// The start of a line the last `feed` ended in (at most `maximumLineLength` bytes).
    var carry: [UInt8] = []

    public init(options: Options = Options()) {
        self.options = options
        carry.reserveCapacity(2 * NMEADecoder.maximumLineLength + 2)
    }

    /// Feeds bytes; calls `onEvent` for every epoch these bytes complete.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, onEvent: (NMEAEvent) -> Void) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let count = bytes.count
        var resume = 0
        if !carry.isEmpty {
            // Complete the held line (and any line starting inside it) from the head of the new bytes:
            // `maximumLineLength + 1` more bytes decide every line that starts in the held part.
            var held: [UInt8] = []
            swap(&held, &carry)
            let heldCount = held.count
            let take = min(count, NMEADecoder.maximumLineLength + 1)
            held.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            let stop = held.withUnsafeBytes { buffer in
                scan(buffer.baseAddress!, count: buffer.count, from: 0, startLimit: heldCount, final: false, onEvent: onEvent)
            }
            switch stop {
            case .needMore(let start):
                // Only when all the new bytes were taken and still no line end.
                held.removeSubrange(0..<start)
                swap(&held, &carry)
                return
            case .reached(let position):
                held.removeAll(keepingCapacity: true)
                swap(&held, &carry)
                resume = position - heldCount
            }
        }
        if case .needMore(let start) = scan(base, count: count, from: resume, startLimit: count, final: false, onEvent: onEvent) {
            carry.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: count - start))
        }
    }

    /// Feeds bytes from any collection (convenience for tests and small inputs).
    public mutating func feed<Bytes: Collection>(_ bytes: Bytes, onEvent: (NMEAEvent) -> Void) where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { feed(UnsafeRawBufferPointer($0), onEvent: onEvent) }
        if done == nil {
            Array(bytes).withUnsafeBytes { feed($0, onEvent: onEvent) }
        }
    }

    /// Ends the input (end of file): decodes a last line without a line end, completes the last epoch.
    public mutating func finish(onEvent: (NMEAEvent) -> Void) {
        if !carry.isEmpty {
            var held: [UInt8] = []
            swap(&held, &carry)
            _ = held.withUnsafeBytes { buffer in
                scan(buffer.baseAddress!, count: buffer.count, from: 0, startLimit: buffer.count, final: true, onEvent: onEvent)
            }
            held.removeAll(keepingCapacity: true)
            swap(&held, &carry)
        }
        assembler.finish(statistics: &statistics, onEvent: onEvent)
    }
}
