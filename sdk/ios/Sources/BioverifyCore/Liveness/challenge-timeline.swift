import Foundation

/// When each challenge step is shown, in milliseconds since the challenge started (the clock the
/// upload's `timestamps` use). A short lead-in lets the applicant settle facing the camera; each
/// step then holds for the same time.
public struct ChallengeTimeline: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case leadIn
        case step(index: Int, ChallengeStep)
        case finished
    }

    public let steps: [ChallengeStep]
    public let leadInMs: Int
    public let stepMs: Int

    /// The defaults match the hosted page: 1 s facing the camera, then 2 s a step.
    public init(steps: [ChallengeStep], leadInMs: Int = 1000, stepMs: Int = 2000) {
        precondition(leadInMs >= 0 && stepMs > 0, "durations must be positive")
        self.steps = steps
        self.leadInMs = leadInMs
        self.stepMs = stepMs
    }

    public var totalMs: Int { leadInMs + stepMs * steps.count }

    public func phase(atMs t: Int) -> Phase {
        if t < leadInMs { return .leadIn }
        let index = (t - leadInMs) / stepMs
        guard index < steps.count else { return .finished }
        return .step(index: index, steps[index])
    }

    /// The window `[start, end)` of step `index`.
    public func window(ofStep index: Int) -> Range<Int> {
        let start = leadInMs + index * stepMs
        return start..<(start + stepMs)
    }

    /// How far through the current step (0...1), for a progress ring; nil outside the steps.
    public func progress(atMs t: Int) -> Double? {
        guard case .step(let index, _) = phase(atMs: t) else { return nil }
        return Double(t - window(ofStep: index).lowerBound) / Double(stepMs)
    }
}
