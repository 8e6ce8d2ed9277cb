// `import GoogleMaps` brings the UIKit subset and the CoreLocation types into scope, as importing the real SDK does
// on iOS after `import UIKit` and `import CoreLocation`. The modules `UIKit` (LinuxUIKit plus the app entry points)
// and `CoreLocation` are Linux-only.
@_exported import CoreLocation
@_exported import Foundation
@_exported import LinuxUIKit
@_exported import UIKit
