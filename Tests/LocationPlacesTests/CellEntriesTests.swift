import Testing
@testable import LocationPlaces
import SeededRandom

/// `CellEntries` answers open-sea cells without the water rules, and whole-land cells without GRID: its
/// answers must be the rules' and GRID's own.
@Suite struct CellEntriesTests {
    /// Every constant the water rules compare with is a multiple of 0.1°, so the rules cannot change
    /// answer between the multiples of 0.05° (each multiple of 0.1°, and a point between two): checking
    /// those 10 × 10 points of every cell checks the whole cell, without trusting `WaterBody`'s edge lists.
    @Test func everyPrebuiltSeaCellIsOneAnswerThroughout() throws {
        let database = try packageDatabase()
        var checked = 0, mismatches: [String] = []
        for row in 0..<PlacesTables.gridRows {
            for column in 0..<PlacesTables.gridColumns {
                guard case .sea(let expected) = database.cellEntries.kind(row: row, column: column) else { continue }
                for i in 0..<10 {
                    let latitude = Double(row * 10 + i - 1800) / 20
                    for j in 0..<10 {
                        let longitude = Double(column * 10 + j - 3600) / 20
                        if CellEntries.seaAnswerIndex(latitude: latitude, longitude: longitude) != expected {
                            mismatches.append("(\(latitude), \(longitude))")
                        }
                    }
                }
                checked += 1
            }
        }
        #expect(mismatches.isEmpty, "cells whose prebuilt sea answer is not the rules' at: \(mismatches.prefix(10))")
        // Most of the ocean is prebuilt (the rest takes the general path, still correct).
        #expect(checked > 100_000, "only \(checked) prebuilt sea cells")
    }

    /// The territorial search's reach per row, kept at open, is the generator's formula's (at most half the
    /// columns): the whole row near the poles, one column beside a cell near the equator.
    @Test func columnReachesAreTheFormulas() throws {
        let database = try packageDatabase()
        for row in 0..<PlacesTables.gridRows {
            let expected = min(PlacesTables.columnReach(row: row), PlacesTables.gridColumns / 2)
            #expect(database.cellEntries.columnReach(row: row) == expected, "row \(row)")
        }
        #expect(database.cellEntries.columnReach(row: 0) == PlacesTables.gridColumns / 2)
        #expect(database.cellEntries.columnReach(row: PlacesTables.gridRows / 2) == 1)
    }

    @Test func entriesAgreeWithTheGrid() throws {
        let database = try packageDatabase()
        var land = 0, mixed = 0
        for row in 0..<PlacesTables.gridRows {
            for column in 0..<PlacesTables.gridColumns {
                let grid = database.tables.gridEntry(row: row, column: column)
                let kind = database.cellEntries.kind(row: row, column: column)
                switch (grid >> 30, kind) {
                case (0, .sea), (0, .general):
                    break
                case (1, .land(let country, let noPlaceInReach)):
                    #expect(country == Int(grid & 0xFFFF), "land cell \(row), \(column): \(country) for \(grid & 0xFFFF)")
                    #expect(noPlaceInReach == (grid & PlacesTables.noPlaceInReachBit != 0))
                    land += 1
                case (2, .mixed(let cell)):
                    #expect(cell == Int(grid & 0x3FFF_FFFF), "mixed cell \(row), \(column): \(cell)")
                    mixed += 1
                default:
                    Issue.record("cell \(row), \(column): GRID kind \(grid >> 30) but \(kind)")
                }
            }
        }
        #expect(land > 10_000 && mixed > 10_000)
    }

    /// The generator marks whole-country cells with no place of the country within the locality range of
    /// any of their points; the reader then answers them without searching, so the mark must be true.
    @Test func cellsMarkedWithoutPlacesHaveNoneInReach() throws {
        let database = try packageDatabase()
        var generator = SplitMix64(seed: 11)
        var marked = 0, wrong: [String] = []
        for row in 0..<PlacesTables.gridRows {
            for column in 0..<PlacesTables.gridColumns {
                guard case .land(let country, true) = database.cellEntries.kind(row: row, column: column) else { continue }
                marked += 1
                // The corners, and two random points.
                let south = -90 + Double(row) * PlacesTables.cellDegrees, west = -180 + Double(column) * PlacesTables.cellDegrees
                var points = [(south, west), (south + 0.4999999, west), (south, west + 0.4999999), (south + 0.4999999, west + 0.4999999)]
                for _ in 0..<2 {
                    points.append((south + Double.random(in: 0..<0.5, using: &generator), west + Double.random(in: 0..<0.5, using: &generator)))
                }
                for (latitude, longitude) in points {
                    let target = PlacesTables.unitVector(latitude: latitude, longitude: longitude)
                    let chord = Float(chordLength(metres: PlacesDatabase.localityRange))
                    if let place = database.tables.nearestPlace(inCountry: country, to: target, maxChordSquared: chord * chord, vectors: database.placeVectors) {
                        wrong.append("(\(latitude), \(longitude)) has place \(place) in reach")
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) points of marked cells: \(wrong.prefix(5))")
        // Deserts, ice and tundra: tens of thousands of cells.
        #expect(marked > 20_000, "only \(marked) marked cells")
    }

    /// `seaAnswers` is built in `allCases` order and indexed by `ordinal`.
    @Test func ordinalsAreAllCasesPositions() {
        for (position, water) in WaterBody.allCases.enumerated() {
            #expect(water.ordinal == position, "\(water)")
        }
    }

    /// Edges that fall on a cell's west or south edge split it (a point on the edge answers differently
    /// from its neighbours), and the samples say so.
    @Test func samplesSplitACellAtAnEdgeOnItsBoundary() {
        #expect(CellEntries.samples(from: 30, edges: [30]) == [30, 30.25])
        #expect(CellEntries.samples(from: 30, edges: [29.5, 31]) == [30])
        #expect(CellEntries.samples(from: 41, edges: [41.3]) == [41, 41.15, 41.3, 41.4])
    }
}
