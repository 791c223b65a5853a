#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Angle helpers in degrees. Reducing in degrees (exactly, by `remainder`) before
// converting to radians keeps multiples of 90° exact, so e.g. cos(90°) is 0 and
// points on the equator or a meridian stay exactly there.

/// Radians per degree.
@usableFromInline let degree = 0.017453292519943295  // Double.pi / 180

/// The smallest value whose square is still a normal number; stands in for a zero
/// cos(latitude) at the poles so that azimuths there follow from the longitude.
@usableFromInline let tiny = 0x1p-511  // √Double.leastNormalMagnitude

@inline(__always) @usableFromInline
func sq(_ x: Double) -> Double { x * x }

/// `x` reduced to [-180, 180], keeping the sign of `x` for ±180.
@inline(__always) @usableFromInline
func angNormalize(_ x: Double) -> Double {
    let y = remainder(x, 360)
    return abs(y) == 180 ? copysign(180, x) : y
}

/// `x` if it is a valid latitude, NaN otherwise.
@inline(__always) @usableFromInline
func latFix(_ x: Double) -> Double {
    abs(x) > 90 ? .nan : x
}

/// Rounds tiny angles to a multiple of 2⁻⁵⁷ degrees so that, e.g., a latitude of
/// 1e-300 behaves as 0 and the algorithms see clean zeros instead of underflow.
@inline(__always) @usableFromInline
func angRound(_ x: Double) -> Double {
    let z = 1.0 / 16
    var y = abs(x)
    let w = z - y
    // The subtraction from z is exact for y < z, then z - w drops bits below z's ulp.
    y = w > 0 ? z - w : y
    return copysign(y, x)
}

/// Error-free sum: `s + t == u + v` exactly, with `s` the rounded sum.
@inline(__always) @usableFromInline
func twoSum(_ u: Double, _ v: Double) -> (s: Double, t: Double) {
    let s = u + v
    var up = s - v
    var vpp = s - up
    up -= u
    vpp -= v
    let t = s != 0 ? 0 - (up + vpp) : s
    return (s, t)
}

/// `y - x` reduced to [-180, 180], returned as a rounded part plus its rounding
/// error, so that longitude differences near ±180 keep full precision.
@inline(__always) @usableFromInline
func angDiff(_ x: Double, _ y: Double) -> (d: Double, e: Double) {
    let (d0, t) = twoSum(remainder(-x, 360), remainder(y, 360))
    var (d, e) = twoSum(remainder(d0, 360), t)
    if d == 0 || abs(d) == 180 {
        // Pick the sign from the input difference so ±180 and ±0 are consistent.
        d = copysign(d, e == 0 ? y - x : -e)
    }
    return (d, e)
}

/// Sine and cosine of `x` degrees, exact at multiples of 90°.
@inline(__always) @usableFromInline
func sincosd(_ x: Double) -> (sin: Double, cos: Double) {
    let r0 = remainder(x, 360)
    let q = (r0 / 90).rounded()
    let r = (r0 - 90 * q) * degree
    return quadrant(sin: sin(r), cos: cos(r), q: q, sign: x)
}

/// Sine and cosine of `x + t` degrees where `t` is a small correction to `x`
/// (e.g. the rounding error from `angDiff`).
@inline(__always) @usableFromInline
func sincosde(_ x: Double, _ t: Double) -> (sin: Double, cos: Double) {
    let q = (x / 90).rounded()
    let r = angRound((x - 90 * q) + t) * degree
    return quadrant(sin: sin(r), cos: cos(r), q: q, sign: x)
}

/// Rotates (s, c) by `q` quarter turns; turns -0 into +0 except sin of a -0 input.
@inline(__always) @usableFromInline
func quadrant(sin s: Double, cos c: Double, q: Double, sign x: Double) -> (sin: Double, cos: Double) {
    var sinx: Double, cosx: Double
    // NaN q means NaN input: any branch yields NaN, but Int(NaN) would trap.
    switch q.isNaN ? 0 : Int(q) & 3 {
    case 0: sinx = s; cosx = c
    case 1: sinx = c; cosx = -s
    case 2: sinx = -s; cosx = -c
    default: sinx = -c; cosx = s
    }
    cosx = 0 + cosx
    if sinx == 0 { sinx = copysign(sinx, x) }
    return (sinx, cosx)
}

/// atan2 in degrees, exact for results that are multiples of 90°.
@inline(__always) @usableFromInline
func atan2d(_ y: Double, _ x: Double) -> Double {
    var x = x, y = y, q = 0
    if abs(y) > abs(x) { swap(&x, &y); q = 2 }
    if x.sign == .minus { x = -x; q += 1 }
    // Now |y| <= x, so the angle is in [-45°, 45°] and the quadrant adds exactly.
    let ang = atan2(y, x) / degree
    switch q {
    case 1: return copysign(180, y) - ang
    case 2: return 90 - ang
    case 3: return -90 + ang
    default: return ang
    }
}

/// Scales (s, c) to a unit vector. The plain square root is several times faster
/// than `hypot`; `hypot` is kept for tiny vectors, whose squares would underflow.
@inline(__always) @usableFromInline
func normalize(_ s: inout Double, _ c: inout Double) {
    let r = norm(s, c)
    s /= r
    c /= r
}

/// The length of (x, y), without underflow for tiny components.
@inline(__always) @usableFromInline
func norm(_ x: Double, _ y: Double) -> Double {
    let r2 = x * x + y * y
    return r2 > 1e-280 && r2 < 1e280 ? r2.squareRoot() : hypot(x, y)
}
