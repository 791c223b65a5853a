/// Recorded time of a replayed log's epochs, as seconds since its first epoch.
///
/// It follows the time of day (the only time every epoch has; the date appears only with RMC/ZDA), so
/// it is continuous whether or not a date is known and across midnight. An epoch without any time
/// happens together with the previous one; a time that goes backwards (logs concatenated, a receiver
/// reset) continues one second after the previous epoch, so a replay never stalls or bursts.
struct NMEAReplayTimeline: Sendable {
    private var last: (timeOfDay: Double, offset: Double)?
    private(set) var backwardJumps = 0

    /// The offset of an epoch with this time of day (or Unix time), seconds since the first epoch.
    mutating func offset(timeOfDay: Double?, time: Double?) -> Double {
        guard let timeOfDay = timeOfDay ?? time.map({ $0.truncatingRemainder(dividingBy: 86_400) }),
              timeOfDay.isFinite else { return last?.offset ?? 0 }
        guard let previous = last else {
            last = (timeOfDay, 0)
            return 0
        }
        var delta = (timeOfDay - previous.timeOfDay).truncatingRemainder(dividingBy: 86_400)
        if delta > 43_200 { delta -= 86_400 }
        if delta <= -43_200 { delta += 86_400 }
        if delta < 0 {
            backwardJumps += 1
            delta = 1
        }
        let offset = previous.offset + delta
        last = (timeOfDay, offset)
        return offset
    }
}
