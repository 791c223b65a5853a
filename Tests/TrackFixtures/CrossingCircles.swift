import LocationGeodesy

extension TrueCrossings {
    /// Radii of the circles `circles(crossedBy:)` places, metres, in turn.
    public static let circleRadii: [Double] = [100, 150, 200, 300]

    /// How far beyond the edge the track must go between two crossings for each to count, metres.
    ///
    /// A receiver whose fixes are uncertain by a few metres cannot tell a walk along the edge, in
    /// and out by a metre or two, from one that stays on one side; a fence that never flaps must
    /// not report those dips. The fixes of the tracks' replay claim 5 m (68 %), so 25 m beyond the
    /// edge is a place the fixes put firmly on one side.
    public static let clearance = 25.0

    /// `count` circles that the track crosses cleanly, placed the same way every time.
    ///
    /// Each circle is centred on the track, at a fraction of its length (1/5, 2/5, 3/5, 4/5, then
    /// halfway between those, …), with the radii of `circleRadii` in turn. A candidate is kept when
    /// the track starts and ends more than 20 m outside it (so it is both entered and left), no
    /// two of its crossings are less than 2 s apart (no grazing the edge, where the truth would
    /// hinge on centimetres), and between two crossings the track goes at least ``clearance``
    /// beyond the edge. Identifiers are `fence-1`, `fence-2`, ….
    ///
    /// - Returns: fewer than `count` circles only when the track has too few places that qualify.
    public static func circles(crossedBy track: [TimedPosition], count: Int = 4) -> [GroundCircle] {
        guard track.count >= 2, count > 0 else { return [] }
        var cumulative = [0.0]
        for index in track.indices.dropFirst() {
            let a = track[index - 1], b = track[index]
            cumulative.append(cumulative[index - 1] + Geodesic.wgs84.distance(
                latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude))
        }
        let total = cumulative[cumulative.count - 1]
        guard total > 0 else { return [] }
        var fractions = [0.2, 0.4, 0.6, 0.8]
        var step = 0.2
        while fractions.count < 64 {
            step /= 2
            fractions += stride(from: step, to: 1, by: 2 * step).map { $0 }
        }
        var chosen: [GroundCircle] = []
        for fraction in fractions where chosen.count < count {
            let centre = point(at: fraction * total, along: track, cumulative: cumulative)
            let circle = GroundCircle(identifier: "fence-\(chosen.count + 1)", latitude: centre.latitude,
                                      longitude: centre.longitude, radius: circleRadii[chosen.count % circleRadii.count])
            if isCleanlyCrossed(circle, by: track) { chosen.append(circle) }
        }
        return chosen
    }

    private static func isCleanlyCrossed(_ circle: GroundCircle, by track: [TimedPosition]) -> Bool {
        guard let first = track.first, let last = track.last,
              distance(first.latitude, first.longitude, circle) > circle.radius + 20,
              distance(last.latitude, last.longitude, circle) > circle.radius + 20 else { return false }
        let times = crossings(of: track, circles: [circle]).map(\.time)
        guard times.count >= 2, zip(times, times.dropFirst()).allSatisfy({ $1 - $0 >= 2 }) else { return false }
        // Between crossings the track is alternately inside (odd spans) and outside.
        for (index, (start, end)) in zip(times, times.dropFirst()).enumerated() {
            let distances = stride(from: start, through: end, by: 1).map { time -> Double in
                let point = position(at: time, along: track)
                return distance(point.latitude, point.longitude, circle)
            }
            let inside = index % 2 == 0
            let clear = inside ? (distances.min() ?? .infinity) <= circle.radius - clearance
                               : (distances.max() ?? 0) >= circle.radius + clearance
            if !clear { return false }
        }
        return true
    }

    /// Where the track is at `time` (seconds from its start), moving along the geodesic at
    /// constant speed between points.
    public static func position(at time: Double, along track: [TimedPosition]) -> (latitude: Double, longitude: Double) {
        guard let next = track.firstIndex(where: { $0.time >= time }), next > 0 else {
            let point = time <= (track.first?.time ?? 0) ? track[0] : track[track.count - 1]
            return (point.latitude, point.longitude)
        }
        let a = track[next - 1], b = track[next]
        let inverse = Geodesic.wgs84.inverse(latitude1: a.latitude, longitude1: a.longitude,
                                             latitude2: b.latitude, longitude2: b.longitude)
        let moved = Geodesic.wgs84.direct(latitude: a.latitude, longitude: a.longitude, azimuth: inverse.initialAzimuth,
                                          distance: inverse.distance * (time - a.time) / (b.time - a.time))
        return (moved.latitude, moved.longitude)
    }

    /// The point `distance` metres along the track.
    private static func point(at distance: Double, along track: [TimedPosition],
                              cumulative: [Double]) -> (latitude: Double, longitude: Double) {
        guard let index = cumulative.firstIndex(where: { $0 >= distance }), index > 0 else {
            return (track[0].latitude, track[0].longitude)
        }
        let a = track[index - 1], b = track[index]
        let inverse = Geodesic.wgs84.inverse(latitude1: a.latitude, longitude1: a.longitude,
                                             latitude2: b.latitude, longitude2: b.longitude)
        let moved = Geodesic.wgs84.direct(latitude: a.latitude, longitude: a.longitude, azimuth: inverse.initialAzimuth,
                                          distance: distance - cumulative[index - 1])
        return (moved.latitude, moved.longitude)
    }
}
