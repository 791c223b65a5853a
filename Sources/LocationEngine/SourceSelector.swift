import LocationSources

/// Picks the source that satisfies the strictest current demand at the lowest power.
///
/// A kilometre-accuracy demand does not keep a GPS busy when a cheaper source is good enough;
/// when nothing is good enough the most accurate source wins.
enum SourceSelector {
    /// - Parameter requiredAccuracy: metres; 0 asks for the best available.
    static func choose(from sources: [any LocationSource], requiredAccuracy: Double) -> (any LocationSource)? {
        let sufficient = sources.filter {
            requiredAccuracy > 0 && $0.descriptor.typicalAccuracy <= requiredAccuracy
        }
        if let cheapest = sufficient.min(by: { cost($0) < cost($1) }) { return cheapest }
        return sources.min(by: { accuracy($0) < accuracy($1) })
    }

    private static func cost(_ s: any LocationSource) -> (Double, Double) {
        (s.descriptor.powerCost, s.descriptor.typicalAccuracy)
    }

    private static func accuracy(_ s: any LocationSource) -> (Double, Double) {
        (s.descriptor.typicalAccuracy, s.descriptor.powerCost)
    }
}
