// Series expansions of the geodesic integrals (Karney 2013, eqs. 15–25, 40–43),
// truncated at sixth order in the small parameter ε (and, for I3, in n and ε
// jointly), which leaves truncation errors far below double precision for
// |f| ≤ 1/50.
//
// With k² = e'² cos²α₀ and ε = (√(1+k²) − 1)/(√(1+k²) + 1):
//   I1(σ) = ∫₀^σ √(1 + k² sin²σ') dσ'                       = A1 (σ + Σ C1ₗ sin 2lσ)
//   I2(σ) = ∫₀^σ 1/√(1 + k² sin²σ') dσ'                     = A2 (σ + Σ C2ₗ sin 2lσ)
//   I3(σ) = ∫₀^σ (2 − f)/(1 + (1 − f)√(1 + k² sin²σ')) dσ'  = A3 (σ + Σ C3ₗ sin 2lσ)
// and with τ = σ + Σ C1ₗ sin 2lσ, the reversion σ = τ + Σ C1'ₗ sin 2lτ.

/// A Fourier sine series Σₗ₌₁⁶ cₗ sin 2lσ: the periodic part of every geodesic
/// integral. Six stored values, so it lives in registers and never allocates.
@usableFromInline
struct SineSeries: Sendable {
    @usableFromInline var c1, c2, c3, c4, c5, c6: Double

    @inline(__always) @usableFromInline
    init(_ c1: Double, _ c2: Double, _ c3: Double, _ c4: Double, _ c5: Double, _ c6: Double) {
        (self.c1, self.c2, self.c3, self.c4, self.c5, self.c6) = (c1, c2, c3, c4, c5, c6)
    }

    /// The sum at σ given sin σ and cos σ, by Clenshaw's recurrence (one
    /// multiplication chain instead of six sines).
    @inline(__always) @usableFromInline
    func callAsFunction(sin s: Double, cos c: Double) -> Double {
        let a = 2 * (c - s) * (c + s)  // 2 cos 2σ
        let b6 = c6
        let b5 = c5 + a * b6
        let b4 = c4 + a * b5 - b6
        let b3 = c3 + a * b4 - b5
        let b2 = c2 + a * b3 - b4
        let b1 = c1 + a * b2 - b3
        return 2 * s * c * b1  // b1 · sin 2σ
    }

    /// `x · self + y · other`, term by term.
    @inline(__always) @usableFromInline
    static func combine(_ x: Double, _ p: SineSeries, _ y: Double, _ q: SineSeries) -> SineSeries {
        SineSeries(x * p.c1 + y * q.c1, x * p.c2 + y * q.c2, x * p.c3 + y * q.c3,
                   x * p.c4 + y * q.c4, x * p.c5 + y * q.c5, x * p.c6 + y * q.c6)
    }
}

