import Foundation

// The capture API's answers, as /docs/openapi.json defines them (snake_case on the wire).

public enum DocumentType: String, Codable, CaseIterable, Sendable {
    case passport, idCard = "id_card", drivingLicence = "driving_licence", residencePermit = "residence_permit"
}

public enum DocumentSide: String, Codable, Sendable {
    case front, back
}

public enum SessionStatus: String, Codable, Sendable {
    case pending = "PENDING", inProgress = "IN_PROGRESS", verified = "VERIFIED", failed = "FAILED"
    case expired = "EXPIRED"
}

public enum DecisionState: String, Codable, Sendable {
    case none, pending, done
}

public struct CaptureStart: Codable, Equatable, Sendable {
    public let captureToken: String
    /// The one-shot challenge (sandbox); empty for a paced session.
    public let challenge: [ChallengeStep]
    /// Absent from servers older than the paced challenge: then one-shot.
    public let livenessMode: LivenessMode?
    public let documentTypes: [DocumentType]
    public let expiresAt: String
    public let locale: String

    enum CodingKeys: String, CodingKey {
        case captureToken = "capture_token", challenge, livenessMode = "liveness_mode", documentTypes = "document_types"
        case expiresAt = "expires_at", locale
    }
}

public struct DocumentAnswer: Codable, Equatable, Sendable {
    public enum Next: String, Codable, Sendable { case back, liveness }

    public let side: DocumentSide
    public let readable: Bool
    /// `DOCUMENT_UNREADABLE`, `DOCUMENT_INVALID` or `DOCUMENT_EXPIRED`; null when read.
    public let reason: String?
    public let retake: Bool
    public let attemptsLeft: Int
    public let next: Next?

    enum CodingKeys: String, CodingKey {
        case side, readable, reason, retake, attemptsLeft = "attempts_left", next
    }
}

public struct LivenessAnswer: Codable, Equatable, Sendable {
    public let received: Int
    public let faceFoundRatio: Double
    public let retake: Bool
    public let attemptsLeft: Int

    enum CodingKeys: String, CodingKey {
        case received, faceFoundRatio = "face_found_ratio", retake, attemptsLeft = "attempts_left"
    }
}

public struct SelfieAnswer: Codable, Equatable, Sendable {
    public let faceFound: Bool
    public let retake: Bool
    /// `FACE_NOT_DETECTED` or `FACE_TOO_CLOSE` when a retake is asked for.
    public let reason: String?
    public let attemptsLeft: Int

    enum CodingKeys: String, CodingKey {
        case faceFound = "face_found", retake, reason, attemptsLeft = "attempts_left"
    }
}

public struct SubmitAnswer: Codable, Equatable, Sendable {
    public let status: SessionStatus
    public let decision: DecisionState
}

public struct CaptureStatus: Codable, Equatable, Sendable {
    public let status: SessionStatus
    public let decision: DecisionState
    /// The session's `return_url` with `session_id` and `status`, once decided.
    public let redirectUrl: String?
    /// Each capture's state (`missing`, `retake`, `captured`, `not_required`); only with the token.
    public let steps: [String: String]?

    enum CodingKeys: String, CodingKey {
        case status, decision, redirectUrl = "redirect_url", steps
    }
}

/// `PUT /integrity`'s answer: recorded for the decision, nothing more.
public struct IntegrityReceipt: Codable, Equatable, Sendable {
    public let recorded: Bool
}
