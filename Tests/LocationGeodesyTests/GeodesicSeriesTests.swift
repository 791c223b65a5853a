import Foundation
import Testing
@testable import LocationGeodesy

/// The series coefficients, checked against numerical integration of the
/// integrals they expand (see GeodesicSeries.swift for the definitions).
@Suite struct GeodesicSeriesTests {
    /// Composite Simpson's rule; with 4,000 panels its error is ~1e-16 here.
    func integrate(_ f: (Double) -> Double, to sigma: Double, panels: Int = 4000) -> Double {
        let h = sigma / Double(panels)
        var sum = f(0) + f(sigma)
        for i in 1..<panels { sum += (i % 2 == 1 ? 4 : 2) * f(Double(i) * h) }
        return sum * h / 3
    }

    func k2(eps: Double) -> Double { 4 * eps / ((1 - eps) * (1 - eps)) }

    let sigmas = [0.3, 1.1, 2.0, 2.9, 4.4]

    func series(_ s: SineSeries, _ sigma: Double) -> Double {
        s(sin: sin(sigma), cos: cos(sigma))
    }

    /// Largest error of the truncated I1, I2, I3 and the reversion over `sigmas`.
    func errors(eps: Double, n: Double) -> (i1: Double, reversion: Double, i2: Double, i3: Double) {
        let k2 = k2(eps: eps)
        let f = 2 * n / (1 + n)
        let longitude = LongitudeSeries(n: n)
        var e = (i1: 0.0, reversion: 0.0, i2: 0.0, i3: 0.0)
        for sigma in sigmas {
            // dn = √(1 + k² sin²σ), the integrands' common factor.
            let dn = { (s: Double) -> Double in (1 + k2 * sin(s) * sin(s)).squareRoot() }
            let i1 = integrate({ dn($0) }, to: sigma)
            let i2 = integrate({ 1 / dn($0) }, to: sigma)
            let i3 = integrate({ (2 - f) / (1 + (1 - f) * dn($0)) }, to: sigma)
            let c1 = GeodesicSeries.c1(eps)
            let tau = sigma + series(c1, sigma)
            e.i1 = max(e.i1, abs(i1 - (1 + GeodesicSeries.a1m1(eps)) * tau))
            e.reversion = max(e.reversion, abs(tau + series(GeodesicSeries.c1p(eps), tau) - sigma))
            e.i2 = max(e.i2, abs(i2 - (1 + GeodesicSeries.a2m1(eps)) * (sigma + series(GeodesicSeries.c2(eps), sigma))))
            e.i3 = max(e.i3, abs(i3 - longitude.a3(eps) * (sigma + series(longitude.c3(eps), sigma))))
        }
        return e
    }

    /// At Earth-like ε and n the truncated series match the integrals to round-off
    /// (the quadrature's own round-off is ~1e-14 for values up to 4.4).
    @Test func seriesMatchIntegralsAtEarthScale() {
        // WGS84: n ≈ 0.00168, and ε ≤ n.
        let e = errors(eps: 0.0017, n: 0.0017)
        #expect(e.i1 < 3e-14, "I1 \(e.i1)")
        #expect(e.reversion < 3e-14, "C1' \(e.reversion)")
        #expect(e.i2 < 3e-14, "I2 \(e.i2)")
        #expect(e.i3 < 3e-14, "I3 \(e.i3)")
    }

    /// Halving ε (and n) must shrink the truncation error by 2⁷ for I1, I2 and the
    /// reversion (terms through ε⁶ are right) and by 2⁶ for I3 (terms through total
    /// order 5 in ε and n). A wrong coefficient of order k gives a ratio near 2ᵏ.
    @Test func truncationErrorHasTheRightOrder() {
        let big = errors(eps: 0.1, n: 0.1), small = errors(eps: 0.05, n: 0.05)
        let order = (i1: log2(big.i1 / small.i1), reversion: log2(big.reversion / small.reversion),
                     i2: log2(big.i2 / small.i2), i3: log2(big.i3 / small.i3))
        #expect(order.i1 > 6.6, "I1 order \(order.i1)")
        #expect(order.reversion > 6.6, "C1' order \(order.reversion)")
        #expect(order.i2 > 6.6, "I2 order \(order.i2)")
        #expect(order.i3 > 5.6, "I3 order \(order.i3)")
    }

    /// A2 in the rearranged form equals the paper's (1 − ε)(1 + ε²/4 + 9ε⁴/64 + 25ε⁶/256)
    /// up to the ε⁷ terms the rearrangement drops.
    @Test func a2MatchesPaperForm() {
        for eps in [0.001, 0.01, 0.05] {
            let e2 = eps * eps
            let paper = (1 - eps) * (1 + e2 * (1.0 / 4 + e2 * (9.0 / 64 + e2 * (25.0 / 256))))
            #expect(abs(1 + GeodesicSeries.a2m1(eps) - paper) <= 2 * pow(eps, 7) + 1e-16)
        }
    }

    @Test func clenshawMatchesDirectSum() {
        let s = SineSeries(0.3, -0.2, 0.1, 0.05, -0.025, 0.0125)
        let coefficients = [s.c1, s.c2, s.c3, s.c4, s.c5, s.c6]
        for sigma in stride(from: -3.0, through: 3.0, by: 0.37) {
            var direct = 0.0
            for (l, c) in coefficients.enumerated() { direct += c * sin(2 * Double(l + 1) * sigma) }
            #expect(abs(series(s, sigma) - direct) <= 1e-15)
        }
    }

    @Test func astroidRootSolvesTheQuartic() {
        for (x, y) in [(-0.5, -0.3), (-1.2, -0.01), (-0.9, -2.0), (-3.0, -0.5), (-0.01, -0.001)] {
            let k = astroid(x, y)
            let q = k * k * k * k + 2 * k * k * k - (x * x + y * y - 1) * k * k - 2 * y * y * k - y * y
            #expect(k > 0)
            #expect(abs(q) <= 1e-13 * max(1, k * k * k * k), "x \(x) y \(y) k \(k) residual \(q)")
        }
        #expect(astroid(-0.5, 0) == 0)
    }
}
