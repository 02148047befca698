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
                .linkedLibrary("webp"),
                .linkedLibrary("webpdemux"),
                .linkedLibrary("tiff"),
                .linkedLibrary("gif"),
                .linkedLibrary("crypto"),
                .linkedLibrary("z"),
                .linkedLibrary("deflate"),
                .linkedLibrary("lcms2"),
                .linkedLibrary("dl"),
            ]
        ),
        .target(name: "CSubjectPriorWeights", path: "CSubjectPriorWeights"),
        .target(name: "CVectorKernels", path: "CVectorKernels"),
        .target(name: "StickerKit", dependencies: ["CImageCodecs", "CSubjectPriorWeights", "CVectorKernels"]),
        .target(name: "CAllocatorTuning", path: "CAllocatorTuning"),
        .target(name: "CStandardErrorFilter", path: "CStandardErrorFilter"),
        .target(name: "CInterruptPipe", path: "CInterruptPipe"),
        .executableTarget(name: "stickerize",
                          dependencies: ["StickerKit", "CAllocatorTuning", "CStandardErrorFilter", "CInterruptPipe"]),
        .target(name: "PaletteBenchmark", dependencies: ["StickerKit"]),
        .executableTarget(name: "stickerize-bench", dependencies: ["StickerKit", "PaletteBenchmark"]),
        .executableTarget(name: "stickerize-ranker-samples", dependencies: ["StickerKit"]),
        .executableTarget(name: "using-stickerkit", dependencies: ["StickerKit"], path: "Examples/UsingStickerKit"),
        .target(name: "TestSupport", dependencies: ["StickerKit", "CImageCodecs"], path: "Tests/TestSupport"),
        .testTarget(name: "StickerKitTests", dependencies: ["StickerKit", "CImageCodecs", "TestSupport", "PaletteBenchmark"]),
        .testTarget(name: "stickerizeTests", dependencies: ["stickerize", "StickerKit", "TestSupport"],
                    exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
