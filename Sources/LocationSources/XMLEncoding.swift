import Foundation

/// Brings a document to validated UTF-8 before `XMLParser` sees it.
///
/// `XMLParser` on Linux traps when libxml2 hands it names that are not UTF-8, which happens whenever
/// libxml2 meets bytes that do not match the encoding it assumed. So the GPX reader never lets libxml2
/// decode anything: UTF-8 is validated, UTF-16 (with a byte-order mark or recognisable from its `<`) and
/// the common single-byte encodings (ISO-8859-1, Windows-1252, US-ASCII) are transcoded here and the
/// declaration rewritten to say UTF-8; any other encoding is refused with a clear message.
enum XMLEncoding {
    struct Problem: Error {
        /// Byte offset of the problem in the original data.
        var offset: Int
        var message: String
    }

    static func utf8Document(_ data: Data) -> Result<Data, Problem> {
        let head = Array(data.prefix(4))
        if head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            return .failure(Problem(offset: 0, message: "UTF-32 text is not supported; save the file as UTF-8"))
        }
        let utf16: String.Encoding?
        var body = data
        if head.starts(with: [0xFE, 0xFF]) {
            (utf16, body) = (.utf16BigEndian, data.dropFirst(2))
        } else if head.starts(with: [0xFF, 0xFE]) {
            (utf16, body) = (.utf16LittleEndian, data.dropFirst(2))
        } else if head.starts(with: [0x00, 0x3C]) {
            utf16 = .utf16BigEndian
        } else if head.starts(with: [0x3C, 0x00]) {
            utf16 = .utf16LittleEndian
        } else {
            utf16 = nil
        }
        if let utf16 {
            guard body.count % 2 == 0, let text = String(data: body, encoding: utf16) else {
                return .failure(Problem(offset: 0, message: "invalid UTF-16 text"))
            }
            return .success(Data(declaringUTF8(text).utf8))
        }

        let declared = declaredEncoding(Array(data.prefix(256)))?.lowercased()
        switch declared {
        case nil, "utf-8", "utf8":
            if let offset = firstInvalidUTF8Offset(in: data) {
                let byte = String(data[data.startIndex + offset], radix: 16, uppercase: true)
                return .failure(Problem(offset: offset, message: "invalid UTF-8 (byte 0x\(byte)); save the file as UTF-8"))
            }
            return .success(data)
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "iso_8859-1", "us-ascii", "ascii":
            // Every byte is a Latin-1 character (and ASCII is a subset of it).
            let text = String(String.UnicodeScalarView(data.map { Unicode.Scalar($0) }))
            return .success(Data(declaringUTF8(text).utf8))
        case "windows-1252", "cp1252":
            guard let text = String(data: data, encoding: .windowsCP1252) else {
                return .failure(Problem(offset: 0, message: "invalid Windows-1252 text"))
            }
            return .success(Data(declaringUTF8(text).utf8))
        case let other?:
            return .failure(Problem(offset: 0, message: "unsupported text encoding '\(other)'; save the file as UTF-8"))
        }
    }

    /// The `encoding` pseudo-attribute of an XML declaration at the start of `head`, if any.
    static func declaredEncoding(_ head: [UInt8]) -> String? {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
        guard let value = encodingValueRange(in: declaration) else { return nil }
        return String(declaration[value])
    }

    /// `text` with a leading byte-order mark dropped and its XML declaration, if any, naming UTF-8.
    static func declaringUTF8(_ text: String) -> String {
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        guard text.hasPrefix("<?xml"), let end = text.range(of: "?>") else { return text }
        var declaration = String(text[..<end.lowerBound])
        if let value = encodingValueRange(in: declaration) { declaration.replaceSubrange(value, with: "UTF-8") }
        return declaration + text[end.lowerBound...]
    }

    /// The range of the value of `encoding="..."` in an XML declaration.
    private static func encodingValueRange(in declaration: String) -> Range<String.Index>? {
        guard let key = declaration.range(of: "encoding") else { return nil }
        var index = key.upperBound
        while index < declaration.endIndex, " \t\r\n=".contains(declaration[index]) { index = declaration.index(after: index) }
        guard index < declaration.endIndex, declaration[index] == "\"" || declaration[index] == "'" else { return nil }
        let quote = declaration[index]
        let start = declaration.index(after: index)
        guard let close = declaration[start...].firstIndex(of: quote) else { return nil }
        return start..<close
    }

    /// Offset of the first byte that breaks UTF-8 (RFC 3629: no overlong forms, no surrogates,
    /// nothing above U+10FFFF), or nil when all of `data` is valid UTF-8.
    static func firstInvalidUTF8Offset(in data: Data) -> Int? {
        let bytes = [UInt8](data)
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let length: Int, lowest: UInt8, highest: UInt8
            switch lead {
            case 0xC2...0xDF: (length, lowest, highest) = (2, 0x80, 0xBF)
            case 0xE0: (length, lowest, highest) = (3, 0xA0, 0xBF)
            case 0xED: (length, lowest, highest) = (3, 0x80, 0x9F)
            case 0xE1...0xEC, 0xEE...0xEF: (length, lowest, highest) = (3, 0x80, 0xBF)
            case 0xF0: (length, lowest, highest) = (4, 0x90, 0xBF)
            case 0xF1...0xF3: (length, lowest, highest) = (4, 0x80, 0xBF)
            case 0xF4: (length, lowest, highest) = (4, 0x80, 0x8F)
            default: return index
            }
            guard index + length <= bytes.count else { return index }
            guard (lowest...highest).contains(bytes[index + 1]) else { return index }
            for next in (index + 2)..<(index + length) where !(0x80...0xBF).contains(bytes[next]) { return index }
            index += length
        }
        return nil
    }
}
