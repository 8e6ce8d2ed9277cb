@_exported import Foundation
// `import GoogleMaps` brings the UIKit subset into scope, as importing the real SDK does on iOS after `import UIKit`.
@_exported import LinuxUIKit
