import Foundation

/// Frame delivery as the camera's own clock measured it: how many frames, the median interval between
/// them and its jitter (the standard deviation), in ms rounded to 0.01.
public struct FrameTimingSummary: Equatable, Sendable {
    public let frames: Int
    public let medianIntervalMs: Double?
    public let jitterMs: Double?

    public init(frames: Int, medianIntervalMs: Double?, jitterMs: Double?) {
        self.frames = frames
        self.medianIntervalMs = medianIntervalMs
        self.jitterMs = jitterMs
    }

    /// From presentation times in seconds. A time that is not finite (an invalid `CMTime`) is no frame,
    /// and an interval that runs backwards is left out, as the Android SDK leaves it out.
    public init(presentationTimes: [TimeInterval]) {
        let times = presentationTimes.filter(\.isFinite)
        let intervals = zip(times, times.dropFirst()).map { ($1 - $0) * 1000 }.filter { $0 >= 0 }
        guard !intervals.isEmpty else {
            self.init(frames: times.count, medianIntervalMs: nil, jitterMs: nil)
            return
        }
        let sorted = intervals.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        let variance = intervals.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(intervals.count)
        self.init(frames: times.count, medianIntervalMs: Self.hundredths(median), jitterMs: Self.hundredths(variance.squareRoot()))
    }

    private static func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
