/// Counts kept by the decoder.
///
/// Every candidate line (from a `$` or `!` to its line end) lands in exactly one of `sentences`,
/// `unsupported`, `badChecksum`, `missingChecksum`, `malformed` and `overlong`.
public struct NMEAStatistics: Sendable, Equatable {
    /// Sentences of a supported type that were valid and used.
    public var sentences = 0
    /// Events emitted (`.fix` and `.noFix`).
    public var epochs = 0
    /// Lines whose `*hh` did not match the XOR of their contents.
    public var badChecksum = 0
    /// Lines without `*hh`, rejected because `allowMissingChecksum` is off.
    public var missingChecksum = 0
    /// Lines that passed the checksum but were not valid: a malformed address or field, an
    /// out-of-range value (latitude > 90°, minutes ≥ 60, hour ≥ 24, …), too few fields, a
    /// control character, or a line cut short by the next `$`.
    public var malformed = 0
    /// Lines with no line end within `NMEADecoder.maximumLineLength` bytes of their start.
    public var overlong = 0
    /// Valid lines of a type the decoder does not read (proprietary `$P…`, `!AIVDM`, `TXT`, …).
    public var unsupported = 0
    /// Bytes skipped while looking for the next `$` or `!` (binary data, noise), not counting
    /// line ends.
    public var skippedBytes = 0
    /// Sentences that arrived after their epoch had already been emitted (the learned end of
    /// the receiver's cycle was wrong); discarded, and the cycle is learned again.
    public var lateSentences = 0
    public init() {}
}
