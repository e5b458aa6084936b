#if canImport(AVFoundation) && canImport(CoreImage)
    import AVFoundation
    import BioverifyCore
    import CoreImage
    import Foundation
    import ImageIO

    /// The front camera as the core's `LivenessFrameSource`: JPEG frames at most `fps` a second,
    /// scaled to `longSide`, stamped in ms since `start()` on the clock `elapsedMs()` reads, so the
    /// UI shows each challenge step on the same clock the upload's timestamps use.
    public final class CameraFrameSource: NSObject, LivenessFrameSource, PacedFrameSource,
        AVCaptureVideoDataOutputSampleBufferDelegate,
        @unchecked Sendable
    {
        /// For a preview layer (`AVCaptureVideoPreviewLayer(session:)`).
        public let captureSession = AVCaptureSession()
        /// The presentation times of the latest frames the camera delivered, kept or not, for `IntegritySignals`.
        public let presentationTimes = PresentationTimeLog()
        private let output = AVCaptureVideoDataOutput()
        private let queue = DispatchQueue(label: "bioverify.camera-frames")
        private let context = CIContext()
        private let minIntervalMs: Int
        private let longSide: CGFloat
        private let quality: CGFloat
        // Guarded by `lock`: read from the main actor (elapsedMs) and written on `queue`.
        private let lock = NSLock()
        private var startedAt: TimeInterval?
        private var lastMs = Int.min / 2
        private var frames: [LivenessFrame] = []
        private var configured = false
        private var device: AVCaptureDevice?

        public init(fps: Int = 15, longSide: CGFloat = 720, quality: CGFloat = 0.8) {
            minIntervalMs = 1000 / max(1, fps)
            self.longSide = longSide
            self.quality = quality
        }

        /// Sets up the front camera once; call after the camera permission was granted.
        public func configure() throws {
            if locked({ configured }) { return }
            guard let device = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front) else {
                throw BioverifyError.invalidState("this device has no front camera")
            }
            let input: AVCaptureDeviceInput
            do { input = try AVCaptureDeviceInput(device: device) } catch {
                throw BioverifyError.invalidState("the camera cannot be opened: \(error.localizedDescription)")
            }
            captureSession.beginConfiguration()
            defer { captureSession.commitConfiguration() }
            captureSession.sessionPreset = .high
            guard captureSession.canAddInput(input), captureSession.canAddOutput(output) else {
                throw BioverifyError.invalidState("the camera is in use")
            }
            captureSession.addInput(input)
            output.alwaysDiscardsLateVideoFrames = true
            output.setSampleBufferDelegate(self, queue: queue)
            captureSession.addOutput(output)
            if let connection = output.connection(with: .video), connection.isVideoOrientationSupported {
                connection.videoOrientation = .portrait
            }
            locked {
                configured = true
                self.device = device
            }
        }

        /// The front camera as AVFoundation describes it, once configured.
        public func faceCameraFacts() -> CameraFacts? {
            locked { device }.map(CaptureDeviceCameraFacts.init(device:))
        }

        /// Runs the camera (for the preview) without keeping frames yet.
        public func startPreview() {
            queue.async { if !self.captureSession.isRunning { self.captureSession.startRunning() } }
        }

        public func start() async throws {
            try configure()
            startPreview()
            locked {
                frames = []
                lastMs = Int.min / 2
                startedAt = ProcessInfo.processInfo.systemUptime
            }
        }

        /// Milliseconds since `start()`, or nil when not capturing.
        public func elapsedMs() -> Int? {
            locked { startedAt.map { Int((ProcessInfo.processInfo.systemUptime - $0) * 1000) } }
        }

        public func stop() async -> [LivenessFrame] {
            // Let a frame being encoded on the queue land before handing the frames over.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in queue.async { done.resume() } }
            return locked {
                startedAt = nil
                defer { frames = [] }
                return frames
            }
        }

        /// The paced challenge reads the camera while it runs (`PacedFrameSource`).
        public func nowMs() -> Int { elapsedMs() ?? 0 }

        public func takeNewFrames() async -> [LivenessFrame] {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in queue.async { done.resume() } }
            return locked {
                defer { frames = [] }
                return frames
            }
        }

        public func stopCamera() {
            queue.async { self.captureSession.stopRunning() }
        }

        public func captureOutput(
            _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
        ) {
            // The capture clock's time of every frame, before any is dropped: the sensor's cadence, not the app's.
            let presented = CMSampleBufferGetPresentationTimeStamp(sampleBuffer)
            if presented.isValid { presentationTimes.record(presented.seconds) }
            guard let ms = elapsedMs(), ms - locked({ lastMs }) >= minIntervalMs,
                let pixels = CMSampleBufferGetImageBuffer(sampleBuffer)
            else { return }
            var image = CIImage(cvPixelBuffer: pixels)
            let scale = min(1, longSide / max(image.extent.width, image.extent.height))
            image = image.transformed(by: CGAffineTransform(scaleX: scale, y: scale))
            let qualityKey = CIImageRepresentationOption(rawValue: kCGImageDestinationLossyCompressionQuality as String)
            guard let sRGB = CGColorSpace(name: CGColorSpace.sRGB),
                let jpeg = context.jpegRepresentation(of: image, colorSpace: sRGB, options: [qualityKey: quality])
            else { return }
            locked {
                guard startedAt != nil else { return }
                lastMs = ms
                frames.append(LivenessFrame(timestampMs: ms, jpeg: jpeg))
            }
        }

        private func locked<T>(_ body: () -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body()
        }
    }
#endif
