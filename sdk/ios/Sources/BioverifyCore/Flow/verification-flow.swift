import Foundation

/// Where an applicant is in the capture, and what the UI shows next.
public enum FlowStep: Equatable, Sendable {
    case notStarted
    /// Take (or retake) a document side; `retakeReason` is set after a refused attempt.
    case document(side: DocumentSide, retakeReason: String?, attemptsLeft: Int)
    /// Read the passport chip (optional unless the session requires it; the app may skip it).
    case chip
    case liveness(retake: Bool, attemptsLeft: Int)
    case selfie(retakeReason: String?, attemptsLeft: Int)
    case readyToSubmit
    case waitingForDecision
    case finished(status: SessionStatus, redirectURL: String?)
}

/// What happened, fed to the flow in order.
public enum FlowEvent: Equatable, Sendable {
    case started(CaptureStart)
    case document(DocumentAnswer)
    case chipUploaded
    case chipSkipped
    case liveness(LivenessAnswer)
    /// A paced step completed (production sessions).
    case pacedStep(PacedStepDone)
    case selfie(SelfieAnswer)
    case submitted
    case status(CaptureStatus)
}

/// The capture flow as a pure state machine: the same answers give the same steps, on any device.
/// The server's answers decide the order (`next`, `retake`); the flow refuses an event that does
/// not belong to the current step, so the UI cannot upload a selfie before the document.
public struct VerificationFlow: Equatable, Sendable {
    public private(set) var step: FlowStep = .notStarted
    public private(set) var challenge: [ChallengeStep] = []
    public private(set) var locale = "en"
    public private(set) var livenessMode: LivenessMode = .oneShot
    /// Reasons the server gave on a step's last attempt, when capture went on anyway; the decision
    /// will carry them (a document still unreadable after 3 tries, say).
    public private(set) var unresolvedReasons: [String] = []
    /// Offer the chip step after the document (set for passports when the device can read NFC).
    public var offersChip: Bool

    public init(offersChip: Bool = false) {
        self.offersChip = offersChip
    }

    @discardableResult
    public mutating func apply(_ event: FlowEvent) throws -> FlowStep {
        step = try next(after: event)
        switch event {
        case .document(let answer) where !answer.retake: unresolvedReasons += answer.reason.map { [$0] } ?? []
        case .selfie(let answer) where !answer.retake: unresolvedReasons += answer.reason.map { [$0] } ?? []
        default: break
        }
        return step
    }

    private func next(after event: FlowEvent) throws -> FlowStep {
        switch (step, event) {
        case (_, .status(let status)) where status.decision == .done || status.status == .expired:
            return .finished(status: status.status, redirectURL: status.redirectUrl)
        case (.waitingForDecision, .status):
            return .waitingForDecision
        case (.notStarted, .started(let start)):
            return .document(side: .front, retakeReason: nil, attemptsLeft: 3)
        case (.document(let side, _, _), .document(let answer)) where answer.side == side:
            if answer.retake { return .document(side: side, retakeReason: answer.reason, attemptsLeft: answer.attemptsLeft) }
            if answer.next == .back { return .document(side: .back, retakeReason: nil, attemptsLeft: 3) }
            return offersChip ? .chip : .liveness(retake: false, attemptsLeft: 3)
        case (.chip, .chipUploaded), (.chip, .chipSkipped):
            return .liveness(retake: false, attemptsLeft: 3)
        case (.liveness, .liveness(let answer)):
            return answer.retake ? .liveness(retake: true, attemptsLeft: answer.attemptsLeft)
                : .selfie(retakeReason: nil, attemptsLeft: 3)
        case (.liveness, .pacedStep(let done)):
            switch done.next {
            case .selfie: return .selfie(retakeReason: nil, attemptsLeft: 3)
            case .step: return .liveness(retake: false, attemptsLeft: done.attemptsLeft)
            case .restart: return .liveness(retake: true, attemptsLeft: done.attemptsLeft)
            }
        case (.selfie, .selfie(let answer)):
            return answer.retake
                ? .selfie(retakeReason: answer.reason ?? "FACE_NOT_DETECTED", attemptsLeft: answer.attemptsLeft)
                : .readyToSubmit
        case (.readyToSubmit, .submitted):
            return .waitingForDecision
        default:
            throw BioverifyError.invalidState("\(Self.name(of: event)) does not belong at step \(step)")
        }
    }

    /// Records what `start` returned (the reducer above only moves the step).
    public mutating func remember(_ start: CaptureStart) {
        challenge = start.challenge
        locale = start.locale
        livenessMode = start.livenessMode ?? .oneShot
    }

    private static func name(of event: FlowEvent) -> String {
        switch event {
        case .started: return "start"
        case .document: return "a document upload"
        case .chipUploaded, .chipSkipped: return "the chip"
        case .liveness, .pacedStep: return "a liveness upload"
        case .selfie: return "a selfie upload"
        case .submitted: return "submit"
        case .status: return "a status"
        }
    }
}
