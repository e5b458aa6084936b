import Foundation
import XCTest

@testable import BioverifyCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What sdk/ios/test/swift-package.test.ts hands over: the real stack's address, a sandbox key, and
/// the project's generated test applicant (document, head-motion poses, selfie) as files.
struct EndToEndFixture: Decodable {
    struct Liveness: Decodable {
        let challenge: [ChallengeStep]
        let frames: [String]
    }
    let sessionRequest: [String: JSONValue]
    let document: String
    let documentType: DocumentType
    let liveness: Liveness
    let selfie: String
    let expectedName: String

    enum CodingKeys: String, CodingKey {
        case sessionRequest = "session_request", document, documentType = "document_type", liveness, selfie
        case expectedName = "expected_name"
    }
}

/// The integrator's own server, which holds the API key: it creates the session and reads the
/// result. It is not part of the SDK (an API key never ships in an app).
struct IntegratorServer {
    let baseURL: URL
    let apiKey: String
    let transport = URLSessionTransport()

    func send(_ method: String, _ path: String, body: Data? = nil) async throws -> [String: Any] {
        var headers = ["x-api-key": apiKey]
        if body != nil { headers["content-type"] = "application/json" }
        let response = try await transport.send(
            HTTPRequest(method: method, url: baseURL.appendingPathComponent(path), headers: headers, body: body))
        guard (200..<300).contains(response.status) else { throw BioverifyError.api(.from(response)) }
        return try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
    }
}

/// Plays prerecorded head poses as a camera would: each pose held for its share of the challenge,
/// frames every 1/fps second on the challenge's clock. The closest thing to a camera on Linux; on a
/// phone, BioverifyUI's AVFoundation source delivers frames the same way.
final class ReplayFrameSource: LivenessFrameSource, @unchecked Sendable {
    let poses: [Data]
    let timeline: ChallengeTimeline
    let fps: Int
    /// The replayed frames' times, as BioverifyUI's camera logs its sample buffers' presentation times.
    let presentationTimes = PresentationTimeLog()

    init(poses: [Data], timeline: ChallengeTimeline, fps: Int) {
        self.poses = poses
        self.timeline = timeline
        self.fps = fps
    }

    func start() async throws {}

    func stop() async -> [LivenessFrame] {
        let interval = 1000 / fps
        return stride(from: 0, to: timeline.totalMs, by: interval).map { t in
            presentationTimes.record(Double(t) / 1000)
            return LivenessFrame(timestampMs: t, jpeg: poses[min(poses.count - 1, t * poses.count / timeline.totalMs)])
        }
    }
}

/// The test's own process, described honestly through the SDK's protocols: a Linux build machine, so
/// an emulator (no iPhone), its debugger read from the kernel, its loaded libraries judged by the same
/// heuristics as an app's, and no jailbreak check (the iOS file layout means nothing here).
struct ThisLinuxProcess: DeviceFacts {
    var isEmulator: Bool? { true }

    var isDebuggerAttached: Bool? {
        get throws {
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("TracerPid:") }) else { return nil }
            return line.dropFirst("TracerPid:".count).trimmingCharacters(in: .whitespaces) != "0"
        }
    }

    var isJailbroken: Bool? { nil }

    var hasHookingFramework: Bool? {
        get throws {
            let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
            let images = maps.split(separator: "\n").compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init) }
            return DeviceHeuristics.hasHookingFramework(loadedImages: images, environment: ProcessInfo.processInfo.environment)
        }
    }

    var appId: String? { "dev.bioverify.e2e" }

    var osVersion: String? {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
    }
}

/// A recording played as a camera: no lens of the device, which is what `virtual` is for.
struct ReplayCamera: CameraFacts {
    var position: CameraPosition { .unknown }
    var deviceType: String? { nil }
    var isVirtual: Bool? { true }
}

final class EndToEndTests: XCTestCase {
    struct Environment {
        let baseURL: URL
        let apiKey: String
        let fixtures: URL

        static func load() -> Environment? {
            let env = ProcessInfo.processInfo.environment
            guard let base = env["BIOVERIFY_E2E_BASE_URL"].flatMap(URL.init(string:)), let key = env["BIOVERIFY_E2E_API_KEY"],
                let dir = env["BIOVERIFY_E2E_FIXTURES"]
            else { return nil }
            return Environment(baseURL: base, apiKey: key, fixtures: URL(fileURLWithPath: dir))
        }
    }

