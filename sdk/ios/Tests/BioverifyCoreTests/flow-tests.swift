import XCTest

@testable import BioverifyCore

let started = #"{"capture_token":"tok_abc","challenge":["TURN_LEFT","BLINK","LOOK_UP"],"document_types":["passport","id_card"],"expires_at":"2030-01-01T00:00:00Z","locale":"fr"}"#

func documentAnswer(_ side: String, retake: Bool = false, reason: String? = nil, left: Int = 2, next: String?) -> String {
    let reasonJSON = reason.map { "\"\($0)\"" } ?? "null"
    let nextJSON = next.map { "\"\($0)\"" } ?? "null"
    return #"{"side":"\#(side)","readable":\#(!retake),"reason":\#(reasonJSON),"retake":\#(retake),"attempts_left":\#(left),"next":\#(nextJSON)}"#
}

final class VerificationFlowTests: XCTestCase {
    func decode<T: Decodable>(_ text: String) throws -> T { try JSONDecoder().decode(T.self, from: Data(text.utf8)) }

    func testAnIdCardGoesFrontBackLivenessSelfieSubmitAndFinishesOnTheDecision() throws {
        var flow = VerificationFlow()
        XCTAssertEqual(try flow.apply(.started(decode(started))), .document(side: .front, retakeReason: nil, attemptsLeft: 3))
        XCTAssertEqual(try flow.apply(.document(decode(documentAnswer("front", next: "back")))), .document(side: .back, retakeReason: nil, attemptsLeft: 3))
        XCTAssertEqual(try flow.apply(.document(decode(documentAnswer("back", next: "liveness")))), .liveness(retake: false, attemptsLeft: 3))
        XCTAssertEqual(try flow.apply(.liveness(decode(#"{"received":20,"face_found_ratio":1,"retake":false,"attempts_left":2}"#))), .selfie(retakeReason: nil, attemptsLeft: 3))
        XCTAssertEqual(try flow.apply(.selfie(decode(#"{"face_found":true,"retake":false,"reason":null,"attempts_left":2}"#))), .readyToSubmit)
        XCTAssertEqual(try flow.apply(.submitted), .waitingForDecision)
        XCTAssertEqual(try flow.apply(.status(decode(#"{"status":"IN_PROGRESS","decision":"pending","redirect_url":null}"#))), .waitingForDecision)
        XCTAssertEqual(
            try flow.apply(.status(decode(#"{"status":"VERIFIED","decision":"done","redirect_url":"https://example.com/done?session_id=s&status=VERIFIED"}"#))),
            .finished(status: .verified, redirectURL: "https://example.com/done?session_id=s&status=VERIFIED"))
    }

    func testARetakeKeepsTheStepWithTheReasonAndTheAttemptsLeft() throws {
        var flow = VerificationFlow()
        try flow.apply(.started(decode(started)))
        XCTAssertEqual(
            try flow.apply(.document(decode(documentAnswer("front", retake: true, reason: "DOCUMENT_UNREADABLE", left: 1, next: nil)))),
            .document(side: .front, retakeReason: "DOCUMENT_UNREADABLE", attemptsLeft: 1))
        try flow.apply(.document(decode(documentAnswer("front", next: "liveness"))))
        XCTAssertEqual(try flow.apply(.liveness(decode(#"{"received":12,"face_found_ratio":0.5,"retake":true,"attempts_left":1}"#))), .liveness(retake: true, attemptsLeft: 1))
        try flow.apply(.liveness(decode(#"{"received":12,"face_found_ratio":0.9,"retake":false,"attempts_left":0}"#)))
        XCTAssertEqual(
            try flow.apply(.selfie(decode(#"{"face_found":true,"retake":true,"reason":"FACE_TOO_CLOSE","attempts_left":2}"#))),
            .selfie(retakeReason: "FACE_TOO_CLOSE", attemptsLeft: 2))
    }

    func testAReasonOnTheLastAttemptIsKeptWhileCaptureGoesOn() throws {
        var flow = VerificationFlow()
        try flow.apply(.started(decode(started)))
        let last = documentAnswer("front", reason: "DOCUMENT_EXPIRED", left: 0, next: "liveness")
        XCTAssertEqual(try flow.apply(.document(decode(last))), .liveness(retake: false, attemptsLeft: 3))
        XCTAssertEqual(flow.unresolvedReasons, ["DOCUMENT_EXPIRED"])
    }

    func testAPassportOffersTheChipAfterTheDocumentWhenTheDeviceCanReadIt() throws {
        var flow = VerificationFlow(offersChip: true)
        try flow.apply(.started(decode(started)))
        XCTAssertEqual(try flow.apply(.document(decode(documentAnswer("front", next: "liveness")))), .chip)
        XCTAssertEqual(try flow.apply(.chipSkipped), .liveness(retake: false, attemptsLeft: 3))
    }

    func testAnUploadOutOfOrderIsRefusedAndLeavesTheStepAsItWas() throws {
        var flow = VerificationFlow()
        try flow.apply(.started(decode(started)))
        assertThrows({ if case .invalidState = $0 { return true } else { return false } }) {
            try flow.apply(.selfie(decode(#"{"face_found":true,"retake":false,"reason":null,"attempts_left":2}"#)))
        }
        assertThrows({ if case .invalidState = $0 { return true } else { return false } }) {
            try flow.apply(.document(decode(documentAnswer("back", next: "liveness"))))
        }
        XCTAssertEqual(flow.step, .document(side: .front, retakeReason: nil, attemptsLeft: 3))
    }

    func testASessionThatExpiresFinishesTheFlowFromAnyStep() throws {
        var flow = VerificationFlow()
        try flow.apply(.started(decode(started)))
        XCTAssertEqual(try flow.apply(.status(decode(#"{"status":"EXPIRED","decision":"none","redirect_url":null}"#))), .finished(status: .expired, redirectURL: nil))
    }
}

final class VerificationSessionTests: XCTestCase {
    let handoff = try! SessionHandoff(baseURL: URL(string: "https://verify.example.com")!, sessionId: "ses_0123456789abcdefghijKL")

    func testStartKeepsTheTokenAndChallengeAndSendsTheTokenOnEveryLaterCall() async throws {
        let transport = RecordingTransport([json(200, started), json(200, documentAnswer("front", next: "liveness"))])
        let session = VerificationSession(handoff: handoff, transport: transport)
        let start = try await session.start()
        XCTAssertEqual(start.challenge, [.turnLeft, .blink, .lookUp])
        let steps = await session.timeline().steps
        XCTAssertEqual(steps, [.turnLeft, .blink, .lookUp])
        try await session.captureDocument(jpegHeader(width: 1200, height: 800), type: .passport)
        XCTAssertEqual(transport.requests.map(\.method), ["POST", "PUT"])
        XCTAssertEqual(transport.requests[0].url.absoluteString, "https://verify.example.com/v1/capture/ses_0123456789abcdefghijKL/start")
        XCTAssertNil(transport.requests[0].headers["authorization"])
        XCTAssertEqual(transport.requests[1].url.absoluteString, "https://verify.example.com/v1/capture/ses_0123456789abcdefghijKL/document/front?type=passport")
        XCTAssertEqual(transport.requests[1].headers["authorization"], "Bearer tok_abc")
        XCTAssertEqual(transport.requests[1].headers["content-type"], "image/jpeg")
        let step = await session.step
        XCTAssertEqual(step, .liveness(retake: false, attemptsLeft: 3))
    }

    func testAServiceErrorReachesTheCallerTypedAndTheStepStays() async throws {
        let transport = RecordingTransport([
            json(200, started),
            json(409, #"{"error":{"code":"CONFLICT","message":"Session decided"},"request_id":"r1"}"#),
        ])
        let session = VerificationSession(handoff: handoff, transport: transport)
        _ = try await session.start()
        do {
            try await session.captureDocument(jpegHeader(width: 1200, height: 800), type: .passport)
            XCTFail("no error")
        } catch let error as BioverifyError {
            guard case .api(let api) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(api.kind, .conflict)
            XCTAssertEqual(api.requestId, "r1")
        }
        let step = await session.step
        XCTAssertEqual(step, .document(side: .front, retakeReason: nil, attemptsLeft: 3))
    }

    struct FakeReader: PassportChipReader {
        func read(accessKey: ChipAccessKey, activeAuthenticationChallenge challenge: Data) async throws -> ChipReading {
            ChipReading(
                sod: Data([0x77]), dg1: Data([0x61]), dg2: Data([0x75]), dg15: Data([0x6F]),
                activeAuthentication: .init(challenge: challenge, signature: Data([1, 2])))
        }
    }

    func testTheChipIsReadOverTheServersChallengeAndUploaded() async throws {
        let transport = RecordingTransport([
            json(200, started), json(200, documentAnswer("front", next: "liveness")),
            json(200, #"{"challenge":"AQIDBAUGBwg=","expires_at":"2030-01-01T00:05:00Z"}"#),
            json(200, #"{"well_formed":true,"received":["sod","dg1","dg2","dg15"]}"#),
        ])
        let session = VerificationSession(handoff: handoff, transport: transport, offersChip: true)
        _ = try await session.start()
        try await session.captureDocument(jpegHeader(width: 1200, height: 800), type: .passport)
        let key = try ChipAccessKey(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        let answer = try await session.readChip(with: FakeReader(), accessKey: key)
        XCTAssertEqual(answer.received, ["sod", "dg1", "dg2", "dg15"])
        XCTAssertEqual(transport.requests[2].url.path, "/v1/capture/ses_0123456789abcdefghijKL/chip/challenge")
        XCTAssertEqual(transport.requests[3].url.path, "/v1/capture/ses_0123456789abcdefghijKL/document/chip")
        let body = try JSONSerialization.jsonObject(with: transport.requests[3].body!) as? [String: Any]
        XCTAssertEqual((body?["active_authentication"] as? [String: String])?["challenge"], "AQIDBAUGBwg=")
        let step = await session.step
        XCTAssertEqual(step, .liveness(retake: false, attemptsLeft: 3))
    }
}

final class SessionHandoffTests: XCTestCase {
    func testAVerificationUrlGivesTheBaseUrlAndTheSessionId() throws {
        let handoff = try SessionHandoff(verificationURL: URL(string: "https://id.example.com/v/ses_0123456789abcdefghijKL")!)
        XCTAssertEqual(handoff.baseURL.absoluteString, "https://id.example.com")
        XCTAssertEqual(handoff.sessionId, "ses_0123456789abcdefghijKL")
        let prefixed = try SessionHandoff(verificationURL: URL(string: "http://127.0.0.1:8080/kyc/c/ses_0123456789abcdefghijKL")!)
        XCTAssertEqual(prefixed.baseURL.absoluteString, "http://127.0.0.1:8080/kyc")
    }

    func testSomethingThatIsNotASessionIsRefused() {
        assertThrows({ if case .invalidInput = $0 { return true } else { return false } }) {
            try SessionHandoff(verificationURL: URL(string: "https://id.example.com/docs")!)
        }
        assertThrows({ if case .invalidInput = $0 { return true } else { return false } }) {
            try SessionHandoff(baseURL: URL(string: "https://id.example.com")!, sessionId: "ses_short")
        }
    }
}

final class MultipartBodyTests: XCTestCase {
    func testTheLivenessBodyHasOneFramePartPerFrameInOrderThenTheTimestamps() throws {
        let frames = (0..<8).map { LivenessFrame(timestampMs: $0 * 150, jpeg: Data([0xFF, 0xD8, UInt8($0)])) }
        let body = try CaptureClient.livenessBody(frames: frames, boundary: "B")
        XCTAssertEqual(body.contentType, "multipart/form-data; boundary=B")
        let text = String(decoding: body.finished(), as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "name=\"frame\"").count - 1, 8)
        XCTAssertTrue(text.hasPrefix("--B\r\nContent-Disposition: form-data; name=\"frame\"; filename=\"frame-0.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"))
        XCTAssertTrue(text.hasSuffix("--B\r\nContent-Disposition: form-data; name=\"timestamps\"\r\n\r\n[0,150,300,450,600,750,900,1050]\r\n--B--\r\n"))
    }

    func testTooFewFramesOrTimestampsThatDoNotIncreaseAreRefusedBeforeUploading() {
        let frames = (0..<8).map { LivenessFrame(timestampMs: $0 == 5 ? 0 : $0 * 100, jpeg: Data([1])) }
        assertThrows({ if case .invalidInput = $0 { return true } else { return false } }) {
            try CaptureClient.livenessBody(frames: frames)
        }
        assertThrows({ if case .invalidInput = $0 { return true } else { return false } }) {
            try CaptureClient.livenessBody(frames: Array(frames.prefix(7)))
        }
    }
}
