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
    /// What the app should do about it, from the code (or the status when the body is not the contract's).
    public let kind: APIErrorKind
    /// The contract's `code` (`VALIDATION_ERROR`…), or nil when the body was not the contract's shape.
    public let code: String?
    public let message: String
    public let details: [APIErrorDetail]
    /// The body's `request_id`, else the `X-Request-Id` header: quote it to the operator.
    public let requestId: String?
    /// `Retry-After` in whole seconds (an HTTP-date converted, at least 0), or nil.
    public let retryAfter: Int?

    public init(
        status: Int, kind: APIErrorKind, code: String?, message: String, details: [APIErrorDetail] = [],
        requestId: String? = nil, retryAfter: Int? = nil
    ) {
        self.status = status
        self.kind = kind
        self.code = code
        self.message = message
        self.details = details
        self.requestId = requestId
        self.retryAfter = retryAfter
    }

    /// Worth trying again later as is: the service was busy or briefly down, not the request wrong.
    public var isRetryable: Bool { kind == .rateLimited || kind == .server }
}

public struct APIErrorDetail: Codable, Equatable, Sendable {
    public let field: String
    public let message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}

/// The typed client error of the shared contract vectors (sdk/contract-vectors/errors.json), the
/// same on iOS and Android.
public enum APIErrorKind: String, Equatable, Sendable, CaseIterable {
    case unauthorized, forbidden, notFound = "not_found", conflict, payloadTooLarge = "payload_too_large"
    case unsupportedMediaType = "unsupported_media_type", validation, rateLimited = "rate_limited", server
    /// A 4xx without the contract's body or with a code this SDK does not know.
    case unexpected

    private static let byCode: [String: APIErrorKind] = [
        "UNAUTHORIZED": .unauthorized, "INVALID_KEY_FORMAT": .unauthorized, "FORBIDDEN": .forbidden,
        "NOT_FOUND": .notFound, "CONFLICT": .conflict, "PAYLOAD_TOO_LARGE": .payloadTooLarge,
        "UNSUPPORTED_MEDIA_TYPE": .unsupportedMediaType, "VALIDATION_ERROR": .validation,
        "IDEMPOTENCY_KEY_REUSED": .validation, "RATE_LIMITED": .rateLimited, "INTERNAL": .server,
        "SERVICE_UNAVAILABLE": .server,
    ]

    /// The kind of a contract code; an unknown code or no code falls back on the status.
    public static func of(code: String?, status: Int) -> APIErrorKind {
        if let code, let kind = byCode[code] { return kind }
        return status >= 500 ? .server : .unexpected
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
    /// gives an error (`server` for 5xx, `unexpected` otherwise), so no failure passes as a success.
    public static func from(_ response: HTTPResponse, now: Date = Date()) -> APIError {
        let headerId = response.header("x-request-id")
        let retryAfter = response.header("retry-after").flatMap { retryAfterSeconds($0, now: now) }
        if let body = try? JSONDecoder().decode(Body.self, from: response.body) {
            return APIError(
                status: response.status, kind: .of(code: body.error.code, status: response.status),
                code: body.error.code, message: body.error.message, details: body.error.details ?? [],
                requestId: body.request_id ?? headerId, retryAfter: retryAfter)
        }
        return APIError(
            status: response.status, kind: .of(code: nil, status: response.status), code: nil,
            message: "HTTP \(response.status) without the contract's error body", requestId: headerId,
            retryAfter: retryAfter)
    }

    /// `Retry-After` as delta-seconds or an HTTP-date (RFC 9110), in whole seconds from `now`.
    static func retryAfterSeconds(_ value: String, now: Date) -> Int? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text) { return seconds >= 0 ? seconds : nil }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = format.date(from: text) else { return nil }
        return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
    }
}
