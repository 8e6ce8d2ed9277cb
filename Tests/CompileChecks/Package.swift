// swift-tools-version:6.0
// Compile checks for issue 29: code written for Google's SDK, calling the model classes from nonisolated code, must
// compile in Swift 5 mode without a warning and in Swift 6 mode with only the warnings Xcode would give. Built by
// `make test` through scripts/dev/compile-checks.sh (scratch path .build/compile-checks of the main checkout).
// GoogleMapsUtils is a dependency too: a user building it must see no warning from its sources (issue 31).
import PackageDescription

let package = Package(
    name: "CompileChecks",
    dependencies: [.package(name: "Waymark", path: "../..")],
    targets: [
        .target(
            name: "Swift5Checks",
            dependencies: [
                .product(name: "GoogleMaps", package: "Waymark"), .product(name: "GoogleMapsUtils", package: "Waymark"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(
            name: "Swift6Checks",
            dependencies: [
                .product(name: "GoogleMaps", package: "Waymark"), .product(name: "GoogleMapsUtils", package: "Waymark"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
