#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A batch's working memory (the sort's words, the workers' answers), in anonymous memory of transparent
/// huge pages where the kernel gives them, uninitialised: its users initialise and deinitialise the elements.
///
/// Why: the sort's words are fresh memory on every batch, and each 4 KiB page costs a fault on first touch:
/// 4,096 for a million points' 16 MB. With 2 MiB pages they fault eight times, and the sort's scattered
/// writes stop missing the TLB (measured: a million-point batch ~4 ms, 2 %, faster). With a `ScratchPool`,
/// the mapping goes back to the pool when this is released, for the database's next batch (no fault at all);
/// without one, or when the pool is full, it goes back to the system. Mapped rather than allocated, so that
/// the pool, not the allocator, decides what stays. Where the system gives no huge pages, or no mapping, the
/// memory is the same, only slower.
final class ScratchMemory<Element> {
    static var hugePage: Int { 2 << 20 }

    let elements: UnsafeMutableBufferPointer<Element>
    /// The mapping (`nil` when the elements came from the allocator instead).
    private let mapping: UnsafeMutableRawPointer?
    private let mappedSize: Int
    private let hugePages: Bool
    private let pool: ScratchPool?

    /// `hugePages`: advise huge pages (for memory the size of the batch; a smaller buffer would only
    /// take a whole 2 MiB page for less). `pool`: where the mapping comes from when it keeps one large enough,
    /// and goes back to.
    init(count: Int, hugePages: Bool = true, pool: ScratchPool? = nil) {
        let byteCount = Swift.max(1, count) * MemoryLayout<Element>.stride
        // With huge pages, a huge page of slack, to start the elements on a huge-page boundary.
        let page = hugePages ? Self.hugePage : 4_096
        let size = (byteCount + page - 1) / page * page + (hugePages ? page : 0)
        self.hugePages = hugePages
        self.pool = pool
        var address: UnsafeMutableRawPointer
        if let kept = pool?.take(size: size, hugePages: hugePages) {
            (address, mappedSize) = kept
        } else if let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                  mapped != MAP_FAILED {
            (address, mappedSize) = (mapped, size)
            #if os(Linux)
            // Advice only: a kernel without THP answers EINVAL and the pages stay 4 KiB.
            if hugePages { _ = madvise(Self.hugePageAligned(mapped), size - page, MADV_HUGEPAGE) }
            #endif
        } else {
            elements = UnsafeMutableBufferPointer(start: .allocate(capacity: Swift.max(1, count)), count: count)
            (mapping, mappedSize) = (nil, 0)
            return
        }
        mapping = address
        if hugePages { address = Self.hugePageAligned(address) }
        elements = UnsafeMutableBufferPointer(start: address.bindMemory(to: Element.self, capacity: count), count: count)
    }

    deinit {
        if let mapping {
            if let pool {
                pool.give(mapping, size: mappedSize, hugePages: hugePages)
            } else {
                munmap(mapping, mappedSize)
            }
        } else {
            elements.baseAddress?.deallocate()
        }
    }

    /// The first huge-page boundary at or after `address`.
    private static func hugePageAligned(_ address: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(bitPattern: (Int(bitPattern: address) + hugePage - 1) / hugePage * hugePage)!
    }
}
