import Foundation

/// The judgments behind BioverifyUI's `AppleDeviceFacts`, kept apart from the platform calls so they
/// are tested here. Each is a heuristic a prepared attacker defeats (a jailbreak that hides its files,
/// a renamed Frida gadget): the server treats the answers as claims.
public enum DeviceHeuristics {
    /// Files only a jailbroken iPhone has: package managers, Substrate, a shell and sshd, APT's state,
    /// and `/var/jb`, where rootless jailbreaks (Dopamine, palera1n) keep their files.
    public static let jailbreakPaths = [
        "/Applications/Cydia.app", "/Applications/Sileo.app", "/Applications/Zebra.app",
        "/Library/MobileSubstrate/MobileSubstrate.dylib", "/usr/lib/libsubstitute.dylib", "/usr/lib/libhooker.dylib",
        "/bin/bash", "/usr/sbin/sshd", "/etc/apt", "/private/var/lib/apt/", "/var/jb",
    ]

    /// Where an App Store app may not write; a write that succeeds there means the sandbox is gone.
    public static let sandboxProbeDirectory = "/private"

    /// Substrings (lower case) of the images a hooking framework loads into the process.
    public static let hookingImageMarkers = [
        "fridagadget", "frida-gadget", "frida-agent", "libfrida", "/frida/", "mobilesubstrate", "substrateloader",
        "substrateinserter", "libsubstitute", "substitute-loader", "libhooker", "tweakinject", "ellekit", "cycript",
        "sslkillswitch",
    ]

    public static func isJailbroken(pathExists: (String) -> Bool, wroteOutsideSandbox: Bool) -> Bool {
        wroteOutsideSandbox || jailbreakPaths.contains(where: pathExists)
    }

    /// A loaded image named like a hooking framework's, or libraries injected through the environment.
    public static func hasHookingFramework(loadedImages: [String], environment: [String: String]) -> Bool {
        if let injected = environment["DYLD_INSERT_LIBRARIES"], !injected.isEmpty { return true }
        return loadedImages.contains { image in
            let name = image.lowercased()
            return hookingImageMarkers.contains { name.contains($0) }
        }
    }
}
