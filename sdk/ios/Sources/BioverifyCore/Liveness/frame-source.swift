import Foundation

/// A camera that delivers JPEG frames stamped in milliseconds since `start` was called; BioverifyUI's
/// AVFoundation adapter implements it. The challenge timeline runs on the same clock.
public protocol LivenessFrameSource: AnyObject, Sendable {
    func start() async throws
    /// Stops the camera and returns every frame captured since `start`.
    func stop() async -> [LivenessFrame]
}
