/// The answers a batch built most recently, by place: a direct-mapped table of `slots` entries (a place's
/// slot is its index's low bits), so a place met again after other places — as a Morton-ordered batch does
/// when its curve comes back beside a region it left — is answered with the strings already built instead
/// of building them again (and freeing them after).
///
/// Why direct-mapped by index: `PLCE` is in k-d order per country, so neighbouring places have neighbouring
/// indexes and rarely share a slot, and a lookup is one compare. 1,024 slots keep ~250 KB of answers alive (a
/// batch's peak memory counts against a fifth of reverse_geocoder's).
final class RecentAnswers {
    static let slots = 1_024

    private let places: UnsafeMutablePointer<Int>
    private let answers: UnsafeMutablePointer<PlaceDescription?>

    init() {
        places = .allocate(capacity: Self.slots)
        places.initialize(repeating: -1, count: Self.slots)
        answers = .allocate(capacity: Self.slots)
        answers.initialize(repeating: nil, count: Self.slots)
    }

    deinit {
        answers.deinitialize(count: Self.slots)
        answers.deallocate()
        places.deallocate()
    }

    /// The answer last built for `place`, if it is still kept (its coordinate is the point it was built for).
    @inline(__always)
    func answer(for place: Int) -> PlaceDescription? {
        let slot = place & (Self.slots - 1)
        return places[slot] == place ? answers[slot] : nil
    }

    @inline(__always)
    func keep(_ answer: PlaceDescription, for place: Int) {
        let slot = place & (Self.slots - 1)
        places[slot] = place
        answers[slot] = answer
    }
}
