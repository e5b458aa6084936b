import Foundation

/// The capture API of one session (`/v1/capture/{session_id}`), as a device uses it. It takes no
/// API key: the session id is the capability, and `start()` returns the capture token that binds
/// the session to this device; every later call sends it.
public actor CaptureClient {
    public nonisolated let baseURL: URL
    public nonisolated let sessionId: String
    private let transport: HTTPTransport
    private let decoder = JSONDecoder()
    public private(set) var captureToken: String?

    public init(baseURL: URL, sessionId: String, transport: HTTPTransport = URLSessionTransport(), captureToken: String? = nil) {
        self.baseURL = baseURL
        self.sessionId = sessionId
        self.transport = transport
        self.captureToken = captureToken
    }

    /// Starts (or, with the token already held, resumes) capture; keeps the token for later calls.
    public func start() async throws -> CaptureStart {
        let answer: CaptureStart = try await call("POST", "/start")
        captureToken = answer.captureToken
        return answer
    }

    public func uploadDocument(side: DocumentSide, type: DocumentType, image: PreparedImage) async throws -> DocumentAnswer {
        try await call(
            "PUT", "/document/\(side.rawValue)", query: [URLQueryItem(name: "type", value: type.rawValue)],
            body: image.data, contentType: image.contentType)
    }

    /// The one-shot liveness upload (sandbox sessions): frames in capture order, timestamps in ms
    /// since the challenge started.
    public func uploadLiveness(frames: [LivenessFrame], boundary: String? = nil) async throws -> LivenessAnswer {
        let body = try Self.livenessBody(frames: frames, boundary: boundary)
        return try await call("POST", "/liveness", body: body.finished(), contentType: body.contentType)
    }

    /// The paced challenge (production sessions): reveals the next step, drawn now.
    public func revealPacedStep() async throws -> PacedStep {
        try await call("POST", "/liveness/steps")
    }

    /// One chunk of a paced step's frames, timestamps in ms since the step's reveal was received.
    public func uploadPacedFrames(stepId: String, frames: [LivenessFrame], boundary: String? = nil) async throws -> PacedChunkAnswer {
        guard !frames.isEmpty else { throw BioverifyError.invalidInput("a chunk needs at least one frame") }
        let body = try Self.framesBody(frames: frames, boundary: boundary)
        return try await call("POST", "/liveness/steps/\(stepId)/frames", body: body.finished(), contentType: body.contentType)
    }

    public func completePacedStep(stepId: String) async throws -> PacedStepDone {
        try await call("POST", "/liveness/steps/\(stepId)/complete")
    }

    public func uploadSelfie(image: PreparedImage) async throws -> SelfieAnswer {
        try await call("PUT", "/selfie", body: image.data, contentType: image.contentType)
    }

    public func chipChallenge() async throws -> ChipChallenge {
        try await call("POST", "/chip/challenge")
    }

    public func uploadChip(_ reading: ChipReading) async throws -> ChipAnswer {
        try await call("PUT", "/document/chip", body: try reading.uploadBody(), contentType: "application/json")
    }

    /// The device's integrity signals (docs/capture-integrity.md); the receipt never says how they were judged.
    public func uploadIntegrity(_ signals: IntegritySignals) async throws -> IntegrityReceipt {
        try await call("PUT", "/integrity", body: try signals.jsonBody(), contentType: "application/json")
    }

    public func submit() async throws -> SubmitAnswer {
        try await call("POST", "/submit")
    }

    public func status() async throws -> CaptureStatus {
        try await call("GET", "")
    }

    /// Polls the status until the decision is done, or throws `.timedOut` after `timeout` seconds.
    public func waitForDecision(pollInterval: Double = 1, timeout: Double = 120) async throws -> CaptureStatus {
        let until = Date().addingTimeInterval(timeout)
        while true {
            let current = try await status()
            if current.decision == .done || current.status == .expired { return current }
            if Date() >= until { throw BioverifyError.timedOut }
            do {
                try await Task.sleep(nanoseconds: UInt64(pollInterval * 1_000_000_000))
            } catch {
                throw BioverifyError.cancelled
            }
        }
    }

    /// The multipart body of the one-shot liveness upload, checked the way the service checks it.
    public static func livenessBody(frames: [LivenessFrame], boundary: String? = nil) throws -> MultipartBody {
        guard (FrameSelector.minFrames...FrameSelector.maxFrames).contains(frames.count) else {
            throw BioverifyError.invalidInput(
                "\(frames.count) frames; the service takes \(FrameSelector.minFrames) to \(FrameSelector.maxFrames)")
        }
        return try framesBody(frames: frames, boundary: boundary)
    }

    /// Frame parts in order, then the timestamps (the framing of sdk/contract-vectors/multipart.json).
    static func framesBody(frames: [LivenessFrame], boundary: String?) throws -> MultipartBody {
        guard zip(frames, frames.dropFirst()).allSatisfy({ $0.timestampMs < $1.timestampMs }) else {
            throw BioverifyError.invalidInput("frame timestamps must increase")
        }
        var body = MultipartBody(boundary: boundary)
        for (index, frame) in frames.enumerated() {
            body.addFile(name: "frame", filename: "frame-\(index).jpg", contentType: "image/jpeg", content: frame.jpeg)
        }
        body.addField(name: "timestamps", value: "[" + frames.map { String($0.timestampMs) }.joined(separator: ",") + "]")
        return body
    }

    /// The request a call makes (public so the contract vectors can compare it byte for byte).
    public func request(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil, contentType: String? = nil
    ) throws -> HTTPRequest {
        var components = URLComponents(
            url: baseURL.appendingPathComponent("v1/capture/\(sessionId)\(path)"), resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query }
        guard let url = components?.url else { throw BioverifyError.invalidInput("bad base URL \(baseURL)") }
        var headers = ["accept": "application/json"]
        if let contentType { headers["content-type"] = contentType }
        if let captureToken { headers["authorization"] = "Bearer \(captureToken)" }
        return HTTPRequest(method: method, url: url, headers: headers, body: body)
    }

    private func call<Answer: Decodable>(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil, contentType: String? = nil
    ) async throws -> Answer {
        let response = try await transport.send(try request(method, path, query: query, body: body, contentType: contentType))
        return try Self.decode(response, decoder: decoder)
    }

    /// A 2xx answer decoded as `Answer`; any other status as the contract's error.
    public static func decode<Answer: Decodable>(_ response: HTTPResponse, decoder: JSONDecoder = JSONDecoder()) throws -> Answer {
        guard (200..<300).contains(response.status) else { throw BioverifyError.api(.from(response)) }
        do {
            return try decoder.decode(Answer.self, from: response.body)
        } catch {
            throw BioverifyError.invalidResponse(status: response.status, reason: "unreadable \(Answer.self): \(error)")
        }
    }
}
