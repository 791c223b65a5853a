import Foundation

/// How the ranger smooths a beacon's received strength before turning it into a distance.
public enum RSSISmoothing: Sendable, Equatable {
    /// The mean of the advertisements heard in the last `window` seconds (Android Beacon Library's
    /// default is a 20 s running average).
    case runningAverage(window: TimeInterval)
    /// Each advertisement moves the estimate by `weight` of its difference.
    case exponential(weight: Double)
    /// A one-dimensional Kalman filter on a random walk: the strength drifts by `processNoise` dB²
    /// a second (the device moving), each advertisement is the strength plus `measurementNoise` dB²
    /// of noise. Unlike the averages it knows how old its estimate is: after a gap it trusts the
    /// next advertisements more, so it catches up at once.
    case kalman(processNoise: Double, measurementNoise: Double)
}

/// One beacon's smoothed received strength, dBm.
struct RSSIFilter: Sendable {
    let smoothing: RSSISmoothing
    private(set) var estimate: Double?
    /// Kalman: the estimate's variance, dB²; running average: the samples in the window.
    private var variance = 0.0
    private var lastTime: Date?
    private var samples: [(time: Date, rssi: Double)] = []

    init(_ smoothing: RSSISmoothing) { self.smoothing = smoothing }

    mutating func observe(_ rssi: Double, at time: Date) {
        switch smoothing {
        case .runningAverage(let window):
            samples.append((time, rssi))
            let oldest = time.addingTimeInterval(-window)
            samples.removeAll { $0.time <= oldest }
            estimate = samples.reduce(0) { $0 + $1.rssi } / Double(samples.count)
        case .exponential(let weight):
            estimate = estimate.map { $0 + weight * (rssi - $0) } ?? rssi
        case .kalman(let processNoise, let measurementNoise):
            guard let current = estimate, let lastTime else {
                estimate = rssi
                variance = measurementNoise
                lastTime = time
                return
            }
            let predicted = variance + processNoise * max(0, time.timeIntervalSince(lastTime))
            let gain = predicted / (predicted + measurementNoise)
            estimate = current + gain * (rssi - current)
            variance = (1 - gain) * predicted
        }
        lastTime = time
    }
}
