import Foundation
import Testing
@testable import LocationPlaces
import TestSupport

/// Where `PlacesDatabase.shared` finds the database, and which outcome it keeps.
@Suite struct PlacesDatabaseDiscoveryTests {
    @Test func thePackagesCopyIsFoundBesideTheExecutable() throws {
        let candidates = PlacesDatabaseDiscovery.candidatePaths()
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let directory = (executable as NSString).deletingLastPathComponent
        #expect(candidates == ["\(directory)/swift-corelocation_LocationPlaces.resources/places.bin",
                               "/usr/local/share/corelocation/places.bin", "/usr/share/corelocation/places.bin"])
        let database = try packageDatabase()
        if ProcessInfo.processInfo.environment["CORELOCATION_PLACES_DB"] == nil {
            #expect(database.path == candidates[0])
        }
        // The outcome is kept: the same instance every time.
        #expect(try PlacesDatabase.shared.get() === database)
    }

    @Test func theFirstExistingCandidateIsOpened() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let absent = directory.url.appendingPathComponent("absent.bin").path
        let valid = try directory.write(PlacesFileBuilder.minimal().bytes(), named: "valid.bin")
        let other = try directory.write(PlacesFileBuilder.minimal().bytes(), named: "other.bin")
        let opened = try PlacesDatabaseDiscovery.openFirst(explicitPath: nil, candidates: [absent, valid, other]).get()
        #expect(opened.path == valid)
    }

    @Test func aCorruptCandidateIsReportedNotSkipped() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let corrupt = try directory.write(Array("not a database".utf8), named: "corrupt.bin")
        let valid = try directory.write(PlacesFileBuilder.minimal().bytes(), named: "valid.bin")
        let outcome = PlacesDatabaseDiscovery.openFirst(explicitPath: nil, candidates: [corrupt, valid])
        guard case .failure(.corrupt(let path, _)) = outcome else {
            Issue.record("expected the corrupt file's error, got \(outcome)")
            return
        }
        #expect(path == corrupt)
    }

    @Test func nothingFoundListsEverySearchedPath() {
        let candidates = ["/nonexistent/a/places.bin", "/nonexistent/b/places.bin"]
        let outcome = PlacesDatabaseDiscovery.openFirst(explicitPath: nil, candidates: candidates)
        guard case .failure(.missing(let searched)) = outcome else {
            Issue.record("expected .missing, got \(outcome)")
            return
        }
        #expect(searched == candidates)
    }

    /// `$CORELOCATION_PLACES_DB` is used alone: a path naming no file is an error, not a fallback.
    @Test func theEnvironmentPathIsUsedAlone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let valid = try directory.write(PlacesFileBuilder.minimal().bytes(), named: "valid.bin")
        let absent = directory.url.appendingPathComponent("absent.bin").path
        let outcome = PlacesDatabaseDiscovery.openFirst(explicitPath: absent, candidates: [valid])
        guard case .failure(.missing(let searched)) = outcome else {
            Issue.record("expected .missing, got \(outcome)")
            return
        }
        #expect(searched == [absent])
        let chosen = try PlacesDatabaseDiscovery.openFirst(explicitPath: valid, candidates: []).get()
        #expect(chosen.path == valid)
    }
}
