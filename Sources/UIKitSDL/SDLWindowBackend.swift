import LinuxUIKit
