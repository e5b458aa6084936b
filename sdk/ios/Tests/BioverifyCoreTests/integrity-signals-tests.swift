import XCTest

@testable import BioverifyCore

/// Platform facts as a test states them, so the JSON the core builds from them is exact.
struct StatedDevice: DeviceFacts {
    var isEmulator: Bool? = false
    var isDebuggerAttached: Bool? = false
    var isJailbroken: Bool? = false
    var hasHookingFramework: Bool? = false
    var appId: String? = "com.example.bank"
    var osVersion: String? = "17.4.1"
}

struct StatedCamera: CameraFacts {
    var position: CameraPosition = .front
    var deviceType: String? = "AVCaptureDeviceTypeBuiltInWideAngleCamera"
    var isVirtual: Bool? = nil
}

struct StatedFrameTimes: FrameTimestampSource {
    let seconds: [TimeInterval]
    func presentationTimes() -> [TimeInterval] { seconds }
}

/// A jailbreak check that cannot read what it needs.
struct SandboxedProbeDevice: DeviceFacts {
    struct Refused: Error {}
    var isEmulator: Bool? { false }
    var isDebuggerAttached: Bool? { get throws { throw Refused() } }
    var isJailbroken: Bool? { get throws { throw Refused() } }
    var hasHookingFramework: Bool? { nil }
    var appId: String? { "com.example.bank" }
    var osVersion: String? { nil }
}

final class IntegritySignalsTests: XCTestCase {
    func body(_ signals: IntegritySignals) throws -> String { String(decoding: try signals.jsonBody(), as: UTF8.self) }

