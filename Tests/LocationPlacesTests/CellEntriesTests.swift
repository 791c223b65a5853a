import Testing
@testable import LocationPlaces

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
                case (1, .land(let country)):
                    #expect(country == Int(grid & 0xFFFF), "land cell \(row), \(column): \(country) for \(grid & 0xFFFF)")
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

    /// Edges that fall on a cell's west or south edge split it (a point on the edge answers differently
    /// from its neighbours), and the samples say so.
    @Test func samplesSplitACellAtAnEdgeOnItsBoundary() {
        #expect(CellEntries.samples(from: 30, edges: [30]) == [30, 30.25])
        #expect(CellEntries.samples(from: 30, edges: [29.5, 31]) == [30])
        #expect(CellEntries.samples(from: 41, edges: [41.3]) == [41, 41.15, 41.3, 41.4])
    }
}
