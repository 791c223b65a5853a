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
/// writes stop missing the TLB (measured: a million-point batch ~4 ms, 2 %, faster). And a mapping goes back
/// to the system when the batch ends, where the allocator keeps a freed buffer of a megabyte or two in its
/// heap after the first (glibc raises its mapping threshold to the size of each mapped block freed), so
/// every later batch in the process would start that much higher. Where the system gives no huge pages,
/// or no mapping, the memory is the same, only slower.
final class ScratchMemory<Element> {
    static var hugePage: Int { 2 << 20 }

    let elements: UnsafeMutableBufferPointer<Element>
    /// The mapping (`nil` when the elements came from the allocator instead).
    private let mapping: UnsafeMutableRawPointer?
    private let mappedSize: Int

    /// `hugePages`: advise huge pages (for memory the size of the batch; a smaller buffer would only
    /// take a whole 2 MiB page for less).
    init(count: Int, hugePages: Bool = true) {
        let byteCount = Swift.max(1, count) * MemoryLayout<Element>.stride
        // With huge pages, a huge page of slack, to start the elements on a huge-page boundary.
        let page = hugePages ? Self.hugePage : 4_096
        let size = (byteCount + page - 1) / page * page + (hugePages ? page : 0)
        guard let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              address != MAP_FAILED else {
            elements = UnsafeMutableBufferPointer(start: .allocate(capacity: Swift.max(1, count)), count: count)
            (mapping, mappedSize) = (nil, 0)
            return
        }
        (mapping, mappedSize) = (address, size)
        var base = address
        if hugePages {
            let aligned = (Int(bitPattern: address) + page - 1) / page * page
            base = UnsafeMutableRawPointer(bitPattern: aligned)!
            #if os(Linux)
            // Advice only: a kernel without THP answers EINVAL and the pages stay 4 KiB.
            _ = madvise(base, size - page, MADV_HUGEPAGE)
            #endif
        }
        elements = UnsafeMutableBufferPointer(start: base.bindMemory(to: Element.self, capacity: count), count: count)
    }

    deinit {
        if let mapping {
            munmap(mapping, mappedSize)
        } else {
            elements.baseAddress?.deallocate()
        }
    }
}
