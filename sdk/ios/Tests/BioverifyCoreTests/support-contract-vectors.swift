import Foundation
import XCTest

@testable import BioverifyCore

/// Loads and runs sdk/contract-vectors/ as its README defines them: the same files the server's
/// tests and the Android SDK's tests run.
enum ContractVectors {
    /// sdk/ios/Tests/BioverifyCoreTests/<file> → the repository root.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let directory = repositoryRoot.appendingPathComponent("sdk/contract-vectors")

    static func load(_ name: String) throws -> JSONValue {
        try JSONValue.parse(Data(contentsOf: directory.appendingPathComponent(name)))
    }
}

/// A mismatch between an answer and a vector's expectation, with where it is.
struct VectorMismatch: Error, CustomStringConvertible {
    let description: String
}

/// Matches answers against expectations and replays steps against a live server.
final class VectorRunner {
    var variables: [String: JSONValue]
    let transport = URLSessionTransport()

    init(variables: [String: JSONValue]) {
        self.variables = variables
    }

    // MARK: interpolation

    func interpolate(_ text: String) throws -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "${") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
            let name = String(rest[open.upperBound..<close])
            guard let value = variables[name] else { throw VectorMismatch(description: "variable \(name) is not set") }
            out += value.string ?? value.text
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    func interpolate(_ value: JSONValue) throws -> JSONValue {
        switch value {
        case .string(let s): return .string(try interpolate(s))
        case .array(let a): return .array(try a.map(interpolate))
        case .object(let o):
            if let path = o["$file_base64"]?.string {
                return .string(try Data(contentsOf: ContractVectors.repositoryRoot.appendingPathComponent(path)).base64EncodedString())
            }
            return .object(try o.mapValues(interpolate))
        default: return value
        }
    }

    // MARK: matching

    func match(_ expected: JSONValue, _ actual: JSONValue?, at path: String = "$") throws {
        let fail = { (why: String) in VectorMismatch(description: "\(path): \(why); got \(actual?.text ?? "nothing")") }
        if case .object(let e) = expected, e.keys.contains(where: { $0.hasPrefix("$") }) {
            try matchMatcher(e, actual, at: path, fail: fail)
            if let name = e["$capture"]?.string, let actual { variables[name] = actual }
            return
        }
        guard let actual else { throw fail("missing") }
        switch expected {
        case .array(let items):
            guard let got = actual.array, got.count == items.count else { throw fail("expected \(items.count) items") }
            for (i, item) in items.enumerated() { try match(item, got[i], at: "\(path)[\(i)]") }
        case .object(let fields):
            guard let got = actual.object else { throw fail("expected an object") }
            let extra = Set(got.keys).subtracting(fields.keys)
            guard extra.isEmpty else { throw fail("unexpected fields \(extra.sorted())") }
            for (key, e) in fields.sorted(by: { $0.key < $1.key }) {
                if got[key] == nil, e.object?["$optional"] != nil { continue }
                try match(e.object?["$optional"] ?? e, got[key], at: "\(path).\(key)")
            }
        case .number(let n):
            guard actual.number == n else { throw fail("expected \(n)") }
        default:
            guard actual == expected else { throw fail("expected \(expected.text)") }
        }
    }

    private func matchMatcher(
        _ e: [String: JSONValue], _ actual: JSONValue?, at path: String, fail: (String) -> VectorMismatch
    ) throws {
        if e["$absent"] != nil { if actual != nil { throw fail("expected absent") }; return }
        if let inner = e["$optional"] { if let actual { try match(inner, actual, at: path) }; return }
        guard let actual else { throw fail("missing") }
        if let type = e["$type"]?.string {
            let ok: Bool
            switch (type, actual) {
            case ("string", .string), ("boolean", .bool), ("null", .null), ("array", .array), ("object", .object), ("number", .number):
                ok = true
            case ("integer", .number(let n)): ok = n.rounded() == n
            default: ok = false
            }
            guard ok else { throw fail("expected a \(type)") }
            if let pattern = e["pattern"]?.string {
                guard let s = actual.string, s.range(of: pattern, options: .regularExpression) != nil else {
                    throw fail("expected to match \(pattern)")
                }
            }
            if e["format"]?.string == "date-time" {
                let rfc3339 = #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"#
                guard actual.string?.range(of: rfc3339, options: .regularExpression) != nil else { throw fail("expected a date-time") }
            }
            if let min = e["min"]?.number, (actual.number ?? .infinity) < min { throw fail("below \(min)") }
            if let max = e["max"]?.number, (actual.number ?? -.infinity) > max { throw fail("above \(max)") }
        } else if let options = e["$enum"]?.array {
            guard options.contains(where: { (try? self.copy().match($0, actual)) != nil }) else { throw fail("not one of the enum") }
        } else if let inner = e["$nullable"] {
            if actual != .null { try match(inner, actual, at: path) }
        } else if let item = e["$array"] {
            guard let items = actual.array else { throw fail("expected an array") }
            if let min = e["min_items"]?.number, Double(items.count) < min { throw fail("fewer than \(min) items") }
            if let max = e["max_items"]?.number, Double(items.count) > max { throw fail("more than \(max) items") }
            if e["distinct"]?.bool == true, Set(items.map(\.text)).count != items.count { throw fail("items repeat") }
            for (i, value) in items.enumerated() { try match(item, value, at: "\(path)[\(i)]") }
        } else if let name = e["$var"]?.string {
            guard let value = variables[name] else { throw VectorMismatch(description: "variable \(name) is not set") }
            guard value == actual || (value.string != nil && value.string == actual.string) else { throw fail("expected \(value.text)") }
        } else if let template = e["$template"]?.string {
            guard actual.string == (try interpolate(template)) else { throw fail("expected \(try interpolate(template))") }
        } else if let fields = e["$partial"]?.object {
            guard let got = actual.object else { throw fail("expected an object") }
            for (key, value) in fields { try match(value, got[key], at: "\(path).\(key)") }
        } else if e["$capture"] == nil {
            throw VectorMismatch(description: "\(path): unknown matcher \(e.keys.sorted())")
        }
    }

    private func copy() -> VectorRunner { VectorRunner(variables: variables) }

    // MARK: requests

    func request(for step: JSONValue, boundary: String) throws -> HTTPRequest {
        guard let request = step["request"], let method = request["method"]?.string, var path = request["path"]?.string,
            let base = variables["base_url"]?.string
        else { throw VectorMismatch(description: "a step without method, path or base_url") }
        for (name, value) in request["params"]?.object ?? [:] {
            let raw = try interpolate(value.string ?? value.text)
            path = path.replacingOccurrences(
                of: "{\(name)}", with: raw.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? raw)
        }
        var components = URLComponents(string: base + path)
        if let query = request["query"]?.object {
            components?.queryItems = try query.map { URLQueryItem(name: $0.key, value: try interpolate($0.value.string ?? $0.value.text)) }
        }
        guard let url = components?.url else { throw VectorMismatch(description: "bad URL \(base + path)") }
        var headers: [String: String] = [:]
        for (name, value) in request["headers"]?.object ?? [:] {
            headers[name.lowercased()] = try interpolate(value.string ?? value.text)
        }
        let body = request["body"] ?? .object(["kind": .string("none")])
        var data: Data?
        switch body["kind"]?.string {
        case "none", nil: data = nil
        case "file": data = try Data(contentsOf: ContractVectors.repositoryRoot.appendingPathComponent(body["path"]?.string ?? ""))
        case "bytes": data = Data(base64Encoded: body["base64"]?.string ?? "")
        case "repeat":
            data = Data(repeating: UInt8(body["byte"]?.number ?? 0), count: Int(body["length"]?.number ?? 0))
        case "json": data = Data(try interpolate(body["value"] ?? .null).text.utf8)
        case "liveness_multipart":
            let files = try (body["frames"]?.array ?? []).map {
                try Data(contentsOf: ContractVectors.repositoryRoot.appendingPathComponent($0.string ?? ""))
            }
            let stamps = (body["timestamps"]?.array ?? []).map { Int($0.number ?? 0) }
            var multipart = MultipartBody(boundary: boundary)
            for (i, frame) in files.enumerated() {
                multipart.addFile(name: "frame", filename: "frame-\(i).jpg", contentType: "image/jpeg", content: frame)
            }
            multipart.addField(name: "timestamps", value: "[" + stamps.map(String.init).joined(separator: ",") + "]")
            data = multipart.finished()
        case let other: throw VectorMismatch(description: "unknown body kind \(other ?? "")")
        }
        return HTTPRequest(method: method, url: url, headers: headers, body: data)
    }

    /// Matches one answer: status, then body (which may capture), then headers.
    func check(_ response: HTTPResponse, against expected: JSONValue, step: String) throws {
        let status = Int(expected["status"]?.number ?? -1)
        let body = try? JSONValue.parse(response.body)
        guard response.status == status else {
            throw VectorMismatch(description: "\(step): status \(response.status), expected \(status): \(String(decoding: response.body, as: UTF8.self).prefix(400))")
        }
        do {
            try match(expected["body"] ?? .null, body ?? .string(String(decoding: response.body, as: UTF8.self)))
            for (name, e) in expected["headers"]?.object ?? [:] {
                try match(e, response.header(name).map(JSONValue.string), at: "header \(name)")
            }
        } catch let mismatch as VectorMismatch {
            throw VectorMismatch(description: "\(step): \(mismatch.description)")
        }
    }

    /// Runs a sequence's steps in order; answers each step's last response.
    @discardableResult
    func run(steps: [JSONValue], onAnswer: (JSONValue, HTTPResponse) throws -> Void = { _, _ in }) async throws -> HTTPResponse? {
        var last: HTTPResponse?
        for step in steps {
            let name = step["name"]?.string ?? "?"
            let boundary = "bioverify-ios-" + UUID().uuidString.lowercased()
            variables["boundary"] = .string(boundary)
            let times = Int(step["repeat"]?.number ?? 1)
            if let poll = step["poll"] {
                let field = poll["until"]?["field"]?.string ?? ""
                let wanted = poll["until"]?["equals"] ?? .null
                let deadline = Date().addingTimeInterval((poll["timeout_ms"]?.number ?? 60_000) / 1000)
                while true {
                    let response = try await transport.send(try request(for: step, boundary: boundary))
                    if (try? JSONValue.parse(response.body))?[field] == wanted {
                        try check(response, against: step["final_response"] ?? .null, step: name)
                        try onAnswer(step, response)
                        last = response
                        break
                    }
                    try check(response, against: step["response"] ?? .null, step: name)
                    guard Date() < deadline else { throw VectorMismatch(description: "\(name): \(field) never became \(wanted.text)") }
                    try await Task.sleep(nanoseconds: UInt64((poll["interval_ms"]?.number ?? 250) * 1_000_000))
                }
                continue
            }
            for _ in 0..<times {
                let response = try await transport.send(try request(for: step, boundary: boundary))
                try check(response, against: step["response"] ?? .null, step: name)
                try onAnswer(step, response)
                last = response
            }
        }
        return last
    }
}