    func environment() throws -> Environment {
        guard let env = Environment.load() else {
            // Run by sdk/ios/test/swift-package.test.ts, which starts the stack and sets these;
            // that test fails if this one did not run.
            throw XCTSkip("BIOVERIFY_E2E_BASE_URL, BIOVERIFY_E2E_API_KEY and BIOVERIFY_E2E_FIXTURES are not set")
        }
        return env
    }

    /// Drives one applicant through `VerificationSession`, as an app does, and answers the session id
    /// and its decided capture status.
    /// With `sendsIntegrity`, the SDK's signals (`ThisLinuxProcess`, the replay camera) go before submit.
    func verify(
        _ fixture: EndToEndFixture, request: [String: JSONValue], env: Environment, sendsIntegrity: Bool = false
    ) async throws -> (String, CaptureStatus, IntegritySignals?) {
        let file = { (name: String) in try Data(contentsOf: env.fixtures.appendingPathComponent(name)) }
        let integrator = IntegratorServer(baseURL: env.baseURL, apiKey: env.apiKey)
        let created = try await integrator.send("POST", "v1/sessions", body: try JSONEncoder().encode(request))
        let sessionId = try XCTUnwrap(created["session_id"] as? String)
        let verificationURL = try XCTUnwrap((created["verification_url"] as? String).flatMap(URL.init(string:)))
        XCTAssertEqual(try SessionHandoff(verificationURL: verificationURL).sessionId, sessionId)

        let session = VerificationSession(handoff: try SessionHandoff(baseURL: env.baseURL, sessionId: sessionId))
        let start = try await session.start()
        XCTAssertEqual(start.challenge, fixture.liveness.challenge)

        let document = try await session.captureDocument(file(fixture.document), type: fixture.documentType)
        XCTAssertEqual(document, try JSONDecoder().decode(DocumentAnswer.self, from: Data(
            #"{"side":"front","readable":true,"reason":null,"retake":false,"attempts_left":2,"next":"liveness"}"#.utf8)))

        let camera = ReplayFrameSource(poses: try fixture.liveness.frames.map(file), timeline: await session.timeline(), fps: 15)
        try await camera.start()
        let live = try await session.captureLiveness(await camera.stop())
        XCTAssertFalse(live.retake)
        XCTAssertGreaterThanOrEqual(live.received, FrameSelector.minFrames)
        XCTAssertGreaterThanOrEqual(live.faceFoundRatio, 0.8)

        let selfie = try await session.captureSelfie(file(fixture.selfie))
        XCTAssertEqual(selfie.faceFound, true)
        XCTAssertEqual(selfie.retake, false)

        let integrity = !sendsIntegrity ? nil
            : IntegritySignals.collect(device: ThisLinuxProcess(), camera: ReplayCamera(), frameTimes: camera.presentationTimes)
        let submitted = try await session.submit(integrity: integrity)
        XCTAssertEqual(submitted, SubmitAnswer(status: .inProgress, decision: .pending))
        let decided = try await session.awaitDecision(pollInterval: 0.25, timeout: 90)
        XCTAssertEqual(decided.decision, .done)
        let finished = await session.step
        XCTAssertEqual(finished, .finished(status: decided.status, redirectURL: decided.redirectUrl))
        return (sessionId, decided, integrity)
    }

    func loadFixture(_ env: Environment) throws -> EndToEndFixture {
        try JSONDecoder().decode(EndToEndFixture.self, from: Data(contentsOf: env.fixtures.appendingPathComponent("fixture.json")))
    }

    func testAnApplicantIsVerifiedThroughTheRealServiceAndTheIntegratorReadsVerifiedOverRest() async throws {
        let env = try environment()
        let fixture = try loadFixture(env)
        let (sessionId, decided, sent) = try await verify(fixture, request: fixture.sessionRequest, env: env, sendsIntegrity: true)
        XCTAssertEqual(decided.status, .verified)

        // The integrator's server reads the outcome with its key, as the SDK hands over to it.
        let integrator = IntegratorServer(baseURL: env.baseURL, apiKey: env.apiKey)
        let status = try await integrator.send("GET", "v1/sessions/\(sessionId)")
        XCTAssertEqual(status["status"] as? String, "VERIFIED")
        let result = try await integrator.send("GET", "v1/sessions/\(sessionId)/result")
        XCTAssertEqual((result["person"] as? [String: Any])?["name"] as? String, fixture.expectedName)

        // The server recorded what the SDK sent before submit; a sandbox session reports it and never fails on it.
        let signals = try XCTUnwrap(sent)
        let report = try await integrator.send("GET", "v1/sessions/\(sessionId)/report")
        let check = try XCTUnwrap((report["checks"] as? [String: Any])?["capture_integrity"] as? [String: Any])
        XCTAssertEqual(check["verdict"] as? String, "FAIL")
        XCTAssertEqual(check["reason"] as? String, "CAPTURE_TAMPERED")
        let evidence = try XCTUnwrap(check["integrity"] as? [String: Any])
        XCTAssertEqual(evidence["enforced"] as? Bool, false)
        let expectedFlags = ["emulator"] + (signals.device.isDebuggerAttached == true ? ["debugger_attached"] : [])
            + (signals.device.hasHookingFramework == true ? ["hooking_framework"] : []) + ["virtual_camera"]
        XCTAssertEqual(evidence["flags"] as? [String], expectedFlags)
        XCTAssertEqual(evidence["notes"] as? [String], ["uniform_intervals"], "a replay's frames are exactly 1/15 s apart")
        let recorded = try XCTUnwrap(evidence["signals"] as? [String: Any])
        XCTAssertEqual(recorded["client"] as? String, "ios")
        let native = try JSONSerialization.data(withJSONObject: try XCTUnwrap(recorded["native"]))
        let sentNative = try XCTUnwrap(JSONValue.parse(try signals.jsonBody())["native"])
        XCTAssertEqual(try JSONValue.parse(native).text, sentNative.text, "the native block as the SDK sent it")
        XCTAssertEqual(sentNative["device"]?["emulator"]?.bool, true)
        XCTAssertEqual(sentNative["device"]?["app_id"]?.string, "dev.bioverify.e2e")
        XCTAssertEqual(sentNative["camera"]?["frame_timing"]?["median_interval_ms"]?.number, 66)
        print("BIOVERIFY_E2E_VERIFIED \(sessionId)")
    }

    func testSomeoneElsesPassportFailsAsNameMismatchAndTheIntegratorReadsWhy() async throws {
        let env = try environment()
        let fixture = try loadFixture(env)
        var request = fixture.sessionRequest
        request["expected_name"] = .string("Jeanne Dupont")
        let (sessionId, decided, _) = try await verify(fixture, request: request, env: env)
        XCTAssertEqual(decided.status, .failed)
        let result = try await IntegratorServer(baseURL: env.baseURL, apiKey: env.apiKey)
            .send("GET", "v1/sessions/\(sessionId)/result")
        XCTAssertEqual(result["status"] as? String, "FAILED")
        XCTAssertEqual(result["failure_reason"] as? String, "NAME_MISMATCH")
    }

    func testTheRealServicesRefusalsReachTheAppAsTypedErrors() async throws {
        let env = try environment()
        let unknown = CaptureClient(baseURL: env.baseURL, sessionId: "ses_0000000000000000000000unknown")
        do {
            _ = try await unknown.start()
            XCTFail("an unknown session started")
        } catch BioverifyError.api(let error) {
            XCTAssertEqual(error.status, 404)
            XCTAssertEqual(error.kind, .notFound)
            XCTAssertNotNil(error.requestId)
        }

        let fixture = try JSONDecoder().decode(
            EndToEndFixture.self, from: Data(contentsOf: env.fixtures.appendingPathComponent("fixture.json")))
        let integrator = IntegratorServer(baseURL: env.baseURL, apiKey: env.apiKey)
        let created = try await integrator.send("POST", "v1/sessions", body: try JSONEncoder().encode(fixture.sessionRequest))
        let sessionId = try XCTUnwrap(created["session_id"] as? String)
        let tokenless = CaptureClient(baseURL: env.baseURL, sessionId: sessionId)
        do {
            _ = try await tokenless.submit()
            XCTFail("a submit without the capture token passed")
        } catch BioverifyError.api(let error) {
            XCTAssertEqual(error.kind, .unauthorized)
        }
        let started = CaptureClient(baseURL: env.baseURL, sessionId: sessionId)
        _ = try await started.start()
        do {
            _ = try await started.submit()
            XCTFail("a submit with nothing captured passed")
        } catch BioverifyError.api(let error) {
            XCTAssertEqual(error.kind, .conflict)
            XCTAssertFalse(error.details.isEmpty, "the conflict names each missing capture")
        }
    }
}
