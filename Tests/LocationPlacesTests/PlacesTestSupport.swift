import Foundation
import Testing
@testable import LocationPlaces
import SeededRandom
import TestSupport

/// The package's database (`Resources/places.bin`, found the way `PlacesDatabase.shared` finds it). A
/// missing or broken database fails the test that asks for it, loudly, with the reason.
func packageDatabase() throws -> PlacesDatabase {
    switch PlacesDatabase.shared {
    case .success(let database):
        return database
    case .failure(let error):
        Issue.record("the package's places database is unavailable: \(error)")
        throw error
    }
}

/// A point uniform on the sphere.
func randomPoint(_ generator: inout SplitMix64) -> (latitude: Double, longitude: Double) {
    let z = Double.random(in: -1...1, using: &generator)
    return (asin(z) * 180 / .pi, Double.random(in: -180..<180, using: &generator))
}

extension TemporaryDirectory {
    /// Writes `bytes` to a file called `name` in this directory; returns its path.
    func write(_ bytes: [UInt8], named name: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// What opening `bytes`, written to a temporary file, throws; nil when the file opens.
func errorOpening(_ bytes: [UInt8]) throws -> PlacesDatabaseError? {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(bytes, named: "places.bin")
    do {
        _ = try PlacesDatabase.open(path: path)
        return nil
    } catch {
        return error
    }
}

extension PlacesFileBuilder {
    /// The built file opened from a temporary directory, which the caller removes.
    func opened() throws -> (PlacesDatabase, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let path = try directory.write(bytes(), named: "places.bin")
        return (try PlacesDatabase.open(path: path), directory)
    }

    /// Why opening the built file fails (`.corrupt`'s reason), or nil when it opens.
    func openingError() throws -> String? {
        guard let error = try errorOpening(bytes()) else { return nil }
        guard case .corrupt(_, let reason) = error else { return "not .corrupt: \(error)" }
        return reason
    }
}
