/// Strict decimal parsing shared by the GPX parser and source specs.
///
/// `Double(_:)` also accepts `nan`, `inf`, hexadecimal floats and surrounding garbage-free but surprising
/// spellings; user input and XML attributes must be plain decimals (`-122.03`, `1e-3`, `.5`), so this
/// checks the syntax first and then converts. Leading and trailing ASCII whitespace is ignored.
/// Returns nil for anything else, including values that overflow to infinity.
func parseDecimal<S: StringProtocol>(_ text: S) -> Double? {
    let bytes = Array(text.utf8)
    var start = 0, end = bytes.count
    while start < end, isASCIIWhitespace(bytes[start]) { start += 1 }
    while end > start, isASCIIWhitespace(bytes[end - 1]) { end -= 1 }
    guard start < end else { return nil }
    var index = start
    if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
    var digits = 0
    while index < end, isDigit(bytes[index]) { index += 1; digits += 1 }
    if index < end, bytes[index] == UInt8(ascii: ".") {
        index += 1
        while index < end, isDigit(bytes[index]) { index += 1; digits += 1 }
    }
    guard digits > 0 else { return nil }
    if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
        index += 1
        if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        var exponentDigits = 0
        while index < end, isDigit(bytes[index]) { index += 1; exponentDigits += 1 }
        guard exponentDigits > 0 else { return nil }
    }
    guard index == end, let value = Double(String(decoding: bytes[start..<end], as: UTF8.self)),
          value.isFinite else { return nil }
    return value
}

private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

private func isASCIIWhitespace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
}

/// An azimuth in degrees brought into [0, 360), the range of `Fix.course`.
func normalizedCourse(_ azimuth: Double) -> Double {
    var value = azimuth.truncatingRemainder(dividingBy: 360)
    if value < 0 { value += 360 }
    return value >= 360 ? 0 : value
}

/// The signed difference `to - from` between two azimuths, in (-180, 180].
func azimuthDifference(from: Double, to: Double) -> Double {
    var delta = (to - from).truncatingRemainder(dividingBy: 360)
    if delta > 180 { delta -= 360 }
    if delta <= -180 { delta += 360 }
    return delta
}
