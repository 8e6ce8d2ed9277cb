// map-viewer: the map in an SDL2 window (issue 8). See ViewerOptions.usage and README "map-viewer controls".
import CSDL2
import Foundation
import LinuxUIKit

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

let noDisplayMessage = "no display (set DISPLAY or run under Xvfb)"
let environment = ProcessInfo.processInfo.environment
let hasDisplayVariable = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
let explicitDriver = (environment["SDL_VIDEODRIVER"] ?? "").lowercased()
// Without DISPLAY or WAYLAND_DISPLAY SDL silently falls back to its offscreen driver, where no input ever arrives
// (toolchain notes §4); an explicitly chosen real driver (e.g. SDL_VIDEODRIVER=kmsdrm on a console) is allowed.
if !hasDisplayVariable && (explicitDriver.isEmpty || ["offscreen", "dummy"].contains(explicitDriver)) {
    viewerError(noDisplayMessage)
    exit(1)
}

_ = SDL_SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0")  // touch screens: fingers only, no synthetic mouse
_ = SDL_SetHint(SDL_HINT_MOUSE_TOUCH_EVENTS, "0")  // and no synthetic fingers from the mouse
_ = SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
guard SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) == 0 else {
    viewerError("cannot start SDL video (\(String(cString: SDL_GetError()))); \(noDisplayMessage)")
    exit(1)
}
guard let driver = currentVideoDriver(), !["offscreen", "dummy"].contains(driver) else {
    viewerError(noDisplayMessage)
    SDL_Quit()
    exit(1)
}

// Tiles made off the main thread wake the loop with this event (SDL_PushEvent is thread-safe).
let wakeEventType = SDL_RegisterEvents(1)
let wake: @Sendable () -> Void = {
    guard wakeEventType != UInt32.max else { return }
    var event = SDL_Event()
    event.type = wakeEventType
    _ = SDL_PushEvent(&event)
}
guard
    let host = SDLHost(
        title: "map-viewer", width: options.width, height: options.height, stats: options.stats,
        script: options.script, forcedScale: options.scale,
        makeContent: { size in makeContent(options: options, size: size, wake: wake) })
else {
    SDL_Quit()
    exit(1)
}
host.run()
SDL_Quit()
exit(0)
