#if canImport(Darwin) && canImport(MachO)
    import BioverifyCore
    import Darwin
    import Foundation
    import MachO

    /// The device facts of `IntegritySignals`, read from this process and its sandbox. The judgments
    /// live in the core (`DeviceHeuristics`); this file only asks the system. Nothing identifying is
    /// read: no identifierForVendor, no serial number, no device name.
    public struct AppleDeviceFacts: DeviceFacts {
        public init() {}

        /// The Simulator, or an iPhone app run on an Apple silicon Mac: no phone in a hand, and the Mac's
        /// cameras include virtual ones (OBS and others install there).
        public var isEmulator: Bool? {
            #if targetEnvironment(simulator)
                return true
            #else
                return ProcessInfo.processInfo.isiOSAppOnMac
            #endif
        }

        /// The kernel's P_TRACED flag on this process: set while a debugger (or anything using ptrace) is attached.
        public var isDebuggerAttached: Bool? {
            var info = kinfo_proc()
            var size = MemoryLayout<kinfo_proc>.stride
            var mib: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, getpid()]
            guard sysctl(&mib, u_int(mib.count), &info, &size, nil, 0) == 0 else { return nil }
            return (info.kp_proc.p_flag & P_TRACED) != 0
        }

        /// Jailbreak files, or a write outside the sandbox that succeeds. In the Simulator both would
        /// look at the Mac's own file system (which has /bin/bash), so there it cannot tell.
        public var isJailbroken: Bool? {
            #if targetEnvironment(simulator)
                return nil
            #else
                return DeviceHeuristics.isJailbroken(
                    pathExists: { FileManager.default.fileExists(atPath: $0) }, wroteOutsideSandbox: Self.writesOutsideSandbox())
            #endif
        }

        public var hasHookingFramework: Bool? {
            let images = (0..<_dyld_image_count()).compactMap { index in _dyld_get_image_name(index).map { String(cString: $0) } }
            return DeviceHeuristics.hasHookingFramework(loadedImages: images, environment: ProcessInfo.processInfo.environment)
        }

        public var appId: String? { Bundle.main.bundleIdentifier }

        /// "17.4.1": ProcessInfo rather than UIDevice, which is main-actor bound.
        public var osVersion: String? {
            let version = ProcessInfo.processInfo.operatingSystemVersion
            return "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
        }

        private static func writesOutsideSandbox() -> Bool {
            let probe = "\(DeviceHeuristics.sandboxProbeDirectory)/bioverify-\(UUID().uuidString)"
            do {
                try Data("probe".utf8).write(to: URL(fileURLWithPath: probe))
                try? FileManager.default.removeItem(atPath: probe)
                return true
            } catch {
                return false
            }
        }
    }
#endif
