import Foundation

/// What a platform adapter reads about the device the app runs on (BioverifyUI: `AppleDeviceFacts`).
/// A fact answers nil when its probe cannot tell, and a probe that throws is read as nil too: unknown,
/// never a guess. Nothing here may identify the applicant: no identifierForVendor, no serial number.
public protocol DeviceFacts: Sendable {
    /// The app runs in the iOS Simulator (or, in a test, on something that is no phone).
    var isEmulator: Bool? { get throws }
    var isDebuggerAttached: Bool? { get throws }
    var isJailbroken: Bool? { get throws }
    /// Frida, Substrate or another hooking framework is loaded into the app's process.
    var hasHookingFramework: Bool? { get throws }
    /// The integrating app's bundle id.
    var appId: String? { get }
    var osVersion: String? { get }
}

/// Where the face camera faces (`AVCaptureDevice.Position`); `external` is a USB or Continuity camera.
public enum CameraPosition: String, Codable, Sendable, CaseIterable {
    case front, back, external, unknown
}

/// The face camera as the platform's camera stack describes it.
public protocol CameraFacts: Sendable {
    var position: CameraPosition { get }
    /// `AVCaptureDevice.DeviceType`'s raw value (e.g. `AVCaptureDeviceTypeBuiltInWideAngleCamera`).
    var deviceType: String? { get }
    /// Whether the platform says the camera is no physical sensor of this device; nil when it cannot say.
    var isVirtual: Bool? { get }
}

/// The face camera's own clock: the presentation times of the frames it delivered.
public protocol FrameTimestampSource: Sendable {
    /// Seconds on the capture clock (`CMSampleBuffer` presentation times), in delivery order.
    func presentationTimes() -> [TimeInterval]
}

/// The presentation times of the latest frames (at most `capacity`), recorded as the camera delivers
/// them, from any thread.
public final class PresentationTimeLog: FrameTimestampSource, @unchecked Sendable {
    public let capacity: Int
    // Guarded by `lock`: written on the camera's queue, read when the signals are collected.
    private let lock = NSLock()
    private var times: [TimeInterval] = []

    public init(capacity: Int = 120) {
        self.capacity = max(1, capacity)
    }

    public func record(_ presentationTime: TimeInterval) {
        lock.lock()
        defer { lock.unlock() }
        times.append(presentationTime)
        if times.count > capacity { times.removeFirst(times.count - capacity) }
    }

    public func presentationTimes() -> [TimeInterval] {
        lock.lock()
        defer { lock.unlock() }
        return times
    }
}
