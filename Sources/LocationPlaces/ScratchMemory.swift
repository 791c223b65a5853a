#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Words for a batch's sort, in anonymous memory of transparent huge pages where the kernel gives them.
///
/// Why: the sort's words are fresh memory on every batch, and each 4 KiB page costs a fault on first touch:
/// 4,096 for a million points' 16 MB. With 2 MiB pages they fault eight times, and the sort's scattered
/// writes stop missing the TLB (measured: a million-point batch ~4 ms, 2 %, faster). Where the system gives
/// no huge pages, or no mapping, the memory is the same, only slower.
final class ScratchMemory {
    static let hugePage = 2 << 20

    let words: UnsafeMutableBufferPointer<UInt64>
    /// The mapping (`nil` when the words came from the allocator instead).
    private let mapping: UnsafeMutableRawPointer?
    private let mappedSize: Int

    init(wordCount: Int) {
        let byteCount = Swift.max(1, wordCount) * MemoryLayout<UInt64>.stride
        // A huge page of slack, to start the words on a huge-page boundary.
        let size = (byteCount + Self.hugePage - 1) / Self.hugePage * Self.hugePage + Self.hugePage
        guard let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              address != MAP_FAILED else {
            words = UnsafeMutableBufferPointer(start: .allocate(capacity: Swift.max(1, wordCount)), count: wordCount)
            (mapping, mappedSize) = (nil, 0)
            return
        }
        (mapping, mappedSize) = (address, size)
        let aligned = (Int(bitPattern: address) + Self.hugePage - 1) / Self.hugePage * Self.hugePage
        let base = UnsafeMutableRawPointer(bitPattern: aligned)!
        #if os(Linux)
        // Advice only: a kernel without THP answers EINVAL and the pages stay 4 KiB.
        _ = madvise(base, size - Self.hugePage, MADV_HUGEPAGE)
        #endif
        words = UnsafeMutableBufferPointer(start: base.bindMemory(to: UInt64.self, capacity: wordCount), count: wordCount)
    }

    deinit {
        if let mapping {
            munmap(mapping, mappedSize)
        } else {
            words.baseAddress?.deallocate()
        }
    }
}
