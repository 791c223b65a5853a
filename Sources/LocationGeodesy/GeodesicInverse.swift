#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The inverse problem (Karney 2013, sections 3–4): find the shortest geodesic
// between two points. The geodesic is mapped to a great circle on the auxiliary
// sphere (reduced latitude β, arc length σ, spherical longitude ω); the azimuth
// α₁ at the first point is found by Newton's method on the longitude error
// λ(α₁) − λ₁₂, started from a spherical or (near antipodes) astroid estimate.

extension Geodesic {
    /// Sine and cosine of both azimuths plus the distance; azimuths are left
    /// as vectors so callers wanting only the distance skip the arctangents.
    @usableFromInline
    struct InverseSolution {
        @usableFromInline var s12: Double
        @usableFromInline var salp1, calp1, salp2, calp2: Double
    }

    @usableFromInline
    func solveInverse(_ latitude1: Double, _ longitude1: Double,
                      _ latitude2: Double, _ longitude2: Double) -> InverseSolution {
        // Canonical configuration, by symmetry: 0 ≤ λ₁₂ ≤ 180, lat1 ≤ 0 and
        // |lat1| ≥ |lat2|. The signs and the swap are undone on the azimuths.
        var (lon12, lon12s) = angDiff(longitude1, longitude2)
        var lonsign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonsign
        lon12s *= lonsign
        let lam12 = lon12 * degree
        let (slam12, clam12) = sincosde(lon12, lon12s)
        // 180° − λ₁₂, exactly: decides whether an equatorial pair is joined along
        // the equator or over a pole-ward path.
        lon12s = (180 - lon12) - lon12s

        var lat1 = angRound(latFix(latitude1)), lat2 = angRound(latFix(latitude2))
        let swapp: Double = abs(lat1) < abs(lat2) || lat2.isNaN ? -1 : 1
        if swapp < 0 {
            lonsign = -lonsign
            swap(&lat1, &lat2)
        }
        let latsign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latsign
        lat2 *= latsign

        // Reduced latitudes; a pole gets cos β = tiny so its azimuths follow the
        // longitude given for it.
        var (sbet1, cbet1) = sincosd(lat1)
        sbet1 *= f1
        normalize(&sbet1, &cbet1)
        cbet1 = max(tiny, cbet1)
        var (sbet2, cbet2) = sincosd(lat2)
        sbet2 *= f1
        normalize(&sbet2, &cbet2)
        cbet2 = max(tiny, cbet2)
        // Make |β₁| = |β₂| hold exactly when the latitudes match, as the
        // tests β₂ = ±β₁ below decide which formulas are accurate.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = copysign(sbet1, sbet2) }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        let dn1 = (1 + ep2 * sq(sbet1)).squareRoot()
        let dn2 = (1 + ep2 * sq(sbet2)).squareRoot()

        var s12x = 0.0
        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0

        // A meridian (or a path from a pole) is a geodesic; it is the shortest
        // one unless it passes a conjugate point (m₁₂ < 0, prolate case only).
        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            calp1 = clam12; salp1 = slam12
            calp2 = 1; salp2 = 0
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
            // Along a meridian α₀ = 0, so k² = e'² and ε = n.
            let (s12b, m12b, _) = lengths(eps: n, sig12: sig12, ssig1, csig1, dn1, ssig2, csig2, dn2)
            if sig12 < 1 || m12b >= 0 {
                // Coincident points: clean up round-off that would give a tiny negative length.
                if sig12 < 3 * tiny || (sig12 < Tolerance.tol0 && (s12b < 0 || m12b < 0)) {
                    s12x = 0
                } else {
                    s12x = s12b * b
                }
            } else {
                meridian = false
            }
        }

