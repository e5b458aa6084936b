import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

public struct HTTPRequest: Equatable, Sendable {
    public var method: String
    public var url: URL
    /// Header names in lowercase.
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

public struct HTTPResponse: Equatable, Sendable {
    public var status: Int
    /// Header names in lowercase.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// The one way the core reaches the network, so an app can add its own (certificate pinning, a
/// proxy) and tests of the flow can answer without a server.
public protocol HTTPTransport: Sendable {
    /// Answers the response whatever its status; throws `BioverifyError.network` only when none came.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// The default transport, over `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    // URLSession is thread-safe, but not marked Sendable on every platform.
    private final class Box: @unchecked Sendable {
        let session: URLSession
        init(_ session: URLSession) { self.session = session }
    }
    private let box: Box

    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        box = Box(session)
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, response): (Data, URLResponse)
            if let body = request.body {
                (data, response) = try await box.session.upload(for: urlRequest, from: body)
            } else {
                (data, response) = try await box.session.data(for: urlRequest)
            }
            guard let http = response as? HTTPURLResponse else {
                throw BioverifyError.invalidResponse(status: 0, reason: "not an HTTP response")
            }
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
            }
            return HTTPResponse(status: http.statusCode, headers: headers, body: data)
        } catch let error as BioverifyError {
            throw error
        } catch is CancellationError {
            throw BioverifyError.cancelled
        } catch let error as URLError where error.code == .cancelled {
            throw BioverifyError.cancelled
        } catch {
            throw BioverifyError.network(String(describing: error))
        }
    }
}
