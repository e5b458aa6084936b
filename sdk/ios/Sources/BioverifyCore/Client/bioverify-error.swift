import Foundation

/// Every failure the SDK reports is a `BioverifyError`; nothing else escapes its public methods.
public enum BioverifyError: Error, Equatable, Sendable {
    /// The service answered with the contract's error shape (or a status without one).
    case api(APIError)
    /// The request never got an answer: no network, timeout, TLS failure.
    case network(String)
    /// The service answered something this SDK cannot read (not JSON, a missing field).
    case invalidResponse(status: Int, reason: String)
    /// The app handed the SDK something the service would refuse (caught before uploading).
    case invalidInput(String)
    /// A capture method was called at a step of the flow where it does not belong.
    case invalidState(String)
    /// The decision did not arrive within the time the caller allowed.
    case timedOut
    case cancelled
}

/// The contract's error body, `{"error": {"code", "message", "details"}, "request_id"}`, with its status.
public struct APIError: Equatable, Sendable {
    public let status: Int
    public let code: APIErrorCode
    public let message: String
    public let details: [APIErrorDetail]
    public let requestId: String?
    /// Seconds from `Retry-After`, sent with 429.
    public let retryAfter: Int?

    public init(
        status: Int, code: APIErrorCode, message: String, details: [APIErrorDetail] = [],
        requestId: String? = nil, retryAfter: Int? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.requestId = requestId
        self.retryAfter = retryAfter
    }

    /// Worth trying again later as is: the service was busy or briefly down, not the request wrong.
    public var isRetryable: Bool {
        code == .rateLimited || code == .serviceUnavailable || status >= 500
    }
}

public struct APIErrorDetail: Codable, Equatable, Sendable {
    public let field: String
    public let message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}

/// The codes of the contract's error table; a code added later still decodes, as `.other`.
public enum APIErrorCode: Equatable, Hashable, Sendable {
    case unauthorized, invalidKeyFormat, forbidden, notFound, conflict, payloadTooLarge
    case unsupportedMediaType, validationError, idempotencyKeyReused, rateLimited, internalError
    case serviceUnavailable
    case other(String)

    private static let known: [String: APIErrorCode] = [
        "UNAUTHORIZED": .unauthorized, "INVALID_KEY_FORMAT": .invalidKeyFormat, "FORBIDDEN": .forbidden,
        "NOT_FOUND": .notFound, "CONFLICT": .conflict, "PAYLOAD_TOO_LARGE": .payloadTooLarge,
        "UNSUPPORTED_MEDIA_TYPE": .unsupportedMediaType, "VALIDATION_ERROR": .validationError,
        "IDEMPOTENCY_KEY_REUSED": .idempotencyKeyReused, "RATE_LIMITED": .rateLimited,
        "INTERNAL": .internalError, "SERVICE_UNAVAILABLE": .serviceUnavailable,
    ]

    public init(rawValue: String) {
        self = Self.known[rawValue] ?? .other(rawValue)
    }

    public var rawValue: String {
        if case .other(let raw) = self { return raw }
        return Self.known.first { $0.value == self }!.key
    }

    /// The code a status implies when the body is not the contract's shape (a proxy's 502 page, say).
    static func implied(byStatus status: Int) -> APIErrorCode {
        switch status {
        case 401: return .unauthorized
        case 403: return .forbidden
        case 404: return .notFound
        case 409: return .conflict
        case 413: return .payloadTooLarge
        case 415: return .unsupportedMediaType
        case 422: return .validationError
        case 429: return .rateLimited
        case 502, 503, 504: return .serviceUnavailable
        default: return .internalError
        }
    }
}

extension APIError {
    private struct Body: Decodable {
        struct Inner: Decodable {
            let code: String
            let message: String
            let details: [APIErrorDetail]?
        }
        let error: Inner
        let request_id: String?
    }

    /// Reads an error answer. A body in the contract's shape gives its code; anything else still
    /// gives an error, with the code the status implies, so no failure passes as a success.
    static func from(_ response: HTTPResponse) -> APIError {
        let requestId = response.header("x-request-id")
        let retryAfter = response.header("retry-after").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if let body = try? JSONDecoder().decode(Body.self, from: response.body) {
            return APIError(
                status: response.status, code: APIErrorCode(rawValue: body.error.code),
                message: body.error.message, details: body.error.details ?? [],
                requestId: body.request_id ?? requestId, retryAfter: retryAfter)
        }
        return APIError(
            status: response.status, code: .implied(byStatus: response.status),
            message: "HTTP \(response.status) without an error body", requestId: requestId,
            retryAfter: retryAfter)
    }
}
