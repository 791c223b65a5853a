#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The starting azimuth for Newton's method (Karney 2013, sections 4–5). Newton
// converges from a spherical guess except near antipodes, where λ(α₁) is nearly
// flat; there the geodesics are modelled as a flattened "astroid" problem in
// scaled coordinates (x, y) around the antipode, whose root gives α₁.

extension Geodesic {
    /// A starting azimuth α₁, or (for short lines, `sig12 >= 0`) the complete
    /// answer already.
    @usableFromInline
    struct InverseStart {
        /// Arc length if the short-line solution is final, otherwise −1.
        @usableFromInline var sig12 = -1.0
        @usableFromInline var salp1 = 0.0, calp1 = 0.0
        @usableFromInline var salp2 = 0.0, calp2 = 0.0
        /// Mean dn = √(1 + e'² sin²β), the scale of the local sphere for short lines.
        @usableFromInline var dnm = 0.0
        @usableFromInline init() {}
    }

    @inline(__always) @usableFromInline
    func inverseStart(_ sbet1: Double, _ cbet1: Double, _ dn1: Double,
                      _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
                      _ lam12: Double, _ slam12: Double, _ clam12: Double) -> InverseStart {
        var r = InverseStart()
        // β₂ − β₁ and β₂ + β₁, for the spherical formulas.
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        if shortline {
            // Use a sphere of radius b·dnm fitted at the mean latitude, with the
            // longitude scaled to match.
            var sbetm2 = sq(sbet1 + sbet2)
            sbetm2 /= sbetm2 + sq(cbet1 + cbet2)
            r.dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * r.dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }

        // Great-circle azimuth at point 1, in the form free of cancellation.
        r.salp1 = cbet2 * somg12
        r.calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * sq(somg12) / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * sq(somg12) / (1 - comg12)
        let ssig12 = norm(r.salp1, r.calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortline && ssig12 < etol2 {
            r.salp2 = cbet1 * somg12
            r.calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? sq(somg12) / (1 + comg12) : 1 - comg12)
            normalize(&r.salp2, &r.calp2)
            r.sig12 = atan2(ssig12, csig12)
        } else if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * sq(cbet1) {
            // Not near the antipode: the spherical azimuth is a good enough start.
        } else {
            antipodalStart(&r, sbet1, cbet1, dn1, sbet2, cbet2, dn2, slam12, clam12, sbet12a)
        }
        if !(r.salp1 <= 0) {
            normalize(&r.salp1, &r.calp1)
        } else {
            // The guess points the wrong way round the ellipsoid: head due east instead.
            r.salp1 = 1
            r.calp1 = 0
        }
        return r
    }

    /// Near-antipodal start (Karney 2013, section 5): in coordinates scaled so the
    /// antipode is the origin and the singular point is (−1, 0), the azimuth
    /// solves the astroid equation.
    @inline(__always) @usableFromInline
    func antipodalStart(_ r: inout InverseStart,
                        _ sbet1: Double, _ cbet1: Double, _ dn1: Double,
                        _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
                        _ slam12: Double, _ clam12: Double, _ sbet12a: Double) {
        let f = flattening
        let lam12x = atan2(-slam12, -clam12)  // λ₁₂ − π
        let x: Double, y: Double, lamscale: Double, betscale: Double
        if f >= 0 {
            // x is the scaled longitude, y the scaled latitude, offsets from the antipode.
            let k2 = sq(sbet1) * ep2
            let eps = epsilon(k2: k2)
            lamscale = f * cbet1 * longitude.a3(eps) * .pi
            betscale = lamscale * cbet1
            x = lam12x / lamscale
            y = sbet12a / betscale
        } else {
            // Prolate: the roles of latitude and longitude swap.
            let cbet12a = cbet2 * cbet1 - sbet2 * sbet1
            let bet12a = atan2(sbet12a, cbet12a)
            let (m12b, m0) = reducedLength(eps: n, sig12: .pi + bet12a,
                                           sbet1, -cbet1, dn1, sbet2, cbet2, dn2)
            x = -1 + m12b / (cbet1 * cbet2 * m0 * .pi)
            betscale = x < -0.01 ? sbet12a / x : -f * sq(cbet1) * .pi
            lamscale = betscale / cbet1
            y = lam12x / lamscale
        }

        if y > -Tolerance.tol1 && x > -1 - Tolerance.xthresh {
            // On (or next to) the line segment of conjugate points: the limiting
            // solution, taken directly since the astroid root is ill-conditioned there.
            if f >= 0 {
                r.salp1 = min(1, -x)
                r.calp1 = -(1 - sq(r.salp1)).squareRoot()
            } else {
                r.calp1 = max(x > -Tolerance.tol1 ? 0 : -1, x)
                r.salp1 = (1 - sq(r.calp1)).squareRoot()
            }
        } else {
            let k = astroid(x, y)
            let omg12a = lamscale * (f >= 0 ? -x * k / (1 + k) : -y * (1 + k) / k)
            let somg12 = sin(omg12a), comg12 = -cos(omg12a)
            // Azimuth from the spherical formula at the adjusted longitude.
            r.salp1 = cbet2 * somg12
            r.calp1 = sbet12a - cbet2 * sbet1 * sq(somg12) / (1 - comg12)
        }
    }
}

/// The positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0
/// (Karney 2013, eq. 55), by the closed-form quartic solution arranged to avoid
/// cancellation. Returns 0 when y = 0 and x² ≤ 1, the root's limit there.
@usableFromInline
func astroid(_ x: Double, _ y: Double) -> Double {
    let p = sq(x), q = sq(y)
    let r = (p + q - 1) / 6
    guard !(q == 0 && r <= 0) else { return 0 }
    let s = p * q / 4  // S = p q / 4
    let r2 = sq(r), r3 = r * r2
    // The discriminant of the resolvent cubic in u = r + T + r²/T.
    let disc = s * (s + 2 * r3)
    var u = r
    if disc >= 0 {
        var t3 = s + r3
        // Add the root with t3's sign to avoid cancellation.
        t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
        let t = cbrt(t3)
        u += t + (t != 0 ? r2 / t : 0)
    } else {
        // Three real roots: take the one from the trigonometric form.
        let ang = atan2((-disc).squareRoot(), -(s + r3))
        u += 2 * r * cos(ang / 3)
    }
    let v = (sq(u) + q).squareRoot()
    // u + v, avoiding cancellation for negative u.
    let uv = u < 0 ? q / (v - u) : u + v
    let w = (uv - q) / (2 * v)
    return uv / ((uv + sq(w)).squareRoot() + w)
}
