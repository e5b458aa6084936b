// swift-tools-version:5.9
// BioverifyCore builds with Foundation (and FoundationNetworking on Linux) only, so it is built and
// tested on Linux as well as on Apple platforms; BioverifyUI holds the Apple-only adapters.
import PackageDescription

let package = Package(
    name: "Bioverify",
    platforms: [.iOS(.v15), .macOS(.v12)],
    products: [
        .library(name: "BioverifyCore", targets: ["BioverifyCore"]),
        .library(name: "BioverifyUI", targets: ["BioverifyUI"]),
    ],
    targets: [
        .target(name: "BioverifyCore"),
        .target(name: "BioverifyUI", dependencies: ["BioverifyCore"]),
        .testTarget(
            name: "BioverifyCoreTests",
            dependencies: ["BioverifyCore"]
        ),
    ]
)
