import Foundation
import LocationPersistence

/// The device's secret that lays out its approximate regions: 32 bytes.
///
/// Derived from the state directory's sealing key (HKDF-SHA256, info "corelocation approximate
/// regions") rather than kept in a file of its own: the sealing key is already the one per-device
/// secret, created 0600 in a 0700 directory and checked on every load (size, mode, no links), so
/// the seed needs no second file with its own checks and failure modes; whoever resets the state
/// directory gets a new layout with a new key; and HKDF's domain separation means the seed tells
/// nothing about the key that seals the stored locations.
public struct ApproximateRegionsSeed: Sendable, Equatable {
    public static let byteCount = 32
    public static let derivationPurpose = "corelocation approximate regions"

    let bytes: [UInt8]

    /// A seed of exactly 32 bytes; `nil` for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The seed of the device whose sealing key is `key`.
    public init(sealingKey key: SealingKey) {
        bytes = key.derivedSecret(purpose: Self.derivationPurpose, byteCount: Self.byteCount)
    }

    /// The seed from the sealing key of `stateDirectory` (its `key` file, created on first use, as the
    /// stores that seal with it do).
    /// - Throws: ``PersistenceError`` when the key cannot be loaded or created.
    public static func load(stateDirectory: URL) throws -> ApproximateRegionsSeed {
        let key = try SealingKey.loadOrCreate(at: stateDirectory.appendingPathComponent(LastLocationStore.keyFileName))
        return ApproximateRegionsSeed(sealingKey: key)
    }
}
