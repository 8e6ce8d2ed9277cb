// `import CoreGraphics` on Linux. On iOS, CoreGraphics holds `CGFloat`, `CGPoint`, `CGSize`, `CGRect` and
// `CGAffineTransform` (Foundation provides them on Linux) and Quartz 2D: `CGContext`, `CGColor`, `CGPath`, `CGImage`
// (Waymark implements them in LinuxUIKit over Cairo). This module re-exports both, so iOS code that imports
// CoreGraphics compiles unchanged; it brings the rest of LinuxUIKit too, which only allows more. `import UIKit`
// re-exports this module, as on iOS. On Apple platforms this module is not built: the system CoreGraphics is used.
@_exported import Foundation
@_exported import LinuxUIKit
