import Foundation

/// What the SDK tells the server about its device and face camera before submit
/// (`PUT /v1/capture/{id}/integrity`, client `ios`; docs/capture-integrity.md): the web page's
/// members all null (an app has no track label, no `navigator.webdriver`, no WebGL renderer) and the
/// `native` block. These are the app's own claims: on a jailbroken phone a patched app can answer
/// anything. App Attest would back them; it needs Apple's servers and is not sent.
public struct IntegritySignals: Encodable, Equatable, Sendable {
    public static let sdkVersion = "0.1.0"

    public struct Device: Equatable, Sendable {
        public var isEmulator: Bool?
        public var isDebuggerAttached: Bool?
        public var isJailbroken: Bool?
        public var hasHookingFramework: Bool?
        public var appId: String?
        public var osVersion: String?
        public var sdkVersion: String?
    }

    public struct Camera: Equatable, Sendable {
        public var position: CameraPosition
        public var deviceType: String?
        public var isVirtual: Bool?
        /// nil when no frame times were kept; sent as the `presentation_time` source.
        public var frameTiming: FrameTimingSummary?
    }

    public var device: Device
    /// nil when the app had no face camera to describe.
    public var camera: Camera?

    public init(device: Device, camera: Camera?) {
        self.device = device
        self.camera = camera
    }

    /// Reads each fact once, after the selfie, so that the frame times are those of the liveness
    /// challenge and the selfie. The frame timing belongs to the camera: without one it is not sent.
    public static func collect(
        device: DeviceFacts, camera: CameraFacts?, frameTimes: FrameTimestampSource? = nil, sdkVersion: String = sdkVersion
    ) -> IntegritySignals {
        func fact(_ read: () throws -> Bool?) -> Bool? { (try? read()) ?? nil }
        return IntegritySignals(
            device: Device(
                isEmulator: fact { try device.isEmulator }, isDebuggerAttached: fact { try device.isDebuggerAttached },
                isJailbroken: fact { try device.isJailbroken }, hasHookingFramework: fact { try device.hasHookingFramework },
                appId: device.appId, osVersion: device.osVersion, sdkVersion: sdkVersion),
            camera: camera.map {
                Camera(
                    position: $0.position, deviceType: $0.deviceType, isVirtual: $0.isVirtual,
                    frameTiming: frameTimes.map { FrameTimingSummary(presentationTimes: $0.presentationTimes()) })
            })
    }

    /// The route's JSON body (keys sorted, so the same signals always give the same bytes).
    public func jsonBody() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { return try encoder.encode(self) } catch {
            throw BioverifyError.invalidInput("the integrity signals cannot be encoded: \(error)")
        }
    }

    // The server takes every member, null where unknown, and refuses any other: each is written
    // explicitly (a synthesized Encodable would leave nil members out), strings cut to its limits.
    private enum Key: String, CodingKey {
        case client, cameraLabel = "camera_label", webdriver, renderer, constraintProbe = "constraint_probe"
        case frameTiming = "frame_timing", native, device, camera
        case emulator, debuggerAttached = "debugger_attached", rootedOrJailbroken = "rooted_or_jailbroken"
        case hookingFramework = "hooking_framework", appId = "app_id", osVersion = "os_version", sdkVersion = "sdk_version"
        case position, deviceType = "device_type", virtual, source, frames
        case medianIntervalMs = "median_interval_ms", jitterMs = "jitter_ms"
    }

    public func encode(to encoder: Encoder) throws {
        var body = encoder.container(keyedBy: Key.self)
        try body.encode("ios", forKey: .client)
        for web in [Key.cameraLabel, .webdriver, .renderer, .constraintProbe, .frameTiming] { try body.encodeNil(forKey: web) }
        var native = body.nestedContainer(keyedBy: Key.self, forKey: .native)
        var facts = native.nestedContainer(keyedBy: Key.self, forKey: .device)
        try facts.encode(device.isEmulator, forKey: .emulator)
        try facts.encode(device.isDebuggerAttached, forKey: .debuggerAttached)
        try facts.encode(device.isJailbroken, forKey: .rootedOrJailbroken)
        try facts.encode(device.hasHookingFramework, forKey: .hookingFramework)
        try facts.encode(device.appId.map { Self.clip($0, to: 128) }, forKey: .appId)
        try facts.encode(device.osVersion.map { Self.clip($0, to: 32) }, forKey: .osVersion)
        try facts.encode(device.sdkVersion.map { Self.clip($0, to: 32) }, forKey: .sdkVersion)
        guard let camera else { return try native.encodeNil(forKey: .camera) }
        var lens = native.nestedContainer(keyedBy: Key.self, forKey: .camera)
        try lens.encode(camera.position.rawValue, forKey: .position)
        try lens.encode(camera.deviceType.map { Self.clip($0, to: 64) }, forKey: .deviceType)
        try lens.encode(camera.isVirtual, forKey: .virtual)
        guard let timing = camera.frameTiming else { return try lens.encodeNil(forKey: .frameTiming) }
        var clock = lens.nestedContainer(keyedBy: Key.self, forKey: .frameTiming)
        try clock.encode("presentation_time", forKey: .source)
        try clock.encode(timing.frames, forKey: .frames)
        try clock.encode(timing.medianIntervalMs, forKey: .medianIntervalMs)
        try clock.encode(timing.jitterMs, forKey: .jitterMs)
    }

    /// At most `limit` UTF-16 units, as the server counts a string's length, never splitting a character.
    static func clip(_ text: String, to limit: Int) -> String {
        var clipped = text
        while clipped.utf16.count > limit { clipped.removeLast() }
        return clipped
    }
}