        if !meridian && sbet1 == 0 && (flattening <= 0 || lon12s >= flattening * 180) {
            // Both on the equator and not so close to antipodal that the path
            // over a pole is shorter: the equator itself.
            calp1 = 0; calp2 = 0; salp1 = 1; salp2 = 1
            s12x = equatorialRadius * lam12
        } else if !meridian {
            let start = inverseStart(sbet1, cbet1, dn1, sbet2, cbet2, dn2, lam12, slam12, clam12)
            salp1 = start.salp1
            calp1 = start.calp1
            if start.sig12 >= 0 {
                // Short line: the spherical solution on a sphere of radius b·dnm
                // is already exact to round-off.
                salp2 = start.salp2
                calp2 = start.calp2
                s12x = start.sig12 * b * start.dnm
            } else {
                s12x = newton(&salp1, &calp1, &salp2, &calp2,
                              sbet1, cbet1, dn1, sbet2, cbet2, dn2, slam12, clam12)
            }
        }

        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapp * lonsign; calp1 *= swapp * latsign
        salp2 *= swapp * lonsign; calp2 *= swapp * latsign
        return InverseSolution(s12: 0 + s12x, salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2)
    }

    /// Solves λ(α₁) = λ₁₂ for α₁ by Newton's method, safeguarded by a bracket
    /// [α₁ₐ, α₁ᵦ] so that bisection takes over if a step leaves it or stalls.
    /// Returns the distance; updates the azimuths in place.
    @inline(__always) @usableFromInline
    func newton(_ salp1: inout Double, _ calp1: inout Double,
                _ salp2: inout Double, _ calp2: inout Double,
                _ sbet1: Double, _ cbet1: Double, _ dn1: Double,
                _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
                _ slam12: Double, _ clam12: Double) -> Double {
        var salp1a = tiny, calp1a = 1.0, salp1b = tiny, calp1b = -1.0
        var tripn = false, tripb = false
        var last = Lambda12()
        for numit in 0... {
            // Beyond maxit1 the derivative is not needed: only bisection remains.
            last = lambda12(sbet1, cbet1, dn1, sbet2, cbet2, dn2, salp1, calp1, slam12, clam12,
                            derivative: numit < Tolerance.maxit1)
            let v = last.v
            // After a tiny Newton step (tripn) accept a slightly larger residual.
            if tripb || !(abs(v) >= (tripn ? 8 : 1) * Tolerance.tol0) || numit == Tolerance.maxit2 { break }
            // Shrink the bracket: λ increases with α₁, so v's sign says which side we are on.
            if v > 0 && (numit > Tolerance.maxit1 || calp1 / salp1 > calp1b / salp1b) {
                salp1b = salp1; calp1b = calp1
            } else if v < 0 && (numit > Tolerance.maxit1 || calp1 / salp1 < calp1a / salp1a) {
                salp1a = salp1; calp1a = calp1
            }
            if numit < Tolerance.maxit1 && last.dv > 0 {
                let dalp1 = -v / last.dv
                if abs(dalp1) < .pi {
                    let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                    let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                    if nsalp1 > 0 {
                        calp1 = calp1 * cdalp1 - salp1 * sdalp1
                        salp1 = nsalp1
                        normalize(&salp1, &calp1)
                        tripn = abs(v) <= 16 * Tolerance.tol0
                        continue
                    }
                }
            }
            // Newton failed to give a usable step (rare): bisect the bracket.
            salp1 = (salp1a + salp1b) / 2
            calp1 = (calp1a + calp1b) / 2
            normalize(&salp1, &calp1)
            tripn = false
            tripb = abs(salp1a - salp1) + (calp1a - calp1) < Tolerance.tolb
                || abs(salp1 - salp1b) + (calp1 - calp1b) < Tolerance.tolb
        }
        salp2 = last.salp2
        calp2 = last.calp2
        let a1 = GeodesicSeries.a1m1(last.eps)
        let c1 = GeodesicSeries.c1(last.eps)
        let b1 = c1(sin: last.ssig2, cos: last.csig2) - c1(sin: last.ssig1, cos: last.csig1)
        return (1 + a1) * (last.sig12 + b1) * b
    }

    /// The state of the geodesic leaving point 1 with azimuth α₁, evaluated at
    /// the latitude of point 2.
    @usableFromInline
    struct Lambda12 {
        /// λ(α₁) − λ₁₂: the longitude miss, radians.
        @usableFromInline var v = 0.0
        /// dv/dα₁, from the reduced length.
        @usableFromInline var dv = 0.0
        @usableFromInline var salp2 = 0.0, calp2 = 0.0, sig12 = 0.0
        @usableFromInline var ssig1 = 0.0, csig1 = 0.0, ssig2 = 0.0, csig2 = 0.0
        @usableFromInline var eps = 0.0
        @usableFromInline init() {}
    }

    @inline(__always) @usableFromInline
    func lambda12(_ sbet1: Double, _ cbet1: Double, _ dn1: Double,
                  _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
                  _ salp1: Double, _ calp1In: Double,
                  _ slam120: Double, _ clam120: Double, derivative: Bool) -> Lambda12 {
        var r = Lambda12()
        // A start exactly along the equator heading north/south is degenerate;
        // nudge it so the geodesic has a definite vertex.
        let calp1 = sbet1 == 0 && calp1In == 0 ? -tiny : calp1In
        // Clairaut: sin α₀ = sin α cos β is constant along the geodesic.
        let salp0 = salp1 * cbet1
        let calp0 = norm(calp1, salp1 * sbet1)
        // σ and ω measured from the equator crossing (the node).
        r.ssig1 = sbet1
        let somg1 = salp0 * sbet1
        r.csig1 = calp1 * cbet1
        let comg1 = r.csig1
        normalize(&r.ssig1, &r.csig1)

        // α₂ from Clairaut; cos α₂ from the form accurate for the β's at hand.
        r.salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        r.calp2 = cbet2 != cbet1 || abs(sbet2) != -sbet1
            ? (sq(calp1 * cbet1) + (cbet1 < -sbet1
                                   ? (cbet2 - cbet1) * (cbet1 + cbet2)
                                   : (sbet1 - sbet2) * (sbet1 + sbet2))).squareRoot() / cbet2
            : abs(calp1)
        r.ssig2 = sbet2
        let somg2 = salp0 * sbet2
        r.csig2 = r.calp2 * cbet2
        let comg2 = r.csig2
        normalize(&r.ssig2, &r.csig2)

        r.sig12 = atan2(max(0, r.csig1 * r.ssig2 - r.ssig1 * r.csig2),
                        r.csig1 * r.csig2 + r.ssig1 * r.ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2)
        let comg12 = comg1 * comg2 + somg1 * somg2
        // ω₁₂ − λ₁₂ as one angle, avoiding the cancellation of two atan2's.
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)
        let k2 = sq(calp0) * ep2
        r.eps = epsilon(k2: k2)
        let c3 = longitude.c3(r.eps)
        let b312 = c3(sin: r.ssig2, cos: r.csig2) - c3(sin: r.ssig1, cos: r.csig1)
        let domg12 = -flattening * longitude.a3(r.eps) * salp0 * (r.sig12 + b312)
        r.v = eta + domg12

        if derivative {
            if r.calp2 == 0 {
                // Point 2 at a vertex: the limit of m₁₂/(cos α₂ cos β₂).
                r.dv = -2 * f1 * dn1 / sbet1
            } else {
                let m12b = reducedLength(eps: r.eps, sig12: r.sig12,
                                         r.ssig1, r.csig1, dn1, r.ssig2, r.csig2, dn2).m12b
                r.dv = m12b * f1 / (r.calp2 * cbet2)
            }
        }
        return r
    }

    /// Reduced length m₁₂/b and m₀ (eqs. 38–41), from J₁₂ = I₁ − I₂ summed
    /// as a single combined series.
    @inline(__always) @usableFromInline
    func reducedLength(eps: Double, sig12: Double,
                       _ ssig1: Double, _ csig1: Double, _ dn1: Double,
                       _ ssig2: Double, _ csig2: Double, _ dn2: Double) -> (m12b: Double, m0: Double) {
        let a1 = GeodesicSeries.a1m1(eps), a2 = GeodesicSeries.a2m1(eps)
        let m0 = a1 - a2
        let series = SineSeries.combine(1 + a1, GeodesicSeries.c1(eps), -(1 + a2), GeodesicSeries.c2(eps))
        let j12 = m0 * sig12 + (series(sin: ssig2, cos: csig2) - series(sin: ssig1, cos: csig1))
        return (dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12, m0)
    }

    /// Distance s₁₂/b, reduced length m₁₂/b and m₀ along one geodesic.
    @inline(__always) @usableFromInline
    func lengths(eps: Double, sig12: Double,
                 _ ssig1: Double, _ csig1: Double, _ dn1: Double,
                 _ ssig2: Double, _ csig2: Double, _ dn2: Double) -> (s12b: Double, m12b: Double, m0: Double) {
        let a1 = GeodesicSeries.a1m1(eps)
        let c1 = GeodesicSeries.c1(eps)
        let s12b = (1 + a1) * (sig12 + (c1(sin: ssig2, cos: csig2) - c1(sin: ssig1, cos: csig1)))
        let (m12b, m0) = reducedLength(eps: eps, sig12: sig12, ssig1, csig1, dn1, ssig2, csig2, dn2)
        return (s12b, m12b, m0)
    }
}
