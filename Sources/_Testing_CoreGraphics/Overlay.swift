// Empty on purpose. The toolchain's swift-testing declares a cross-import overlay `_Testing_CoreGraphics` for files
// that import both `Testing` and a module named `CoreGraphics` (Apple's). Waymark's `CoreGraphics` module (re-exported
// by `UIKit` and so by `GoogleMaps`) triggers the same lookup on Linux, and no such module ships with the toolchain,
// so every test file importing `Testing` and `UIKit` would fail with "no such module '_Testing_CoreGraphics'". The
// `CoreGraphics` target depends on this empty module so the lookup succeeds, in this package and in packages that
// depend on it. (See `_Testing_UIKit`, the same for `UIKit`.)
