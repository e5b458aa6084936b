import Foundation

/// A camera frame kept for the liveness upload: JPEG bytes and when it was taken.
public struct LivenessFrame: Equatable, Sendable {
    /// Milliseconds since the challenge started.
    public let timestampMs: Int
    public let jpeg: Data

    public init(timestampMs: Int, jpeg: Data) {
        self.timestampMs = timestampMs
        self.jpeg = jpeg
    }
}

/// Chooses the frames to upload from what the camera delivered: the server takes 8 to 60 JPEG frames
/// of at most 1 MiB, with strictly increasing timestamps, and judges each step from the frames
/// inside its window, so every step must be covered and the frames spread evenly over it.
public struct FrameSelector: Sendable {
    public static let minFrames = 8
    public static let maxFrames = 60
    public static let maxFrameBytes = 1 << 20

    public let timeline: ChallengeTimeline
    /// How many frames to keep per step (the lead-in keeps a third of that).
    public let perStep: Int

    public init(timeline: ChallengeTimeline, perStep: Int = 10) {
        precondition(perStep >= 1)
        self.timeline = timeline
        self.perStep = perStep
    }

    public func select(_ frames: [LivenessFrame]) throws -> [LivenessFrame] {
        // Keep the first frame of each instant, in time order, inside the challenge and within size.
        var usable: [LivenessFrame] = []
        for frame in frames.sorted(by: { $0.timestampMs < $1.timestampMs })
        where frame.timestampMs >= 0 && frame.timestampMs < timeline.totalMs
            && frame.jpeg.count <= Self.maxFrameBytes && !frame.jpeg.isEmpty
        {
            if let last = usable.last, last.timestampMs == frame.timestampMs { continue }
            usable.append(frame)
        }

        var chosen: [LivenessFrame] = []
        let leadIn = usable.filter { $0.timestampMs < timeline.leadInMs }
        chosen += Self.spread(leadIn, count: max(1, perStep / 3))
        for index in timeline.steps.indices {
            let window = timeline.window(ofStep: index)
            let inStep = usable.filter { window.contains($0.timestampMs) }
            guard !inStep.isEmpty else {
                throw BioverifyError.invalidInput(
                    "no usable frame during step \(index + 1) (\(timeline.steps[index].rawValue)); capture again")
            }
            chosen += Self.spread(inStep, count: perStep)
        }
        chosen = Self.spread(chosen, count: Self.maxFrames)
        // Too few in the windows (a slow camera): fill from the remaining usable frames.
        if chosen.count < Self.minFrames {
            let have = Set(chosen.map(\.timestampMs))
            let rest = usable.filter { !have.contains($0.timestampMs) }
            chosen += Self.spread(rest, count: Self.minFrames - chosen.count)
            chosen.sort { $0.timestampMs < $1.timestampMs }
        }
        guard chosen.count >= Self.minFrames else {
            throw BioverifyError.invalidInput(
                "only \(chosen.count) usable frames; the service needs at least \(Self.minFrames)")
        }
        return chosen
    }

    /// `count` items evenly spaced through `items` (all of them when there are fewer), keeping order.
    static func spread<T>(_ items: [T], count: Int) -> [T] {
        guard items.count > count else { return items }
        guard count > 1 else { return count == 1 ? [items[items.count / 2]] : [] }
        return (0..<count).map { i in items[(i * (items.count - 1)) / (count - 1)] }
    }
}
