import Testing
@testable import LocationPlaces
import SeededRandom

/// `NameFolding.fold` must produce the generator's keys (scripts/places/build-places-db.py, `fold`).
@Suite struct NameFoldingTests {
    @Test(arguments: [
        ("São Paulo", "sao paulo"), ("Straße", "strasse"), ("Łódź", "lodz"), ("Ærøskøbing", "aeroskobing"),
        ("Œuvre", "oeuvre"), ("Đà Nẵng", "da nang"), ("Þórshöfn", "thorshofn"), ("Diyarbakır", "diyarbakir"),
        ("  New-York!! ", "new york"), ("St. John's", "st john s"), ("İstanbul", "istanbul"),
        ("ＴＯＫＹＯ", "tokyo"), ("Zürich", "zurich"), ("東京", "東京"), ("a--b__c", "a b c"), ("", ""),
        ("   ", ""), ("123 Main", "123 main"),
    ])
    func folds(_ text: String, _ key: String) {
        #expect(NameFolding.fold(text) == key)
    }

    /// Every place's name folds to one of its index keys (the generator indexes the name's fold).
    @Test func placeNamesFoldToTheirIndexKeys() throws {
        let database = try packageDatabase()
        let tables = database.tables
        var keysByPlace: [Int: Set<String>] = [:]
        for entry in 0..<tables.nameCount {
            keysByPlace[tables.namePlace(entry), default: []].insert(tables.string(tables.nameKeyRef(entry)))
        }
        var generator = SplitMix64(seed: 5)
        var mismatches: [String] = []
        for _ in 0..<3_000 {
            let place = Int.random(in: 0..<tables.placeCount, using: &generator)
            let name = tables.string(tables.placeNameRef(place))
            let folded = NameFolding.fold(name)
            // Names with digits are not indexed (docs: "no keys with digits").
            guard !folded.contains(where: \.isNumber), let keys = keysByPlace[place] else { continue }
            if !keys.contains(folded) { mismatches.append("\(name) → \(folded) not in \(keys.sorted())") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) names fold differently: \(mismatches.prefix(10))")
    }
}
