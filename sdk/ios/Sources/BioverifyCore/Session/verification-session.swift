import Foundation

/// A session handed over by the integrator's server: it created the session with its API key (which
/// never ships in the app) and passed the app the `session_id`, or the `verification_url`.
public struct SessionHandoff: Equatable, Sendable {
    public let baseURL: URL
    public let sessionId: String

    public init(baseURL: URL, sessionId: String) throws {
        guard sessionId.hasPrefix("ses_"), sessionId.count >= 26,
            sessionId.dropFirst(4).allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { throw BioverifyError.invalidInput("not a session id: \(sessionId)") }
        guard baseURL.scheme == "https" || baseURL.scheme == "http", baseURL.host != nil else {
            throw BioverifyError.invalidInput("the base URL must be http(s) with a host")
        }
        self.baseURL = baseURL
        self.sessionId = sessionId
    }

    /// From a `verification_url` (`https://host/v/ses_…`, or the phone page `/c/ses_…`).
    public init(verificationURL: URL) throws {
        let parts = verificationURL.pathComponents
        guard parts.count >= 3, ["v", "c"].contains(parts[parts.count - 2]),
            var components = URLComponents(url: verificationURL, resolvingAgainstBaseURL: false)
        else { throw BioverifyError.invalidInput("not a verification URL: \(verificationURL)") }
        components.path = "/" + parts.dropFirst().dropLast(2).joined(separator: "/")
        if components.path == "/" { components.path = "" }
        components.query = nil
        components.fragment = nil
        guard let base = components.url else { throw BioverifyError.invalidInput("not a verification URL") }
        try self.init(baseURL: base, sessionId: parts[parts.count - 1])
    }
}

