import Foundation
import XCTest

@testable import BioverifyCore

/// sdk/contract-vectors/errors.json and multipart.json, without a server: the error mapping and the
/// exact liveness upload bytes.
final class ContractVectorTests: XCTestCase {
    func testEveryCodeInTheMappingTableGivesItsClientError() throws {
        let mapping = try XCTUnwrap(ContractVectors.load("errors.json")["mapping"]?.array)
        XCTAssertFalse(mapping.isEmpty)
        for row in mapping {
            let status = Int(row["status"]?.number ?? 0), code = row["code"]?.string ?? ""
            let body = #"{"error":{"code":"\#(code)","message":"m"},"request_id":"r"}"#
            let error = APIError.from(json(status, body))
            XCTAssertEqual(error.kind.rawValue, row["client_error"]?.string, "\(status) \(code)")
            XCTAssertEqual(error.code, code)
        }
    }

    func testAnswersWithoutTheContractsBodyFallBackOnTheStatus() {
        let html = { (status: Int) in HTTPResponse(status: status, headers: ["content-type": "text/html"], body: Data("<h1>Bad gateway</h1>".utf8)) }
        XCTAssertEqual(APIError.from(html(502)).kind, .server)
        XCTAssertEqual(APIError.from(html(500)).kind, .server)
        XCTAssertEqual(APIError.from(html(418)).kind, .unexpected)
        XCTAssertEqual(APIError.from(json(400, #"{"error":{"code":"SOMETHING_NEW","message":"m"},"request_id":"r"}"#)).kind, .unexpected)
    }

    func testEachRecordedServerErrorMapsToTheClientErrorItsCaseNames() throws {
        let cases = try XCTUnwrap(ContractVectors.load("errors.json")["cases"]?.array)
        XCTAssertFalse(cases.isEmpty)
        for vector in cases {
            let name = vector["name"]?.string ?? "?"
            guard let example = vector["example"] else { XCTFail("\(name) has no example"); continue }
            var headers: [String: String] = [:]
            for (key, value) in example["headers"]?.object ?? [:] { headers[key] = value.string ?? value.text }
            let body = example["body"].map { Data($0.text.utf8) } ?? Data()
            let error = APIError.from(HTTPResponse(status: Int(example["status"]?.number ?? 0), headers: headers, body: body))
            XCTAssertEqual(error.kind.rawValue, vector["client_error"]?["kind"]?.string, name)
            XCTAssertEqual(error.code, example["body"]?["error"]?["code"]?.string, name)
            XCTAssertEqual(error.message, example["body"]?["error"]?["message"]?.string, name)
            XCTAssertEqual(error.requestId, example["body"]?["request_id"]?.string, name)
            XCTAssertEqual(error.details.count, example["body"]?["error"]?["details"]?.array?.count ?? 0, name)
            if let seconds = vector["client_error"]?["retry_after_s"]?.number {
                XCTAssertEqual(error.retryAfter, Int(seconds), name)
            }
        }
    }

    func testTheLivenessUploadIsByteForByteTheAcceptedVectorsAndNeverARefusedOne() throws {
        let vectors = try XCTUnwrap(ContractVectors.load("multipart.json")["vectors"]?.array)
        var accepted = 0
        for vector in vectors {
            let name = vector["name"]?.string ?? "?"
            let frames = (vector["frames_base64"]?.array ?? []).compactMap { $0.string.flatMap { Data(base64Encoded: $0) } }
            let stamps = (vector["timestamps"]?.array ?? []).map { Int($0.number ?? -1) }
            let expected = Data(base64Encoded: vector["body_base64"]?.string ?? "")
            let built = try? CaptureClient.livenessBody(
                frames: zip(stamps, frames).map { LivenessFrame(timestampMs: $0, jpeg: $1) },
                boundary: vector["boundary"]?.string)
            if vector["expect"]?.string == "accepted" {
                accepted += 1
                let body = try XCTUnwrap(built, "\(name): the SDK refused to build an accepted upload")
                XCTAssertEqual(body.finished(), expected, name)
                XCTAssertEqual(body.contentType, vector["content_type"]?.string, name)
            } else if let built {
                XCTAssertNotEqual(built.finished(), expected, "\(name): the SDK built a body the server refuses")
            }
        }
        XCTAssertGreaterThan(accepted, 0)
    }
}

/// capture-flow.json's sequences and errors.json's cases replayed against the real stack (set up by
/// sdk/ios/test/swift-package.test.ts), each device answer also decoded with the SDK's own types.
final class LiveContractVectorTests: XCTestCase {
    func runner() throws -> VectorRunner {
        let env = ProcessInfo.processInfo.environment
        guard let base = env["BIOVERIFY_E2E_BASE_URL"], let key = env["BIOVERIFY_E2E_API_KEY"] else {
            throw XCTSkip("BIOVERIFY_E2E_BASE_URL and BIOVERIFY_E2E_API_KEY are not set (sdk/ios/test/swift-package.test.ts sets them)")
        }
        return VectorRunner(variables: [
            "base_url": .string(base.hasSuffix("/") ? String(base.dropLast()) : base), "api_key": .string(key),
            "webhook_url": .string(env["BIOVERIFY_E2E_WEBHOOK_URL"] ?? "https://example.com/webhooks/identity"),
        ])
    }

    /// Decodes a device step's 2xx answer with the SDK's type for that route.
    static func decodeWithSDK(_ step: JSONValue, _ response: HTTPResponse) throws {
        guard step["actor"]?.string ?? "device" == "device", (200..<300).contains(response.status) else { return }
        let path = step["request"]?["path"]?.string ?? "", method = step["request"]?["method"]?.string ?? ""
        switch (method, path) {
        case ("POST", let p) where p.hasSuffix("/start"): let _: CaptureStart = try CaptureClient.decode(response)
        case ("PUT", let p) where p.hasSuffix("/document/front") || p.hasSuffix("/document/back"):
            let _: DocumentAnswer = try CaptureClient.decode(response)
        case ("POST", let p) where p.hasSuffix("/liveness"): let _: LivenessAnswer = try CaptureClient.decode(response)
        case ("PUT", let p) where p.hasSuffix("/selfie"): let _: SelfieAnswer = try CaptureClient.decode(response)
        case ("POST", let p) where p.hasSuffix("/submit"): let _: SubmitAnswer = try CaptureClient.decode(response)
        case ("GET", "/v1/capture/{session_id}"): let _: CaptureStatus = try CaptureClient.decode(response)
        case ("POST", let p) where p.hasSuffix("/chip/challenge"): let _: ChipChallenge = try CaptureClient.decode(response)
        case ("PUT", let p) where p.hasSuffix("/document/chip"): let _: ChipAnswer = try CaptureClient.decode(response)
        default: break
        }
    }

    func testEveryReadyCaptureSequenceRunsAsTheVectorsSay() async throws {
        let base = try runner()
        let sequences = try XCTUnwrap(ContractVectors.load("capture-flow.json")["sequences"]?.array)
        var ran = 0
        for sequence in sequences {
            let name = sequence["name"]?.string ?? "?"
            guard sequence["state"]?.string == "ready" else {
                print("contract vector \(name): pending (listed in sdk/contract-vectors/README.md), not run")
                continue
            }
            let runner = VectorRunner(variables: base.variables)
            do {
                try await runner.run(steps: sequence["steps"]?.array ?? [], onAnswer: Self.decodeWithSDK)
                ran += 1
            } catch {
                XCTFail("sequence \(name): \(error)")
            }
        }
        XCTAssertGreaterThan(ran, 0)
        print("contract vectors: \(ran) capture sequences passed against the live server")
    }

    func testEveryReadyErrorCaseGivesItsClientErrorFromTheLiveServer() async throws {
        let base = try runner()
        let cases = try XCTUnwrap(ContractVectors.load("errors.json")["cases"]?.array)
        var ran = 0
        for vector in cases {
            let name = vector["name"]?.string ?? "?"
            guard vector["state"]?.string == "ready", vector["trigger"]?["kind"]?.string == "steps" else {
                print("contract vector \(name): \(vector["state"]?.string ?? "?") / \(vector["trigger"]?["kind"]?.string ?? "?"), example only")
                continue
            }
            let runner = VectorRunner(variables: base.variables)
            do {
                let last = try await runner.run(steps: vector["steps"]?.array ?? [], onAnswer: Self.decodeWithSDK)
                let error = APIError.from(try XCTUnwrap(last))
                XCTAssertEqual(error.kind.rawValue, vector["client_error"]?["kind"]?.string, name)
                ran += 1
            } catch {
                XCTFail("error case \(name): \(error)")
            }
        }
        XCTAssertGreaterThan(ran, 0)
        print("contract vectors: \(ran) error cases passed against the live server")
    }
}

final class JSONValueTests: XCTestCase {
    func testBooleansAndNumbersStayApartAsTheVectorsMatchersNeed() throws {
        XCTAssertEqual(
            try JSONValue.parse(Data(#"[true, 1, 0, 1.5, null, "x"]"#.utf8)),
            .array([.bool(true), .number(1), .number(0), .number(1.5), .null, .string("x")]))
    }
}
