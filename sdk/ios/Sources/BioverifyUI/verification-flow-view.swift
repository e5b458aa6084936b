#if canImport(UIKit) && canImport(SwiftUI) && canImport(AVFoundation)
    import AVFoundation
    import BioverifyCore
    import SwiftUI
    import UIKit

    /// Publishes the core session's step for SwiftUI; every rule lives in `VerificationSession`.
    @MainActor
    public final class VerificationViewModel: ObservableObject {
        @Published public private(set) var step: FlowStep = .notStarted
        @Published public private(set) var prompt: String?
        @Published public private(set) var error: BioverifyError?
        @Published public private(set) var busy = false
        public let session: VerificationSession
        public let camera = CameraFrameSource()
        public var documentType: DocumentType = .passport
        private var locale = "en"

        // nonisolated: SwiftUI builds the StateObject outside the main actor on older SDKs.
        public nonisolated init(handoff: SessionHandoff) {
            session = VerificationSession(handoff: handoff, encoder: UIKitImageEncoder())
        }

        /// Asks for the camera permission (the system prompt, with NSCameraUsageDescription), then
        /// starts the preview.
        public func prepareCamera() {
            AVCaptureDevice.requestAccess(for: .video) { granted in
                Task { @MainActor in
                    guard granted else {
                        self.error = .invalidState("camera access was denied; allow it in Settings")
                        return
                    }
                    do {
                        try self.camera.configure()
                        self.camera.startPreview()
                    } catch let failure as BioverifyError {
                        self.error = failure
                    } catch {
                        self.error = .invalidState(String(describing: error))
                    }
                }
            }
        }

        /// The paced step on screen (draw `target` as the dot the nose should reach).
        @Published public private(set) var pacedStep: PacedStep?
        private var livenessMode: LivenessMode = .oneShot

        public func start() {
            run {
                let started = try await self.session.start()
                self.locale = started.locale
                self.livenessMode = started.livenessMode ?? .oneShot
            }
        }
        public func document(_ jpeg: Data) { run { _ = try await self.session.captureDocument(jpeg, type: self.documentType) } }
        public func selfie(_ jpeg: Data) { run { _ = try await self.session.captureSelfie(jpeg) } }
        public func skipChip() { run { try await self.session.skipChip() } }

        /// Shows each step's prompt on the camera's clock, then uploads the frames; a paced session
        /// (production) reveals, shows and sends each step as it goes.
        public func performChallenge() {
            if livenessMode == .paced { return performPacedChallenge() }
            run {
                let timeline = await self.session.timeline()
                try await self.camera.start()
                while let ms = self.camera.elapsedMs(), ms < timeline.totalMs {
                    switch timeline.phase(atMs: ms) {
                    case .leadIn: self.prompt = self.locale == "fr" ? "Regardez la caméra" : "Look at the camera"
                    case .step(_, let step): self.prompt = step.prompt(locale: self.locale)
                    case .finished: self.prompt = nil
                    }
                    try await Task.sleep(nanoseconds: 50_000_000)
                }
                self.prompt = nil
                _ = try await self.session.captureLiveness(await self.camera.stop(), timeline: timeline)
            }
        }

        private func performPacedChallenge() {
            run {
                try await self.camera.start()
                defer { Task { _ = await self.camera.stop() } }
                _ = try await self.session.capturePacedLiveness(camera: self.camera) { step in
                    await MainActor.run {
                        self.pacedStep = step
                        self.prompt = step.prompt(locale: self.locale)
                    }
                }
                self.prompt = nil
                self.pacedStep = nil
            }
        }

        /// Sends the device's integrity signals (read now, after the selfie) with the submit.
        public func submit() {
            run {
                let integrity = IntegritySignals.collect(
                    device: AppleDeviceFacts(), camera: self.camera.faceCameraFacts(), frameTimes: self.camera.presentationTimes)
                _ = try await self.session.submit(integrity: integrity)
                self.step = await self.session.step
                _ = try await self.session.awaitDecision()
            }
        }

        private func run(_ work: @escaping @MainActor () async throws -> Void) {
            guard !busy else { return }
            busy = true
            Task { @MainActor in
                do {
                    try await work()
                    error = nil
                } catch let failure as BioverifyError {
                    error = failure
                } catch {
                    self.error = .network(String(describing: error))
                }
                step = await session.step
                busy = false
            }
        }
    }

    /// A ready-made flow: document, (chip skipped unless the app drives it), liveness, selfie,
    /// submit, then `onFinish` with the status and redirect URL. Apps wanting their own screens use
    /// `VerificationViewModel` or `VerificationSession` directly.
    public struct VerificationFlowView: View {
        @StateObject private var model: VerificationViewModel
        private let onFinish: (SessionStatus, String?) -> Void

        public init(handoff: SessionHandoff, onFinish: @escaping (SessionStatus, String?) -> Void) {
            _model = StateObject(wrappedValue: VerificationViewModel(handoff: handoff))
            self.onFinish = onFinish
        }

        public var body: some View {
            VStack(spacing: 16) {
                switch model.step {
                case .notStarted:
                    Button("Start") { model.start() }
                case .document(let side, let reason, _):
                    Text(side == .front ? "Photograph the front of your document" : "Now the back")
                    if let reason { Text("Please retake: \(reason)").foregroundColor(.orange) }
                    PhotoButton(title: "Take photo", device: .rear) { model.document($0) }
                case .chip:
                    Button("Continue without the chip") { model.skipChip() }
                case .liveness(let retake, _):
                    CameraPreview(session: model.camera.captureSession).frame(height: 360)
                    Text(model.prompt ?? (retake ? "Let's try again: keep your face in view" : "Follow the prompts"))
                    if model.prompt == nil { Button("Begin") { model.performChallenge() } }
                case .selfie(let reason, _):
                    if reason == "FACE_TOO_CLOSE" { Text("Hold the phone a little further away") }
                    PhotoButton(title: "Take a selfie", device: .front) { model.selfie($0) }
                case .readyToSubmit:
                    Button("Send") { model.submit() }
                case .waitingForDecision:
                    ProgressView("Checking…")
                case .finished(let status, let redirect):
                    ProgressView().onAppear { onFinish(status, redirect) }
                }
                if let error = model.error { Text(String(describing: error)).font(.footnote).foregroundColor(.red) }
            }
            .padding()
            .disabled(model.busy)
            .onAppear { model.prepareCamera() }
            .onDisappear { model.camera.stopCamera() }
        }
    }

    struct CameraPreview: UIViewRepresentable {
        let session: AVCaptureSession

        final class PreviewView: UIView {
            override class var layerClass: AnyClass { AVCaptureVideoPreviewLayer.self }
            var previewLayer: AVCaptureVideoPreviewLayer { layer as! AVCaptureVideoPreviewLayer }
        }

        func makeUIView(context: Context) -> PreviewView {
            let view = PreviewView()
            view.previewLayer.session = session
            view.previewLayer.videoGravity = .resizeAspectFill
            return view
        }

        func updateUIView(_ uiView: PreviewView, context: Context) {}
    }

    /// The system camera for one still photo, handed back as JPEG.
    struct PhotoButton: View {
        let title: String
        let device: UIImagePickerController.CameraDevice
        let onPhoto: (Data) -> Void
        @State private var showing = false

        var body: some View {
            Button(title) { showing = true }
                .sheet(isPresented: $showing) {
                    PhotoPicker(device: device) { image in
                        showing = false
                        if let jpeg = image?.jpegData(compressionQuality: 0.92) { onPhoto(jpeg) }
                    }
                }
        }
    }

    struct PhotoPicker: UIViewControllerRepresentable {
        let device: UIImagePickerController.CameraDevice
        let done: (UIImage?) -> Void

        func makeCoordinator() -> Coordinator { Coordinator(done: done) }

        func makeUIViewController(context: Context) -> UIImagePickerController {
            let picker = UIImagePickerController()
            picker.sourceType = .camera
            picker.cameraDevice = device
            picker.delegate = context.coordinator
            return picker
        }

        func updateUIViewController(_ controller: UIImagePickerController, context: Context) {}

        final class Coordinator: NSObject, UIImagePickerControllerDelegate, UINavigationControllerDelegate {
            let done: (UIImage?) -> Void
            init(done: @escaping (UIImage?) -> Void) { self.done = done }

            func imagePickerController(
                _ picker: UIImagePickerController, didFinishPickingMediaWithInfo info: [UIImagePickerController.InfoKey: Any]
            ) {
                done(info[.originalImage] as? UIImage)
            }

            func imagePickerControllerDidCancel(_ picker: UIImagePickerController) { done(nil) }
        }
    }
#endif
