// Strict decoding for the persisted formats (fence files, approximate-location files): an object
// with a key its type does not know is refused, never read in part.

/// Any key of a JSON object, to see the ones a type does not know.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// The keyed container, after checking that the object has no key besides `Keys`' (a field this
    /// version does not know means a file it does not understand, not one to read in part).
    func strictContainer<Keys: CodingKey & CaseIterable>(
        keyedBy _: Keys.Type
    ) throws -> KeyedDecodingContainer<Keys> {
        let all = try container(keyedBy: AnyCodingKey.self)
        let known = Set(Keys.allCases.map(\.stringValue))
        if let unknown = all.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath + [unknown], debugDescription: "unknown field \"\(unknown.stringValue)\""))
        }
        return try container(keyedBy: Keys.self)
    }
}
