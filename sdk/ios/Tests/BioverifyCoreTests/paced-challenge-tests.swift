import Foundation
import XCTest

@testable import BioverifyCore

/// Answers by route, as the paced challenge's number of chunk uploads depends on timing.
final class RoutingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var reveals: [HTTPResponse]
    private var completions: [HTTPResponse]
    private(set) var requests: [HTTPRequest] = []

    init(reveals: [HTTPResponse], completions: [HTTPResponse]) {
        self.reveals = reveals
        self.completions = completions
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse { try answer(request) }

    private func answer(_ request: HTTPRequest) throws -> HTTPResponse {
        lock.lock()
        defer { lock.unlock() }
        requests.append(request)
        let path = request.url.path
        if path.hasSuffix("/start") { return json(200, started.replacingOccurrences(of: #""locale""#, with: #""liveness_mode":"paced","locale""#)) }
        if path.hasSuffix("/document/front") { return json(200, documentAnswer("front", next: "liveness")) }
        if path.hasSuffix("/liveness/steps") { return reveals.removeFirst() }
        if path.hasSuffix("/frames") { return json(200, #"{"step_id":"s","received":1,"frames_total":1,"deadline_ms":900}"#) }
        if path.hasSuffix("/complete") { return completions.removeFirst() }
        throw BioverifyError.network("no route for \(path)")
    }
}

/// A camera at `fps` on the real clock, handing over what it captured since the last call.
final class ClockCamera: PacedFrameSource, @unchecked Sendable {
    private let origin = Date()
    private let lock = NSLock()
    private var taken = 0
    let fps: Int

    init(fps: Int) { self.fps = fps }

    func nowMs() -> Int { Int(Date().timeIntervalSince(origin) * 1000) }

    func takeNewFrames() async -> [LivenessFrame] { take() }

    private func take() -> [LivenessFrame] {
        lock.lock()
        defer { lock.unlock() }
        let now = nowMs(), interval = 1000 / fps
        let frames = stride(from: taken, through: now, by: interval).map { LivenessFrame(timestampMs: $0, jpeg: Data([0xFF, 0xD8, 1])) }
        taken = (frames.last?.timestampMs ?? taken - interval) + interval
        return frames
    }
}

func pacedStep(_ id: String, index: Int, kind: String = "HOLD_POSE", maxPerChunk: Int = 4, maxPerStep: Int = 60) -> HTTPResponse {
    json(201, #"""
    {"challenge_id":"pch_1","step_id":"\#(id)","index":\#(index),"count":2,"kind":"\#(kind)","target":{"yaw":-21.4,"pitch":6.2},
     "tolerance_deg":8,"hold_ms":600,"revealed_at":"2030-01-01T00:00:00.000Z","deadline_at":"2030-01-01T00:00:05.100Z",
     "deadline_ms":5100,"limits":{"max_frames_per_chunk":\#(maxPerChunk),"max_frames_per_step":\#(maxPerStep),
     "max_chunks_per_step":12,"max_frame_age_ms":2500,"max_frame_gap_ms":600},"attempts_left":2}
    """#)
}

func stepDone(_ id: String, next: String, left: Int = 2) -> HTTPResponse {
    json(200, #"{"step_id":"\#(id)","frames_total":6,"face_found_ratio":1,"next":"\#(next)","attempts_left":\#(left)}"#)
}

final class PacedChallengeTests: XCTestCase {
    let handoff = try! SessionHandoff(baseURL: URL(string: "https://verify.example.com")!, sessionId: "ses_0123456789abcdefghijKL")

    func testEachStepIsRevealedShownSentInChunksAsCapturedAndCompletedUntilTheSelfie() async throws {
        let transport = RoutingTransport(
            reveals: [pacedStep("stp_a", index: 0), pacedStep("stp_b", index: 1, kind: "OPEN_MOUTH")],
            completions: [stepDone("stp_a", next: "step"), stepDone("stp_b", next: "selfie")])
        let session = VerificationSession(handoff: handoff, transport: transport)
        let start = try await session.start()
        XCTAssertEqual(start.livenessMode, .paced)
        try await session.captureDocument(jpegHeader(width: 1200, height: 800), type: .passport)

        let shown = ShownSteps()
        let done = try await session.capturePacedLiveness(
            camera: ClockCamera(fps: 30), chunkIntervalMs: 60, captureWindowMs: { _ in 300 },
            onStep: { await shown.add($0.prompt(locale: "en")) })
        XCTAssertEqual(done.next, .selfie)
        let prompts = await shown.all
        XCTAssertEqual(prompts, ["Move your nose to the dot and hold", "Face the camera and open your mouth wide"])
        let step = await session.step
        XCTAssertEqual(step, .selfie(retakeReason: nil, attemptsLeft: 3))

        let paths = transport.requests.map(\.url.path).filter { $0.contains("/liveness/") }
        XCTAssertEqual(paths.first, "/v1/capture/ses_0123456789abcdefghijKL/liveness/steps")
        XCTAssertEqual(paths.last, "/v1/capture/ses_0123456789abcdefghijKL/liveness/steps/stp_b/complete")
        let chunks = transport.requests.filter { $0.url.path.hasSuffix("/frames") }
        XCTAssertGreaterThanOrEqual(chunks.filter { $0.url.path.contains("stp_a") }.count, 2, "frames go up while the step lasts")
        for chunk in chunks {
            let text = String(decoding: chunk.body ?? Data(), as: UTF8.self)
            let parts = text.components(separatedBy: "name=\"frame\"").count - 1
            XCTAssertTrue((1...4).contains(parts), "\(parts) frames in a chunk")
            XCTAssertEqual(chunk.headers["authorization"], "Bearer tok_abc")
        }
    }

    func testARestartRevealsANewChallengeAndTheFlowStaysOnLiveness() async throws {
        let transport = RoutingTransport(
            reveals: [pacedStep("stp_a", index: 0), pacedStep("stp_c", index: 0)],
            completions: [stepDone("stp_a", next: "restart", left: 1), stepDone("stp_c", next: "selfie", left: 1)])
        let session = VerificationSession(handoff: handoff, transport: transport)
        _ = try await session.start()
        try await session.captureDocument(jpegHeader(width: 1200, height: 800), type: .passport)
        let done = try await session.capturePacedLiveness(
            camera: ClockCamera(fps: 30), chunkIntervalMs: 50, captureWindowMs: { _ in 120 }, onStep: { _ in })
        XCTAssertEqual(done.stepId, "stp_c")
        XCTAssertEqual(transport.requests.filter { $0.url.path.hasSuffix("/liveness/steps") }.count, 2)
    }

    func testChunksRebaseOnTheRevealIncreaseStrictlyAndThinAFastCameraToTheStepsBudget() {
        let limits = PacedStep.Limits(maxFramesPerChunk: 3, maxFramesPerStep: 10, maxChunksPerStep: 12, maxFrameAgeMs: 2500, maxFrameGapMs: 600)
        let frames = stride(from: 900, to: 1400, by: 33).map { LivenessFrame(timestampMs: $0, jpeg: Data([1])) }
        let chunks = PacedChunking.chunks(frames, revealMs: 1000, after: nil, minGapMs: 100, limits: limits)
        let stamps = chunks.flatMap { $0.map(\.timestampMs) }
        XCTAssertEqual(stamps.first, 32)  // the frame at 1032, 32 ms after the reveal: none from before it
        XCTAssertTrue(zip(stamps, stamps.dropFirst()).allSatisfy { $1 - $0 >= 100 })
        XCTAssertTrue(chunks.allSatisfy { (1...3).contains($0.count) })
        let next = PacedChunking.chunks(frames, revealMs: 1000, after: stamps.last, minGapMs: 100, limits: limits)
        XCTAssertTrue(next.isEmpty, "frames already sent are not sent again")
    }

    func testTheCaptureWindowLeavesTheDeadlinesLastSecondAndAHalfForTheLastChunk() throws {
        let step = try JSONDecoder().decode(PacedStep.self, from: pacedStep("s", index: 0).body)
        XCTAssertEqual(step.captureWindowMs, 3600)  // 3000 to react and move + 600 held; deadline 5100
    }
}

actor ShownSteps {
    private(set) var all: [String] = []
    func add(_ prompt: String) { all.append(prompt) }
}
