// Empty on purpose. The toolchain's swift-testing declares a cross-import overlay `_Testing_UIKit` for files that
// import both `Testing` and a module named `UIKit` (Apple's). On Linux Waymark's thin `UIKit` module triggers the
// same lookup, and no such module ships with the toolchain, so every test file importing `Testing` and `UIKit` (or
// `GoogleMaps`, which re-exports it) would fail with "no such module '_Testing_UIKit'". The `UIKit` target depends
// on this empty module so the lookup succeeds, in this package and in packages that depend on it.
