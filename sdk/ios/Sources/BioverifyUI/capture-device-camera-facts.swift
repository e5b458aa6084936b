#if canImport(AVFoundation)
    import AVFoundation
    import BioverifyCore

    /// The face camera as AVFoundation describes it, for `IntegritySignals`.
    public struct CaptureDeviceCameraFacts: CameraFacts {
        public let position: CameraPosition
        public let deviceType: String?
        /// AVFoundation's `isVirtualDevice` means a group of physical lenses (the dual camera), not a
        /// camera fed by software, and iOS has no third-party virtual cameras: the platform cannot say.
        public let isVirtual: Bool? = nil

        public init(device: AVCaptureDevice) {
            deviceType = device.deviceType.rawValue
            position = Self.position(of: device)
        }

        /// A Continuity Camera or a USB camera is `external` whatever side it faces.
        static func position(of device: AVCaptureDevice) -> CameraPosition {
            if #available(iOS 17.0, macOS 14.0, *), device.deviceType == .external { return .external }
            if #available(iOS 16.0, macOS 13.0, *), device.isContinuityCamera { return .external }
            switch device.position {
            case .front: return .front
            case .back: return .back
            default: return .unknown
            }
        }
    }
#endif
