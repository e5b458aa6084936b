import XCTest

@testable import BioverifyCore

final class ErrorMappingTests: XCTestCase {
    func testAContractErrorBodyGivesItsCodeMessageDetailsAndRequestId() {
        let response = json(
            422,
            #"{"error":{"code":"VALIDATION_ERROR","message":"Bad frames","details":[{"field":"timestamps","message":"must increase"}]},"request_id":"req_1"}"#)
        let error = APIError.from(response)
        XCTAssertEqual(error.status, 422)
        XCTAssertEqual(error.kind, .validation)
        XCTAssertEqual(error.code, "VALIDATION_ERROR")
        XCTAssertEqual(error.message, "Bad frames")
        XCTAssertEqual(error.details, [APIErrorDetail(field: "timestamps", message: "must increase")])
        XCTAssertEqual(error.requestId, "req_1")
        XCTAssertFalse(error.isRetryable)
    }

    func testARateLimitCarriesRetryAfterAndIsRetryable() {
        let error = APIError.from(
            json(429, #"{"error":{"code":"RATE_LIMITED","message":"Slow down"},"request_id":"r"}"#, headers: ["Retry-After": "7"]))
        XCTAssertEqual(error.kind, .rateLimited)
        XCTAssertEqual(error.retryAfter, 7)
        XCTAssertTrue(error.isRetryable)
    }

    func testABodyThatIsNotTheContractsShapeStillFailsWithTheCodeItsStatusImplies() {
        let error = APIError.from(HTTPResponse(status: 502, headers: ["X-Request-Id": "edge-9"], body: Data("<html>".utf8)))
        XCTAssertEqual(error.kind, .server)
        XCTAssertNil(error.code)
        XCTAssertEqual(error.requestId, "edge-9")
        XCTAssertTrue(error.isRetryable)
    }

    func testACodeAddedLaterKeepsItsNameAndIsUnexpectedBelow500AndServerAbove() {
        let error = APIError.from(json(409, #"{"error":{"code":"NEW_THING","message":"m"},"request_id":"r"}"#))
        XCTAssertEqual(error.code, "NEW_THING")
        XCTAssertEqual(error.kind, .unexpected)
        XCTAssertEqual(APIError.from(json(507, #"{"error":{"code":"NEW_THING","message":"m"},"request_id":"r"}"#)).kind, .server)
    }

    func testRetryAfterAsAnHttpDateIsTheSecondsFromNow() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        XCTAssertEqual(APIError.retryAfterSeconds("Tue, 14 Nov 2023 22:13:50 GMT", now: now), 30)
        XCTAssertEqual(APIError.retryAfterSeconds("Tue, 14 Nov 2023 22:00:00 GMT", now: now), 0)
        XCTAssertNil(APIError.retryAfterSeconds("soon", now: now))
    }

    func testASuccessStatusWithAnUnreadableBodyIsAnInvalidResponseNotASuccess() {
        assertThrows({ if case .invalidResponse(200, _) = $0 { return true } else { return false } }) {
            let _: SubmitAnswer = try CaptureClient.decode(json(200, #"{"status":"IN_PROGRESS"}"#))
        }
    }

    func testAnErrorStatusIsThrownAsTheAPIError() {
        assertThrows({ $0 == .api(APIError(status: 401, kind: .unauthorized, code: "UNAUTHORIZED", message: "No token", requestId: "r")) }) {
            let _: SubmitAnswer = try CaptureClient.decode(
                json(401, #"{"error":{"code":"UNAUTHORIZED","message":"No token"},"request_id":"r"}"#))
        }
    }
}
