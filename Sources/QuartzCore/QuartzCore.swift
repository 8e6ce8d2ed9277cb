// `import QuartzCore` on Linux. On iOS, QuartzCore is Core Animation: `CALayer`, `CATransaction`,
// `CABasicAnimation`, `CAMediaTimingFunction` and their constants. Waymark implements them in LinuxUIKit beside the
// views that own the layers, so this module re-exports LinuxUIKit (and Foundation): iOS map code that imports
// QuartzCore compiles unchanged. It brings the rest of LinuxUIKit too, where iOS's QuartzCore would not; that only
// allows more, never less. `import UIKit` re-exports this module, as on iOS. On Apple platforms this module is not
// built: the system QuartzCore is used.
@_exported import Foundation
@_exported import LinuxUIKit
