import Foundation

/// How a session captures liveness, from `start`: `paced` (production keys) reveals the challenge
/// step by step (`…/liveness/steps`); `one_shot` (sandbox keys) uploads the whole challenge at once.
public enum LivenessMode: String, Codable, Sendable {
    case paced, oneShot = "one_shot"
}

/// One step of the server-paced challenge (`PacedStep` in the OpenAPI document), drawn when revealed.
public struct PacedStep: Codable, Equatable, Sendable {
    public struct Target: Codable, Equatable, Sendable {
        /// Degrees; > 0 when the applicant turns to their own left.
        public let yaw: Double
        /// Degrees; > 0 when the applicant looks up.
        public let pitch: Double
    }

    public struct Limits: Codable, Equatable, Sendable {
        public let maxFramesPerChunk: Int
        public let maxFramesPerStep: Int
        public let maxChunksPerStep: Int
        public let maxFrameAgeMs: Int
        public let maxFrameGapMs: Int

        enum CodingKeys: String, CodingKey {
            case maxFramesPerChunk = "max_frames_per_chunk", maxFramesPerStep = "max_frames_per_step"
            case maxChunksPerStep = "max_chunks_per_step", maxFrameAgeMs = "max_frame_age_ms"
            case maxFrameGapMs = "max_frame_gap_ms"
        }
    }

    public let challengeId: String
    public let stepId: String
    public let index: Int
    public let count: Int
    /// `HOLD_POSE` or `OPEN_MOUTH`; a kind this SDK does not know means the app needs an update.
    public let kind: String
    public let target: Target
    public let toleranceDeg: Double
    public let holdMs: Int
    public let revealedAt: String
    public let deadlineAt: String
    /// The deadline in ms after the reveal, counted from when the answer was received.
    public let deadlineMs: Int
    public let limits: Limits
    public let attemptsLeft: Int

    enum CodingKeys: String, CodingKey {
        case challengeId = "challenge_id", stepId = "step_id", index, count, kind, target
        case toleranceDeg = "tolerance_deg", holdMs = "hold_ms", revealedAt = "revealed_at"
        case deadlineAt = "deadline_at", deadlineMs = "deadline_ms", limits, attemptsLeft = "attempts_left"
    }

    /// What to show: turn to the target and hold, or open the mouth.
    public func prompt(locale: String) -> String {
        let french = locale.lowercased().hasPrefix("fr")
        switch kind {
        case "HOLD_POSE": return french ? "Tournez la tête vers le point et gardez la pose" : "Move your nose to the dot and hold"
        case "OPEN_MOUTH": return french ? "Regardez la caméra et ouvrez grand la bouche" : "Face the camera and open your mouth wide"
        default: return french ? "Mettez l'application à jour" : "Please update the app"
        }
    }

    /// How long to keep capturing after the reveal: the time to see the prompt and move (3 s) and
    /// the hold, leaving the deadline's last 1.5 s for the last chunk and the complete call.
    public var captureWindowMs: Int { max(0, min(deadlineMs - 1500, 3000 + holdMs)) }
}

/// `POST …/liveness/steps/{step_id}/frames`.
public struct PacedChunkAnswer: Codable, Equatable, Sendable {
    public let stepId: String
    public let received: Int
    public let framesTotal: Int
    public let deadlineMs: Int

    enum CodingKeys: String, CodingKey {
        case stepId = "step_id", received, framesTotal = "frames_total", deadlineMs = "deadline_ms"
    }
}

/// `POST …/liveness/steps/{step_id}/complete`.
public struct PacedStepDone: Codable, Equatable, Sendable {
    public enum Next: String, Codable, Sendable { case step, selfie, restart }

    public let stepId: String
    public let framesTotal: Int
    public let faceFoundRatio: Double
    public let next: Next
    public let attemptsLeft: Int

    enum CodingKeys: String, CodingKey {
        case stepId = "step_id", framesTotal = "frames_total", faceFoundRatio = "face_found_ratio", next
        case attemptsLeft = "attempts_left"
    }
}

/// A camera for the paced challenge: it runs continuously; `takeNewFrames()` hands over the frames
/// captured since the last call, stamped in ms on the clock `nowMs()` reads.
public protocol PacedFrameSource: AnyObject, Sendable {
    func nowMs() -> Int
    func takeNewFrames() async -> [LivenessFrame]
}

/// Splits a step's frames into the chunks the server takes: at most `maxFramesPerChunk` a chunk,
/// timestamps rebased on the reveal and strictly increasing, oversize frames dropped.
public enum PacedChunking {
    /// `minGapMs` thins a fast camera so that the step's frames stay within `maxFramesPerStep`.
    public static func chunks(
        _ frames: [LivenessFrame], revealMs: Int, after lastSent: Int?, minGapMs: Int = 0, limits: PacedStep.Limits
    ) -> [[LivenessFrame]] {
        var kept: [LivenessFrame] = []
        var last = lastSent ?? Int.min / 2
        for frame in frames.sorted(by: { $0.timestampMs < $1.timestampMs }) {
            let t = frame.timestampMs - revealMs
            guard t >= 0, t - last >= max(1, minGapMs), !frame.jpeg.isEmpty, frame.jpeg.count <= FrameSelector.maxFrameBytes
            else { continue }
            kept.append(LivenessFrame(timestampMs: t, jpeg: frame.jpeg))
            last = t
        }
        let size = max(1, limits.maxFramesPerChunk)
        return stride(from: 0, to: kept.count, by: size).map { Array(kept[$0..<min($0 + size, kept.count)]) }
    }
}
