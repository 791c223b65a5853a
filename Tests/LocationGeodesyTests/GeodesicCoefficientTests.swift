import Foundation
import Testing
@testable import LocationGeodesy

/// Each series coefficient against its exact value, found by Fourier analysis
/// of the integrand (the trapezoid rule is exact to round-off for periodic
/// functions). The residual exact − series, divided by hᵐ where m is the first
/// order left out, must tend to a constant as h → 0; a wrong coefficient of
/// order j < m makes it grow like h^(j−m) instead.
@Suite struct GeodesicCoefficientTests {
    static let samples = 128

    /// Mean and cos 2lσ coefficients (l = 1…6) of a π-periodic even function.
    static func cosineCoefficients(_ g: (Double) -> Double) -> (mean: Double, a: [Double]) {
        let n = samples
        var mean = 0.0
        var a = [Double](repeating: 0, count: 7)
        for k in 0..<n {
            let s = Double(k) * .pi / Double(n)
            let v = g(s)
            mean += v
            for l in 1...6 { a[l] += v * cos(2 * Double(l) * s) }
        }
        return (mean / Double(n), a.map { 2 * $0 / Double(n) })
    }

    static func k2(_ eps: Double) -> Double { 4 * eps / ((1 - eps) * (1 - eps)) }

    /// For an integral I = A(σ + Σ Cₗ sin 2lσ) with integrand 1 + small(σ):
    /// [A − 1, C₁, …, C₆].
    static func expansion(_ small: (Double) -> Double) -> [Double] {
        let (mean, a) = cosineCoefficients(small)
        let big = 1 + mean
        return [mean] + (1...6).map { a[$0] / (2 * Double($0) * big) }
    }

    /// dn − 1 = k² sin²σ / (1 + dn), free of cancellation.
    static func dnm1(_ k2: Double, _ s: Double) -> Double {
        let x = k2 * sin(s) * sin(s)
        return x / (1 + (1 + x).squareRoot())
    }

    static func exactI1(_ eps: Double) -> [Double] {
        let k2 = k2(eps)
        return expansion { dnm1(k2, $0) }
    }

    static func exactI2(_ eps: Double) -> [Double] {
        let k2 = k2(eps)
        return expansion { s in let d = dnm1(k2, s); return -d / (1 + d) }
    }

    /// I3 along the ray n = ε.
    static func exactI3(_ h: Double) -> [Double] {
        let k2 = k2(h), f = 2 * h / (1 + h)
        // (2 − f)/(1 + (1 − f) dn) − 1 = −(1 − f)(dn − 1)/(1 + (1 − f) dn)
        return expansion { s in let d = dnm1(k2, s); return -(1 - f) * d / (1 + (1 - f) * (1 + d)) }
    }

    /// σ(τ) − τ = Σ C1'ₗ sin 2lτ, by inverting τ(σ) = σ + Σ C1ₗ sin 2lσ with the
    /// exact C1ₗ (to 24 terms) at each sample and analysing the result.
    static func exactReversion(_ eps: Double) -> [Double] {
        let k2 = k2(eps)
        let n = samples
        var c = [Double](repeating: 0, count: 25)
        var a1 = 0.0
        for k in 0..<n {
            let s = Double(k) * .pi / Double(n)
            let v = dnm1(k2, s)
            a1 += v
            for l in 1...24 { c[l] += v * cos(2 * Double(l) * s) }
        }
        a1 = 1 + a1 / Double(n)
        for l in 1...24 { c[l] = 2 * c[l] / Double(n) / (2 * Double(l) * a1) }
        var b = [Double](repeating: 0, count: 7)
        for k in 0..<n {
            let tau = Double(k) * .pi / Double(n)
            var sigma = tau
            for _ in 0..<8 {
                var t = sigma, dt = 1.0
                for l in 1...24 {
                    t += c[l] * sin(2 * Double(l) * sigma)
                    dt += 2 * Double(l) * c[l] * cos(2 * Double(l) * sigma)
                }
                sigma -= (t - tau) / dt
            }
            for l in 1...6 { b[l] += (sigma - tau) * sin(2 * Double(l) * tau) }
        }
        return [0] + (1...6).map { 2 * b[$0] / Double(n) }
    }

    static func terms(_ s: SineSeries) -> [Double] { [s.c1, s.c2, s.c3, s.c4, s.c5, s.c6] }

    struct Family: Sendable, CustomStringConvertible {
        var description: String
        /// First order not included in the truncated series.
        var omitted: Double
        var exact: @Sendable (Double) -> [Double]
        var series: @Sendable (Double) -> [Double]
    }

    static let families: [Family] = [
        Family(description: "A1, C1", omitted: 7, exact: exactI1) { e in
            [GeodesicSeries.a1m1(e)] + terms(GeodesicSeries.c1(e))
        },
        Family(description: "C1'", omitted: 7, exact: exactReversion) { e in
            [0] + terms(GeodesicSeries.c1p(e))
        },
        Family(description: "A2, C2", omitted: 7, exact: exactI2) { e in
            [GeodesicSeries.a2m1(e)] + terms(GeodesicSeries.c2(e))
        },
        // A3 and C3 are truncated at total order 5 in ε and n (I3 is multiplied by f).
        Family(description: "A3, C3", omitted: 6, exact: exactI3) { h in
            let series = LongitudeSeries(n: h)
            return [series.a3(h) - 1] + terms(series.c3(h))
        },
    ]

    @Test(arguments: families)
    func residualsShrinkAtTheOmittedOrder(_ family: Family) {
        let h0 = 0.04, h1 = 0.01
        let e0 = family.exact(h0), s0 = family.series(h0)
        let e1 = family.exact(h1), s1 = family.series(h1)
        for l in 0...6 {
            let r0 = (e0[l] - s0[l]) / pow(h0, family.omitted)
            let r1 = (e1[l] - s1[l]) / pow(h1, family.omitted)
            // Correct coefficients: |r1| ≈ |r0| up to O(h), or smaller where the
            // first omitted term is of order m + 1 (parity). A coefficient of
            // order m − 1 that is off by δ adds 75δ to r1 − r0; 0.002 is the
            // round-off floor of r1 (hᵐ is ~1e-14 at h = 0.01).
            #expect(abs(r1) <= 1.25 * abs(r0) + 0.002,
                    "\(family) term \(l): residual/h^\(family.omitted) \(r0) at h = \(h0), \(r1) at h = \(h1)")
        }
    }
}