    func testTheDeviceAndCameraFactsBecomeTheRoutesBodyWebMembersNullAndTheNativeBlockExact() throws {
        let signals = IntegritySignals.collect(
            device: StatedDevice(isEmulator: true), camera: StatedCamera(),
            frameTimes: StatedFrameTimes(seconds: [0, 0.033, 0.0665, 0.1]))
        XCTAssertEqual(
            try body(signals),
            #"{"camera_label":null,"client":"ios","constraint_probe":null,"frame_timing":null,"native":{"#
                + #""camera":{"device_type":"AVCaptureDeviceTypeBuiltInWideAngleCamera","frame_timing":{"frames":4,"#
                + #""jitter_ms":0.24,"median_interval_ms":33.5,"source":"presentation_time"},"position":"front","virtual":null},"#
                + #""device":{"app_id":"com.example.bank","debugger_attached":false,"emulator":true,"hooking_framework":false,"#
                + #""os_version":"17.4.1","rooted_or_jailbroken":false,"sdk_version":"0.1.0"}},"renderer":null,"webdriver":null}"#)
    }

    func testAProbeThatThrowsIsSentAsUnknownAndNoCameraSendsANullCamera() throws {
        let signals = IntegritySignals.collect(device: SandboxedProbeDevice(), camera: nil, frameTimes: StatedFrameTimes(seconds: [0, 1]))
        XCTAssertEqual(signals.device.isDebuggerAttached, nil)
        XCTAssertEqual(signals.device.isJailbroken, nil)
        let native = try XCTUnwrap(JSONValue.parse(try signals.jsonBody())["native"])
        XCTAssertEqual(
            native.text,
            #"{"camera":null,"device":{"app_id":"com.example.bank","debugger_attached":null,"emulator":false,"#
                + #""hooking_framework":null,"os_version":null,"rooted_or_jailbroken":null,"sdk_version":"0.1.0"}}"#)
    }

    func testACameraWithoutFrameTimesSendsNullTimingAndAnExternalCameraSaysSo() throws {
        let signals = IntegritySignals.collect(device: StatedDevice(), camera: StatedCamera(position: .external, deviceType: nil))
        let camera = try XCTUnwrap(JSONValue.parse(try signals.jsonBody())["native"]?["camera"])
        XCTAssertEqual(camera.text, #"{"device_type":null,"frame_timing":null,"position":"external","virtual":null}"#)
    }

    func testStringsAreCutToTheServersLimitsCountedAsItCountsThem() throws {
        let long = IntegritySignals.collect(
            device: StatedDevice(appId: String(repeating: "a", count: 127) + "é€", osVersion: String(repeating: "9", count: 40)),
            camera: StatedCamera(deviceType: String(repeating: "t", count: 70)))
        let native = try XCTUnwrap(JSONValue.parse(try long.jsonBody())["native"])
        XCTAssertEqual(native["device"]?["app_id"]?.string, String(repeating: "a", count: 127) + "é")
        XCTAssertEqual(native["device"]?["os_version"]?.string?.count, 32)
        XCTAssertEqual(native["camera"]?["device_type"]?.string?.count, 64)
        XCTAssertEqual(IntegritySignals.clip("ab😀", to: 3), "ab", "a character is never split")
    }

    func testFrameTimingIsTheMedianIntervalAndTheStandardDeviationEvenIntervalsGivingZeroJitter() {
        XCTAssertEqual(
            FrameTimingSummary(presentationTimes: (0...4).map { Double($0) * 0.03333 }),
            FrameTimingSummary(frames: 5, medianIntervalMs: 33.33, jitterMs: 0))
        XCTAssertEqual(
            FrameTimingSummary(presentationTimes: [0, 0.030, 0.070, 0.100, 0.140]),
            FrameTimingSummary(frames: 5, medianIntervalMs: 35, jitterMs: 5))
        XCTAssertEqual(FrameTimingSummary(presentationTimes: [5]), FrameTimingSummary(frames: 1, medianIntervalMs: nil, jitterMs: nil))
        XCTAssertEqual(FrameTimingSummary(presentationTimes: []), FrameTimingSummary(frames: 0, medianIntervalMs: nil, jitterMs: nil))
    }

    func testAnInvalidTimeIsNoFrameAndAnIntervalRunningBackwardsIsLeftOut() {
        XCTAssertEqual(
            FrameTimingSummary(presentationTimes: [0, .nan, 0.04, 0.02, 0.06]),
            FrameTimingSummary(frames: 4, medianIntervalMs: 40, jitterMs: 0))
    }

    func testThePresentationTimeLogKeepsOnlyTheLatestFrames() {
        let log = PresentationTimeLog(capacity: 3)
        for frame in 0..<5 { log.record(Double(frame) / 30) }
        XCTAssertEqual(log.presentationTimes(), [2.0 / 30, 3.0 / 30, 4.0 / 30])
        XCTAssertEqual(PresentationTimeLog().capacity, 120)
    }
}

final class DeviceHeuristicsTests: XCTestCase {
    func testAJailbreakShowsByItsFilesOrByAWriteOutsideTheSandbox() {
        XCTAssertFalse(DeviceHeuristics.isJailbroken(pathExists: { _ in false }, wroteOutsideSandbox: false))
        XCTAssertTrue(DeviceHeuristics.isJailbroken(pathExists: { $0 == "/Applications/Cydia.app" }, wroteOutsideSandbox: false))
        XCTAssertTrue(DeviceHeuristics.isJailbroken(pathExists: { $0 == "/var/jb" }, wroteOutsideSandbox: false), "rootless")
        XCTAssertTrue(DeviceHeuristics.isJailbroken(pathExists: { _ in false }, wroteOutsideSandbox: true))
    }

    func testHookingShowsByAFridaOrSubstrateImageOrByLibrariesInjectedThroughTheEnvironment() {
        let app = ["/usr/lib/dyld", "/var/containers/Bundle/Application/X/Bank.app/Bank", "/System/Library/Frameworks/AVFoundation.framework/AVFoundation"]
        XCTAssertFalse(DeviceHeuristics.hasHookingFramework(loadedImages: app, environment: [:]))
        XCTAssertTrue(DeviceHeuristics.hasHookingFramework(loadedImages: app + ["/private/var/containers/Bundle/Application/X/Bank.app/Frameworks/FridaGadget.dylib"], environment: [:]))
        XCTAssertTrue(DeviceHeuristics.hasHookingFramework(loadedImages: app + ["/Library/MobileSubstrate/MobileSubstrate.dylib"], environment: [:]))
        XCTAssertTrue(DeviceHeuristics.hasHookingFramework(loadedImages: app + ["/var/jb/usr/lib/libellekit.dylib"], environment: [:]))
        XCTAssertTrue(DeviceHeuristics.hasHookingFramework(loadedImages: app, environment: ["DYLD_INSERT_LIBRARIES": "/tmp/hook.dylib"]))
        XCTAssertFalse(DeviceHeuristics.hasHookingFramework(loadedImages: app, environment: ["DYLD_INSERT_LIBRARIES": ""]))
    }
}

final class IntegrityUploadTests: XCTestCase {
    let handoff = try! SessionHandoff(baseURL: URL(string: "https://verify.example.com")!, sessionId: "ses_0123456789abcdefghijKL")
    let signals = IntegritySignals.collect(device: StatedDevice(), camera: StatedCamera())
    let submitted = json(202, #"{"status":"IN_PROGRESS","decision":"pending"}"#)

    /// A session at `readyToSubmit` (document, liveness, selfie answered), then `answers` for what follows.
    func sessionReadyToSubmit(then answers: [HTTPResponse]) async throws -> (VerificationSession, RecordingTransport) {
        let transport = RecordingTransport(
            [
                json(200, started), json(200, documentAnswer("front", next: "liveness")),
                json(200, #"{"received":20,"face_found_ratio":1,"retake":false,"attempts_left":2}"#),
                json(200, #"{"face_found":true,"retake":false,"reason":null,"attempts_left":2}"#),
            ] + answers)
        let session = VerificationSession(handoff: handoff, transport: transport)
        _ = try await session.start()
        try await session.captureDocument(jpegHeader(width: 1200, height: 800), type: .passport)
        let frames = stride(from: 0, to: 7000, by: 100).map { LivenessFrame(timestampMs: $0, jpeg: jpegHeader(width: 640, height: 480)) }
        try await session.captureLiveness(frames)
        try await session.captureSelfie(jpegHeader(width: 960, height: 1280))
        let step = await session.step
        XCTAssertEqual(step, .readyToSubmit)
        return (session, transport)
    }

    func testSubmitPutsTheSignalsAsJSONWithTheCaptureTokenFirst() async throws {
        let (session, transport) = try await sessionReadyToSubmit(then: [json(200, #"{"recorded":true}"#), submitted])
        try await session.submit(integrity: signals)
        let integrity = transport.requests[4]
        XCTAssertEqual(integrity.method, "PUT")
        XCTAssertEqual(integrity.url.absoluteString, "https://verify.example.com/v1/capture/ses_0123456789abcdefghijKL/integrity")
        XCTAssertEqual(integrity.headers["content-type"], "application/json")
        XCTAssertEqual(integrity.headers["authorization"], "Bearer tok_abc")
        XCTAssertEqual(integrity.body, try signals.jsonBody())
        XCTAssertEqual(transport.requests[5].url.path, "/v1/capture/ses_0123456789abcdefghijKL/submit")
        let step = await session.step
        XCTAssertEqual(step, .waitingForDecision)
    }

    func testARefusedUploadNeverStopsTheApplicantTheCaptureIsSubmitted() async throws {
        let refused = json(422, #"{"error":{"code":"VALIDATION_ERROR","message":"bad","details":[{"field":"native.device.app_id","message":"too long"}]},"request_id":"r"}"#)
        let (session, transport) = try await sessionReadyToSubmit(then: [refused, submitted])
        let answer = try await session.submit(integrity: signals)
        XCTAssertEqual(answer, SubmitAnswer(status: .inProgress, decision: .pending))
        XCTAssertEqual(transport.requests.map(\.url.lastPathComponent).suffix(2), ["integrity", "submit"])
    }

    func testNoAnswerToTheUploadThrowsAndKeepsTheStepSoASecondSubmitSendsAgain() async throws {
        let unavailable = json(503, #"{"error":{"code":"SERVICE_UNAVAILABLE","message":"busy"},"request_id":"r"}"#)
        let (session, transport) = try await sessionReadyToSubmit(then: [unavailable, json(200, #"{"recorded":true}"#), submitted])
        do {
            try await session.submit(integrity: signals)
            XCTFail("a 503 on the signals passed silently")
        } catch BioverifyError.api(let error) {
            XCTAssertEqual(error.kind, .server)
        }
        let kept = await session.step
        XCTAssertEqual(kept, .readyToSubmit)
        XCTAssertEqual(transport.requests.count, 5, "submit was not sent after the failed upload")
        try await session.submit(integrity: signals)
        XCTAssertEqual(transport.requests.map(\.url.lastPathComponent).suffix(3), ["integrity", "integrity", "submit"])
    }

    func testWithoutSignalsSubmitSendsNothingElse() async throws {
        let (session, transport) = try await sessionReadyToSubmit(then: [submitted])
        try await session.submit()
        XCTAssertEqual(transport.requests.map(\.url.lastPathComponent).last, "submit")
        XCTAssertEqual(transport.requests.count, 5)
    }
}