/// The ε-only series: those of I1 (distance), its reversion, and I2 (reduced length).
@usableFromInline
enum GeodesicSeries {
    /// A1 − 1, with A1 = (1 + ε²/4 + ε⁴/64 + ε⁶/256)/(1 − ε).
    /// Returned minus one to keep full relative precision when ε is small.
    @inline(__always) @usableFromInline
    static func a1m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (1.0 / 4 + e2 * (1.0 / 64 + e2 * (1.0 / 256)))
        return (t + eps) / (1 - eps)
    }

    /// C1ₗ (eq. 18).
    @inline(__always) @usableFromInline
    static func c1(_ eps: Double) -> SineSeries {
        let e2 = eps * eps
        var d = eps
        let c1 = d * (-1.0 / 2 + e2 * (3.0 / 16 - e2 * (1.0 / 32))); d *= eps
        let c2 = d * (-1.0 / 16 + e2 * (1.0 / 32 - e2 * (9.0 / 2048))); d *= eps
        let c3 = d * (-1.0 / 48 + e2 * (3.0 / 256)); d *= eps
        let c4 = d * (-5.0 / 512 + e2 * (3.0 / 512)); d *= eps
        let c5 = d * (-7.0 / 1280); d *= eps
        let c6 = d * (-7.0 / 2048)
        return SineSeries(c1, c2, c3, c4, c5, c6)
    }

    /// C1'ₗ (eq. 21): turns the rectified distance τ back into arc length σ.
    @inline(__always) @usableFromInline
    static func c1p(_ eps: Double) -> SineSeries {
        let e2 = eps * eps
        var d = eps
        let c1 = d * (1.0 / 2 + e2 * (-9.0 / 32 + e2 * (205.0 / 1536))); d *= eps
        let c2 = d * (5.0 / 16 + e2 * (-37.0 / 96 + e2 * (1335.0 / 4096))); d *= eps
        let c3 = d * (29.0 / 96 + e2 * (-75.0 / 128)); d *= eps
        let c4 = d * (539.0 / 1536 + e2 * (-2391.0 / 2560)); d *= eps
        let c5 = d * (3467.0 / 7680); d *= eps
        let c6 = d * (38081.0 / 61440)
        return SineSeries(c1, c2, c3, c4, c5, c6)
    }

    /// A2 − 1, with A2 = (1 − 3ε²/4 − 7ε⁴/64 − 11ε⁶/256)/(1 + ε)
    /// (the paper's (1 − ε)(1 + ε²/4 + 9ε⁴/64 + 25ε⁶/256), rearranged).
    @inline(__always) @usableFromInline
    static func a2m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = -e2 * (3.0 / 4 + e2 * (7.0 / 64 + e2 * (11.0 / 256)))
        return (t - eps) / (1 + eps)
    }

    /// C2ₗ (eq. 43).
    @inline(__always) @usableFromInline
    static func c2(_ eps: Double) -> SineSeries {
        let e2 = eps * eps
        var d = eps
        let c1 = d * (1.0 / 2 + e2 * (1.0 / 16 + e2 * (1.0 / 32))); d *= eps
        let c2 = d * (3.0 / 16 + e2 * (1.0 / 32 + e2 * (35.0 / 2048))); d *= eps
        let c3 = d * (5.0 / 48 + e2 * (5.0 / 256)); d *= eps
        let c4 = d * (35.0 / 512 + e2 * (7.0 / 512)); d *= eps
        let c5 = d * (63.0 / 1280); d *= eps
        let c6 = d * (77.0 / 2048)
        return SineSeries(c1, c2, c3, c4, c5, c6)
    }
}

/// The series of I3 (the longitude correction), whose coefficients depend on the
/// third flattening n as well as ε. Their n-polynomials are evaluated once per
/// ellipsoid, leaving a polynomial in ε per call.
@usableFromInline
struct LongitudeSeries: Sendable {
    /// A3 = 1 + a1 ε + … + a5 ε⁵ (eq. 24).
    @usableFromInline let a1, a2, a3, a4, a5: Double
    /// C3ₗ = Σⱼ xₗⱼ εʲ for l ≤ j ≤ 5 (eq. 25).
    @usableFromInline let x11, x12, x13, x14, x15: Double
    @usableFromInline let x22, x23, x24, x25: Double
    @usableFromInline let x33, x34, x35: Double
    @usableFromInline let x44, x45: Double
    @usableFromInline let x55: Double

    init(n: Double) {
        let n2 = n * n
        a1 = -(1 - n) / 2
        a2 = -(1.0 / 4 + n / 8 - 3 * n2 / 8)
        a3 = -(1 + 3 * n + n2) / 16
        a4 = -(3.0 / 64 + n / 32)
        a5 = -3.0 / 128

        x11 = (1 - n) / 4
        x12 = (1 - n2) / 8
        x13 = (3 + 3 * n - n2) / 64
        x14 = (5 + 2 * n) / 128
        x15 = 3.0 / 128

        x22 = (2 - 3 * n + n2) / 32
        x23 = (3 - 2 * n - 3 * n2) / 64
        x24 = (3 + n) / 128
        x25 = 5.0 / 256

        x33 = (5 - 9 * n + 5 * n2) / 192
        x34 = (9 - 10 * n) / 384
        x35 = 7.0 / 512

        x44 = (7 - 14 * n) / 512
        x45 = 7.0 / 512

        x55 = 21.0 / 2560
    }

    @inline(__always) @usableFromInline
    func a3(_ eps: Double) -> Double {
        1 + eps * (a1 + eps * (a2 + eps * (a3 + eps * (a4 + eps * a5))))
    }

    @inline(__always) @usableFromInline
    func c3(_ eps: Double) -> SineSeries {
        let e = eps
        return SineSeries(
            e * (x11 + e * (x12 + e * (x13 + e * (x14 + e * x15)))),
            e * e * (x22 + e * (x23 + e * (x24 + e * x25))),
            e * e * e * (x33 + e * (x34 + e * x35)),
            e * e * e * e * (x44 + e * x45),
            e * e * e * e * e * x55,
            0)
    }
}

/// ε from k² = e'² cos²α₀, written to avoid cancellation for small k².
@inline(__always) @usableFromInline
func epsilon(k2: Double) -> Double {
    k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
}
