#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The mappings a database's batches gave back (`ScratchMemory`), kept for its next batch: at most
/// `keptMappings` of them and `keptBytes` in all; whatever would exceed that is unmapped at once, and the
/// rest when the database is released.
///
/// Why: memory mapped anew costs a page fault and the pages' zeroing on first touch, and on a virtual machine
/// the host's work too. On the two-core benchmark machine, the sort of a million points on both cores, whose
/// words were mapped anew for every batch, took 12.6–26.2 ms (median 15.3) in a process's second and third
/// batches, against 11.9–14.5 ms (median 12.2) with the words of the batch before (16 batches each,
/// alternating processes): most of the round-to-round spread of a batch's time on both cores. What it costs:
/// after a batch, the process keeps what the batch mapped (16 bytes a point for the sort, up to `keptBytes`),
/// as an allocator keeps freed blocks for the next request.
final class ScratchPool: Sendable {
    static let keptMappings = 8
    static let keptBytes = 64 << 20

    private struct Mapping {
        /// The address as an integer: a pointer is not `Sendable`, and the pool hands each mapping to one user.
        var address: Int
        var size: Int
        var hugePages: Bool
    }

    private let mappings = Mutex<[Mapping]>([])

    init() {}

    /// Mappings kept now.
    var keptCount: Int { mappings.withLock { $0.count } }

    deinit {
        mappings.withLock { kept in
            for mapping in kept { munmap(UnsafeMutableRawPointer(bitPattern: mapping.address), mapping.size) }
        }
    }

    /// A kept mapping of at least `size` bytes (and at most twice that, so a small batch does not hold a large
    /// batch's mapping) made with the same `hugePages` advice; its size; `nil` when none is kept.
    func take(size: Int, hugePages: Bool) -> (address: UnsafeMutableRawPointer, size: Int)? {
        mappings.withLock { kept in
            guard let index = kept.firstIndex(where: {
                $0.hugePages == hugePages && $0.size >= size && $0.size <= 2 * size
            }) else { return nil }
            let mapping = kept.remove(at: index)
            return (UnsafeMutableRawPointer(bitPattern: mapping.address)!, mapping.size)
        }
    }

    /// Keeps the mapping at `address` (`size` bytes, nothing in it in use) for a later `take`, or unmaps it
    /// when the pool is full.
    func give(_ address: UnsafeMutableRawPointer, size: Int, hugePages: Bool) {
        let kept = mappings.withLock { kept -> Bool in
            let bytes = kept.reduce(0) { $0 + $1.size }
            guard kept.count < Self.keptMappings, bytes + size <= Self.keptBytes else { return false }
            kept.append(Mapping(address: Int(bitPattern: address), size: size, hugePages: hugePages))
            return true
        }
        if !kept { munmap(address, size) }
    }
}
