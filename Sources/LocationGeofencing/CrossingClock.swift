import Foundation

/// When each fence's boundary was last crossed, as the fixes on either side of it put it: the
/// signed distance to the boundary (negative inside) is taken as linear in time between two
/// consecutive fixes near the fence, and its zero is the crossing.
///
/// The deciding fix comes a margin (k × accuracy) past the boundary; the crossing itself lies
/// between the last fix on one side and the first on the other, which this recovers. Kept in
/// arrays by fence key (17 bytes a fence) and a fix counter, so a fix costs no allocation and no
/// hashing: a fence "seen at the previous fix" is one whose counter is this fix's minus one. A
/// class, so its arrays are always changed in place, never copied by the evaluator that holds it.
final class CrossingClock {
    private struct Entry {
        /// When the boundary was last crossed (seconds since the reference date), NaN when not seen.
        var crossedAt = Double.nan
        /// The signed distance to the boundary at the last fix near the fence.
        var signed: Float = 0
        /// The fix counter of that fix.
        var seenAt: UInt32 = 0
        /// Whether the last crossing went inward.
        var inward = false
    }

    private var entries: [Entry] = []
    /// Fences near the previous fix, and near this one so far.
    private var previousNear: [UInt32] = []
    private var currentNear: [UInt32] = []
    private var fix: UInt32 = 1
    private var previousTime: Double = 0

    var memoryBytes: Int {
        entries.capacity * MemoryLayout<Entry>.stride + (previousNear.capacity + currentNear.capacity) * 4
    }

    /// Makes room for fence `key` (keys are dense) and forgets what was seen of it before.
    func reset(_ key: UInt32) {
        let i = Int(key)
        while entries.count <= i { entries.append(Entry()) }
        entries[i] = Entry()
    }

    /// Starts a fix.
    func begin() {
        swap(&previousNear, &currentNear)
        currentNear.removeAll(keepingCapacity: true)
        fix &+= 1
    }

    /// The fix is `signedDistance` metres from the fence's boundary (negative inside). `near`:
    /// whether the fence counts as near this fix (false for one measured only because it was near
    /// the previous fix: it is not followed further).
    func observe(_ key: UInt32, signedDistance: Double, at time: Double, near: Bool = true) {
        let i = Int(key)
        var entry = entries[i]
        if entry.seenAt == fix &- 1 {
            let before = Double(entry.signed)
            if (before <= 0) != (signedDistance <= 0), time > previousTime {
                entry.crossedAt = previousTime + (time - previousTime) * before / (before - signedDistance)
                entry.inward = signedDistance <= 0
            }
        } else {
            // Not near at the previous fix: a crossing seen before that no longer tells anything.
            entry.crossedAt = .nan
        }
        entry.signed = Float(signedDistance)
        entry.seenAt = fix
        entries[i] = entry
        if near { currentNear.append(key) }
    }

    /// The fences near the previous fix that are not near this one.
    func leftBehind(_ isNear: (UInt32) -> Bool) -> [UInt32] {
        previousNear.filter { entries[Int($0)].seenAt != fix && !isNear($0) }
    }

    /// Ends the fix taken at `time` (seconds since the reference date).
    func end(at time: Double) { previousTime = time }

    /// When the boundary was last crossed in this direction, if seen.
    func crossing(_ key: UInt32, inward direction: Bool) -> Double? {
        let i = Int(key)
        guard i < entries.count, !entries[i].crossedAt.isNaN, entries[i].inward == direction else { return nil }
        return entries[i].crossedAt
    }
}
