#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The direct problem (Karney 2013, section 2): from a point, an azimuth and a
// distance, find the end point. Distance is converted to arc length σ on the
// auxiliary sphere by inverting I1 with the reverted series C1', then spherical
// trigonometry gives the end point, and I3 corrects the longitude.

extension Geodesic {
    @usableFromInline
    func solveDirect(_ latitude: Double, _ longitude1: Double,
                     _ azimuth: Double, _ distance: Double) -> DirectResult {
        let azi1 = angNormalize(azimuth)
        let (salp1, calp1) = sincosd(angRound(azi1))
        // An invalid latitude becomes NaN and propagates to every output.
        var (sbet1, cbet1) = sincosd(angRound(latFix(latitude)))
        sbet1 *= f1
        normalize(&sbet1, &cbet1)
        cbet1 = max(tiny, cbet1)

        // The geodesic's constants: α₀ (Clairaut) and σ₁, ω₁ from the node.
        let salp0 = salp1 * cbet1
        let calp0 = norm(calp1, salp1 * sbet1)
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        let comg1 = csig1
        normalize(&ssig1, &csig1)

        let k2 = sq(calp0) * ep2
        let eps = epsilon(k2: k2)
        let a1m1 = GeodesicSeries.a1m1(eps)
        let c1 = GeodesicSeries.c1(eps)
        let b11 = c1(sin: ssig1, cos: csig1)
        // τ₁, the rectified (distance-proportional) position of point 1.
        let (sb11, cb11) = (sin(b11), cos(b11))
        let stau1 = ssig1 * cb11 + csig1 * sb11
        let ctau1 = csig1 * cb11 - ssig1 * sb11

        // Arc length σ₁₂ for the distance: τ₁₂ is exact, σ follows by reversion.
        let tau12 = distance / (b * (1 + a1m1))
        let stau12 = sin(tau12), ctau12 = cos(tau12)
        let c1p = GeodesicSeries.c1p(eps)
        var b12 = -c1p(sin: stau1 * ctau12 + ctau1 * stau12, cos: ctau1 * ctau12 - stau1 * stau12)
        var sig12 = tau12 - (b12 - b11)
        var ssig12 = sin(sig12), csig12 = cos(sig12)
        if abs(flattening) > 0.01 {
            // The reverted series loses accuracy for large |f|: polish with one
            // Newton step on s(σ) = distance, ds/dσ = b·dn.
            let ssig2 = ssig1 * csig12 + csig1 * ssig12
            let csig2 = csig1 * csig12 - ssig1 * ssig12
            b12 = c1(sin: ssig2, cos: csig2)
            let serr = (1 + a1m1) * (sig12 + (b12 - b11)) - distance / b
            sig12 -= serr / (1 + k2 * sq(ssig2)).squareRoot()
            ssig12 = sin(sig12)
            csig12 = cos(sig12)
        }

        // σ₂ = σ₁ + σ₁₂ and the end point on the auxiliary sphere.
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        let sbet2 = calp0 * ssig2
        var cbet2 = norm(salp0, calp0 * csig2)
        if cbet2 == 0 {
            // At a pole: keep a definite direction, as for inputs at the poles.
            cbet2 = tiny
            csig2 = tiny
        }
        let somg2 = salp0 * ssig2, comg2 = csig2
        let salp2 = salp0, calp2 = calp0 * csig2

        // Longitude: spherical ω₁₂ plus the ellipsoidal correction from I3.
        let omg12 = atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let c3 = longitude.c3(eps)
        let a3c = -flattening * salp0 * longitude.a3(eps)
        let b31 = c3(sin: ssig1, cos: csig1)
        let lam12 = omg12 + a3c * (sig12 + (c3(sin: ssig2, cos: csig2) - b31))
        let lon12 = lam12 / degree
        let lon2 = angNormalize(angNormalize(longitude1) + angNormalize(lon12))

        return DirectResult(latitude: atan2d(sbet2, f1 * cbet2),
                            longitude: lon2,
                            finalAzimuth: atan2d(salp2, calp2))
    }
}
