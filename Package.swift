// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "stickerize",
    products: [
        .library(name: "StickerKit", targets: ["StickerKit"]),
        .executable(name: "stickerize", targets: ["stickerize"]),
    ],
    targets: [
        .target(
            name: "CImageCodecs",
            path: "CImageCodecs",
            linkerSettings: [
                .linkedLibrary("png16"),
                .linkedLibrary("jpeg"),
                .linkedLibrary("crypto"),
                .linkedLibrary("z"),
            ]
        ),
        .target(name: "StickerKit", dependencies: ["CImageCodecs"]),
        .executableTarget(name: "stickerize", dependencies: ["StickerKit"]),
        .testTarget(name: "StickerKitTests", dependencies: ["StickerKit", "CImageCodecs"]),
        .testTarget(name: "stickerizeTests", dependencies: ["stickerize", "StickerKit"]),
    ],
    swiftLanguageModes: [.v6]
)
