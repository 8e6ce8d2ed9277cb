// map-viewer: the map in a window (issue 8), as a small UIKit app (issue 15): an app delegate (AppDelegate.swift), a
// view controller holding the map and its delegate (MapViewContent.swift). See ViewerOptions.usage and README
// "map-viewer controls".
import Foundation
import UIKit

let options: ViewerOptions
do {
    options = try ViewerOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    viewerError("\(error)")
    FileHandle.standardError.write(Data((ViewerOptions.usage + "\n").utf8))
    exit(2)
}
if options.showHelp {
    print(ViewerOptions.usage)
    exit(0)
}

AppDelegate.options = options
// The host's own switches as every Waymark app reads them: WAYMARK_APPEARANCE, and --appearance when given.
var hostOptions = UIApplicationHostOptions(
    arguments: ["map-viewer"] + (options.appearance.map { ["--appearance", $0] } ?? []))
hostOptions.backend = .window  // no display: exit 1 with "map-viewer: no display (…)"
hostOptions.size = CGSize(width: options.width, height: options.height)
hostOptions.scale = options.scale.map { CGFloat($0) }
exit(UIApplicationMain(delegate: AppDelegate.self, options: hostOptions))
