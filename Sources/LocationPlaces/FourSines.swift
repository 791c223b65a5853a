/// Four sines at once, for angles in degrees, rounded to single precision: the unit vector of every reverse
/// geocoding query needs cos φ, cos λ, sin λ and sin φ, and four calls of libm's `cosf`/`sinf` took ~7 % of
/// a batch near places; one polynomial on a vector of four lanes costs less than half as much.
///
/// Each angle is reduced to r = t − 180° × n (n the nearest whole number of half turns, so |r| ≤ 90°), and
/// sin t = (−1)ⁿ sin r, with sin r the Taylor polynomial to r¹³ (truncation under 10⁻⁹ at |r| = π/2), all in
/// double precision and rounded to `Float` once: within half a unit in the last place (a test sweeps the
/// sphere), finer than `cosf` of the angle first rounded to `Float`, and far under the metre of the stored
/// `Float` vectors.
enum FourSines {
    /// sin t for each lane of `t` (degrees, |t| < 2⁵¹ × 180).
    @inline(__always)
    static func of(degrees t: SIMD4<Double>) -> SIMD4<Float> {
        // 1.5 × 2⁵²: adding it to a double of magnitude under 2⁵¹ rounds it to a whole number (to nearest,
        // ties to even), whose parity is then the sum's last significand bit. A local constant: a `static let`
        // of a vector is initialised lazily, behind a check on every call.
        let rounding = SIMD4<Double>(repeating: 6_755_399_441_055_744)
        let shifted = t * (1.0 / 180) + rounding
        let reduced = t - (shifted - rounding) * 180
        let x = reduced * (Double.pi / 180)
        let x2 = x * x
        var p = SIMD4<Double>(repeating: 1.0 / 6_227_020_800)
        p = p * x2 + SIMD4(repeating: -1.0 / 39_916_800)
        p = p * x2 + SIMD4(repeating: 1.0 / 362_880)
        p = p * x2 + SIMD4(repeating: -1.0 / 5_040)
        p = p * x2 + SIMD4(repeating: 1.0 / 120)
        p = p * x2 + SIMD4(repeating: -1.0 / 6)
        let sine = SIMD4<Float>(x + x * x2 * p)
        // An odd number of half turns flips the sign: the parity bit moved to the float's sign bit. Bit
        // operations, not a select: `replacing(with:where:)` is a loop over the lanes.
        let parity = SIMD4<UInt64>(
            shifted[0].bitPattern, shifted[1].bitPattern, shifted[2].bitPattern, shifted[3].bitPattern) & 1
        let sign = SIMD4<UInt32>(truncatingIfNeeded: parity) &<< 31
        let bits = SIMD4<UInt32>(sine[0].bitPattern, sine[1].bitPattern, sine[2].bitPattern, sine[3].bitPattern)
            ^ sign
        return SIMD4(Float(bitPattern: bits[0]), Float(bitPattern: bits[1]), Float(bitPattern: bits[2]),
                     Float(bitPattern: bits[3]))
    }
}
