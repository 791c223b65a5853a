/// GSV, satellites in view: `sentence count, sentence number, satellites in view, {ID, elevation,
/// azimuth, SNR} × 1…4[, signal ID]`. Only the header is read: per-satellite data is not part of a fix.
struct GSV {
    var sentenceCount: Int
    var sentenceNumber: Int
    var satellitesInView: Int?

    /// True for the last sentence of its group.
    var isLast: Bool { sentenceNumber == sentenceCount }

    @inline(__always) init(_ c: inout FieldCursor) throws(Malformed) {
        guard let count = try c.next().optionalCount(maxDigits: 1),
              let number = try c.next().optionalCount(maxDigits: 1),
              count >= 1, number >= 1, number <= count
        else { throw Malformed() }
        sentenceCount = count
        sentenceNumber = number
        satellitesInView = try c.next().optionalCount(maxDigits: 3)
    }
}
