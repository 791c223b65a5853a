/// SipHash-2-4 (Aumasson & Bernstein 2012), a keyed pseudo-random function: without the key, its
/// outputs for chosen inputs tell nothing about its outputs for others. Every seeded choice of the
/// layout (grid offsets, candidate points, margins, region identities) is one of its outputs, so
/// seeing regions of one device reveals nothing about its regions elsewhere nor about another
/// device's.
struct SipHash: Sendable {
    let k0: UInt64
    let k1: UInt64

    /// The key from the 32 seed bytes: both halves folded together, so that every byte counts.
    init(seed: [UInt8]) {
        func word(_ offset: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in 0..<8 where offset + index < seed.count {
                value |= UInt64(seed[offset + index]) << (8 * UInt64(index))
            }
            return value
        }
        k0 = word(0) ^ word(16)
        k1 = word(8) ^ word(24)
    }

    /// The hash of a few 64-bit words (the message is their little-endian bytes).
    func hash(_ words: [UInt64]) -> UInt64 {
        var v0: UInt64 = 0x736f_6d65_7073_6575 ^ k0
        var v1: UInt64 = 0x646f_7261_6e64_6f6d ^ k1
        var v2: UInt64 = 0x6c79_6765_6e65_7261 ^ k0
        var v3: UInt64 = 0x7465_6462_7974_6573 ^ k1
        @inline(__always) func round() {
            v0 &+= v1; v1 = v1.rotated(13); v1 ^= v0; v0 = v0.rotated(32)
            v2 &+= v3; v3 = v3.rotated(16); v3 ^= v2
            v0 &+= v3; v3 = v3.rotated(21); v3 ^= v0
            v2 &+= v1; v1 = v1.rotated(17); v1 ^= v2; v2 = v2.rotated(32)
        }
        for word in words {
            v3 ^= word
            round(); round()
            v0 ^= word
        }
        let last = UInt64(truncatingIfNeeded: words.count * 8) << 56
        v3 ^= last
        round(); round()
        v0 ^= last
        v2 ^= 0xFF
        round(); round(); round(); round()
        return v0 ^ v1 ^ v2 ^ v3
    }

    /// A number uniform in [0, 1) from the hash of `words`.
    func unit(_ words: [UInt64]) -> Double {
        Double(hash(words) >> 11) * 0x1p-53
    }
}

extension UInt64 {
    @inline(__always) fileprivate func rotated(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}