/// Drives one applicant's capture: each method uploads one capture and moves the flow; the UI
/// reads `step` to know what to show. Platform pieces (camera, chip reader, JPEG encoder) are
/// passed in, so the same session runs from the SwiftUI flow, an app's own UI, or a test.
public actor VerificationSession {
    public nonisolated let client: CaptureClient
    public private(set) var flow: VerificationFlow
    public private(set) var documentType: DocumentType = .passport
    private let encoder: ImageEncoder?

    public init(handoff: SessionHandoff, transport: HTTPTransport = URLSessionTransport(), encoder: ImageEncoder? = nil, offersChip: Bool = false) {
        client = CaptureClient(baseURL: handoff.baseURL, sessionId: handoff.sessionId, transport: transport)
        flow = VerificationFlow(offersChip: offersChip)
        self.encoder = encoder
    }

    public var step: FlowStep { flow.step }

    public func start() async throws -> CaptureStart {
        try ensure(flow.step == .notStarted, "start")
        let started = try await client.start()
        flow.remember(started)
        try flow.apply(.started(started))
        return started
    }

    /// The timeline to show the challenge with, once started.
    public func timeline(leadInMs: Int = 1000, stepMs: Int = 2000) -> ChallengeTimeline {
        ChallengeTimeline(steps: flow.challenge, leadInMs: leadInMs, stepMs: stepMs)
    }

    @discardableResult
    public func captureDocument(_ image: Data, type: DocumentType) async throws -> DocumentAnswer {
        guard case .document(let side, _, _) = flow.step else { throw stateError("a document") }
        let prepared = try ImagePreparation.prepare(image, limits: .document, encoder: encoder)
        documentType = type
        if type != .passport { flow.offersChip = false }
        let answer = try await client.uploadDocument(side: side, type: type, image: prepared)
        try flow.apply(.document(answer))
        return answer
    }

    /// Reads the chip with `reader` and uploads what it read, with Active Authentication over a
    /// fresh server challenge.
    @discardableResult
    public func readChip(with reader: PassportChipReader, accessKey: ChipAccessKey) async throws -> ChipAnswer {
        guard flow.step == .chip else { throw stateError("the chip") }
        let challenge = try await client.chipChallenge()
        guard let bytes = challenge.bytes, bytes.count == 8 else {
            throw BioverifyError.invalidResponse(status: 200, reason: "the chip challenge is not 8 bytes of base64")
        }
        let reading = try await reader.read(accessKey: accessKey, activeAuthenticationChallenge: bytes)
        let answer = try await client.uploadChip(reading)
        try flow.apply(.chipUploaded)
        return answer
    }

    public func skipChip() throws {
        guard flow.step == .chip else { throw stateError("skipping the chip") }
        try flow.apply(.chipSkipped)
    }

    /// Uploads the frames the camera delivered during the challenge, after choosing among them.
    @discardableResult
    public func captureLiveness(_ frames: [LivenessFrame], timeline: ChallengeTimeline? = nil) async throws -> LivenessAnswer {
        guard case .liveness = flow.step else { throw stateError("liveness frames") }
        let selector = FrameSelector(timeline: timeline ?? self.timeline())
        var chosen: [LivenessFrame] = []
        for frame in try selector.select(frames) {
            let prepared = try ImagePreparation.prepare(frame.jpeg, limits: .livenessFrame, encoder: encoder)
            chosen.append(LivenessFrame(timestampMs: frame.timestampMs, jpeg: prepared.data))
        }
        let answer = try await client.uploadLiveness(frames: chosen)
        try flow.apply(.liveness(answer))
        return answer
    }

    /// The server-paced challenge (`livenessMode == .paced`, production keys; sandbox sessions may
    /// use it too): reveals each step, lets the UI show it (`onStep`), sends the camera's frames in
    /// chunks every `chunkIntervalMs` while the step's capture window lasts, completes the step and
    /// goes on as the server says (`step`, `restart`, `selfie`). Returns the last completion.
    @discardableResult
    public func capturePacedLiveness(
        camera: PacedFrameSource, chunkIntervalMs: Int = 400, captureWindowMs: (@Sendable (PacedStep) -> Int)? = nil,
        onStep: @Sendable (PacedStep) async -> Void
    ) async throws -> PacedStepDone {
        guard case .liveness = flow.step else { throw stateError("paced liveness") }
        while true {
            let step = try await client.revealPacedStep()
            let revealMs = camera.nowMs()
            guard ["HOLD_POSE", "OPEN_MOUTH"].contains(step.kind) else {
                throw BioverifyError.invalidResponse(status: 201, reason: "a paced step of kind \(step.kind); update the SDK")
            }
            await onStep(step)
            let window = captureWindowMs?(step) ?? step.captureWindowMs
            let minGap = (window + step.limits.maxFramesPerStep - 1) / max(1, step.limits.maxFramesPerStep)
            _ = await camera.takeNewFrames()  // frames from before the reveal are not this step's
            var lastSent: Int?
            var framesSent = 0, chunksSent = 0
            var windowOpen = true
            while windowOpen {
                do { try await Task.sleep(nanoseconds: UInt64(chunkIntervalMs) * 1_000_000) } catch { throw BioverifyError.cancelled }
                windowOpen = camera.nowMs() - revealMs < window
                let chunks = PacedChunking.chunks(
                    await camera.takeNewFrames(), revealMs: revealMs, after: lastSent, minGapMs: minGap, limits: step.limits)
                for chunk in chunks
                where framesSent + chunk.count <= step.limits.maxFramesPerStep && chunksSent < step.limits.maxChunksPerStep {
                    _ = try await client.uploadPacedFrames(stepId: step.stepId, frames: chunk)
                    lastSent = chunk.last?.timestampMs
                    framesSent += chunk.count
                    chunksSent += 1
                }
            }
            let done = try await client.completePacedStep(stepId: step.stepId)
            try flow.apply(.pacedStep(done))
            if done.next == .selfie { return done }
        }
    }

    @discardableResult
    public func captureSelfie(_ image: Data) async throws -> SelfieAnswer {
        guard case .selfie = flow.step else { throw stateError("a selfie") }
        let prepared = try ImagePreparation.prepare(image, limits: .selfie, encoder: encoder)
        let answer = try await client.uploadSelfie(image: prepared)
        try flow.apply(.selfie(answer))
        return answer
    }

    /// Ends capture. `integrity` (collected after the selfie) is sent first; a refusal of it never
    /// stops the applicant (see `send(_:)`).
    @discardableResult
    public func submit(integrity: IntegritySignals? = nil) async throws -> SubmitAnswer {
        try ensure(flow.step == .readyToSubmit, "submit")
        if let integrity { try await send(integrity) }
        let answer = try await client.submit()
        try flow.apply(.submitted)
        return answer
    }

    /// Waits for the decision; the app then hands over to its server, which reads the result with
    /// its API key (the device only learns VERIFIED / FAILED and the redirect).
    public func awaitDecision(pollInterval: Double = 1, timeout: Double = 120) async throws -> CaptureStatus {
        let status = try await client.waitForDecision(pollInterval: pollInterval, timeout: timeout)
        try flow.apply(.status(status))
        return status
    }

    /// As the Android SDK does: a 4xx (a sixth upload, a field the server refuses) is dropped and the
    /// check is NOT_PERFORMED; no answer or a 5xx throws like any capture call, the step stays
    /// `readyToSubmit` with every capture kept on the server, and a later `submit` sends the signals again.
    private func send(_ integrity: IntegritySignals) async throws {
        do {
            _ = try await client.uploadIntegrity(integrity)
        } catch BioverifyError.api(let refusal) where (400..<500).contains(refusal.status) {
            return
        }
    }

    private func ensure(_ condition: Bool, _ what: String) throws {
        if !condition { throw stateError(what) }
    }

    private func stateError(_ what: String) -> BioverifyError {
        .invalidState("\(what) does not belong at step \(flow.step)")
    }
}
