import Foundation
import XCTest

@testable import BioverifyCore

/// Answers from a script instead of a server, and records what was asked (unit tests of the flow;
/// the end-to-end test uses the real service).
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [HTTPResponse]
    private(set) var requests: [HTTPRequest] = []

    init(_ answers: [HTTPResponse]) {
        self.answers = answers
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try answer(request)
    }

    private func answer(_ request: HTTPRequest) throws -> HTTPResponse {
        lock.lock()
        defer { lock.unlock() }
        requests.append(request)
        guard !answers.isEmpty else { throw BioverifyError.network("no scripted answer for \(request.url)") }
        return answers.removeFirst()
    }
}

func json(_ status: Int, _ body: String, headers: [String: String] = [:]) -> HTTPResponse {
    HTTPResponse(status: status, headers: ["content-type": "application/json"].merging(headers) { $1 }, body: Data(body.utf8))
}

/// A JPEG header with a baseline frame of the given size (enough for inspection; not decodable).
func jpegHeader(width: Int, height: Int, padding: Int = 0) -> Data {
    var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
    bytes += [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)]
    bytes += [0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    bytes += [UInt8](repeating: 0, count: padding) + [0xFF, 0xD9]
    return Data(bytes)
}

func assertThrows<T>(
    _ expected: (BioverifyError) -> Bool, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T
) {
    do {
        _ = try body()
        XCTFail("no error thrown", file: file, line: line)
    } catch let error as BioverifyError {
        XCTAssertTrue(expected(error), "unexpected \(error)", file: file, line: line)
    } catch {
        XCTFail("not a BioverifyError: \(error)", file: file, line: line)
    }
}
