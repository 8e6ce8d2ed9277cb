import CSDL2
import CairoGraphics
import Foundation
import LinuxUIKit

/// The SDL2 window backend of `UIApplicationMain`: owns the window, waits for SDL events and feeds them through an
/// ``InputMapper`` to the window host's touch input, and shows the frames the host draws. Contains no app or map
/// logic.
///
/// Waiting is `SDL_WaitEventTimeout` until the host's deadline; other threads wake it with a registered user event
/// (`SDL_PushEvent` is thread-safe), installed as `UIApplication.wakeHandler`. Frames are made on the CPU, so they go
/// straight into the window's own surface (`SDL_GetWindowSurface`: shared memory on X11) and `SDL_UpdateWindowSurface`
/// shows them, without vsync (toolchain notes §4): a 32-bit XRGB/ARGB surface (Cairo's ARGB32 layout) takes the
/// rows as they are, other formats go through `SDL_ConvertPixels`, a frame of another size (`--scale` under X11) is
/// scaled with `SDL_SoftStretchLinear`. No GPU renderer and texture: on a software GL (Mesa llvmpipe under Xvfb) the
/// texture upload and copy cost more than drawing the map. HiDPI: the scale is the window's size in pixels over its
/// size in points, unless `--scale` forces one.
@MainActor package final class SDLWindowBackend: WindowBackend {
    private let window: OpaquePointer
    private let forcedScale: CGFloat?
    private let wakeEventType: UInt32
    /// The mouse/wheel/key/finger mapping, created on the first wait (it sends through the host's input).
    package private(set) var mapper: InputMapper?
    /// Backend-level failures (a window surface that cannot be had) close the window.
    private var failed = false

    /// The message for a missing display.
    static let noDisplayMessage = "no display (set DISPLAY or run under Xvfb)"

    /// Opens the SDL window of `options` (title, size in points, forced scale), or fails with why.
    package static func make(
        _ options: UIApplicationHostOptions
    ) -> Result<any WindowBackend, ApplicationRunner.BackendError> {
        let environment = ProcessInfo.processInfo.environment
        let hasDisplayVariable =
            !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        let explicitDriver = (environment["SDL_VIDEODRIVER"] ?? "").lowercased()
        // Without DISPLAY or WAYLAND_DISPLAY SDL silently falls back to its offscreen driver, where no input ever
        // arrives (toolchain notes §4); an explicitly chosen real driver (e.g. kmsdrm on a console) is allowed.
        if !hasDisplayVariable && (explicitDriver.isEmpty || ["offscreen", "dummy"].contains(explicitDriver)) {
            return .failure(.init(noDisplayMessage))
        }
        _ = SDL_SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0")  // touch screens: fingers only, no synthetic mouse
        _ = SDL_SetHint(SDL_HINT_MOUSE_TOUCH_EVENTS, "0")  // and no synthetic fingers from the mouse
        _ = SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        // The window's own framebuffer (MIT-SHM under X11) rather than SDL's texture stand-in over a renderer: the
        // frames are CPU-made, and SDL's probe for a fast GL (a hidden window and context) costs a start-up frame.
        _ = SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        guard SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) == 0 else {
            return .failure(.init("cannot start SDL video (\(String(cString: SDL_GetError()))); \(noDisplayMessage)"))
        }
        guard let driver = currentVideoDriver(), !["offscreen", "dummy"].contains(driver) else {
            SDL_Quit()
            return .failure(.init(noDisplayMessage))
        }
        let centered = Int32(bitPattern: SDL_WINDOWPOS_CENTERED_MASK)
        let flags = SDL_WINDOW_SHOWN.rawValue | SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        guard
            let window = SDL_CreateWindow(
                options.title, centered, centered, Int32(options.size.width), Int32(options.size.height), flags)
        else {
            let message = "cannot create the window: \(String(cString: SDL_GetError()))"
            SDL_Quit()
            return .failure(.init(message))
        }
        return .success(SDLWindowBackend(window: window, driver: driver, forcedScale: options.scale))
    }

    package let driverName: String

    private init(window: OpaquePointer, driver: String, forcedScale: CGFloat?) {
        self.window = window
        self.driverName = driver
        self.forcedScale = forcedScale
        let type = SDL_RegisterEvents(1)
        wakeEventType = type
        UIApplication.wakeHandler = {
            guard type != UInt32.max else { return }
            var event = SDL_Event()
            event.type = type
            _ = SDL_PushEvent(&event)
        }
    }

    package func geometry() -> (size: CGSize, scale: CGFloat) {
        var ww: Int32 = 0
        var wh: Int32 = 0
        var pw: Int32 = 0
        var ph: Int32 = 0
        SDL_GetWindowSize(window, &ww, &wh)
        SDL_GetWindowSizeInPixels(window, &pw, &ph)
        if pw <= 0 || ph <= 0 { (pw, ph) = (ww, wh) }
        let scale = forcedScale ?? (ww > 0 ? CGFloat(pw) / CGFloat(ww) : 1)
        return (CGSize(width: CGFloat(max(ww, 1)), height: CGFloat(max(wh, 1))), scale > 0 ? scale : 1)
    }

    package var nextInputDeadline: TimeInterval? { mapper?.nextDeadline }

    package func runDueInput(now: TimeInterval) { mapper?.runDue(now: now) }

    package func cancelInput() { mapper?.cancelAll() }

    package func waitForEvents(until deadline: TimeInterval, host: WindowHost) {
        let mapper = self.mapper ?? InputMapper(input: host.input)
        if self.mapper == nil {
            self.mapper = mapper
            mapper.onTouches = { [unowned host] in host.dirty = true }
        }
        let wait = max(0, deadline - host.now)
        var event = SDL_Event()
        let ms = Int32(min(wait * 1000, 1_000_000).rounded(.up))
        guard SDL_WaitEventTimeout(&event, ms) != 0 else { return }
        handle(event, host: host, mapper: mapper)
        while !host.isClosed && SDL_PollEvent(&event) != 0 { handle(event, host: host, mapper: mapper) }
        if failed { host.close() }
    }

    package func present(_ image: UIImage) {
        guard let frame = image.surface, frame.width > 0, frame.height > 0, frame.stride > 0 else { return }
        guard let target = SDL_GetWindowSurface(window) else {
            FileHandle.standardError.write(
                Data("cannot get the window's surface: \(String(cString: SDL_GetError()))\n".utf8))
            failed = true
            return
        }
        let width = Int(target.pointee.w)
        let height = Int(target.pointee.h)
        guard width > 0, height > 0, let format = target.pointee.format?.pointee.format else { return }
        // Window surfaces are not RLE-encoded in practice; lock when SDL says so anyway (`SDL_MUSTLOCK`).
        let mustLock = target.pointee.flags & UInt32(SDL_RLEACCEL) != 0
        let sameLayout = format == SDL_PIXELFORMAT_RGB888.rawValue || format == SDL_PIXELFORMAT_ARGB8888.rawValue
        frame.withPixels { pixels in
            guard let source = pixels.baseAddress else { return }
            let sourcePitch = frame.stride
            guard frame.width == width && frame.height == height else {
                // Another size (a forced scale): stretched, in the window's format when it has Cairo's layout.
                guard
                    let wrapped = SDL_CreateRGBSurfaceWithFormatFrom(
                        UnsafeMutableRawPointer(mutating: source), Int32(frame.width), Int32(frame.height), 32,
                        Int32(sourcePitch), sameLayout ? format : SDL_PIXELFORMAT_ARGB8888.rawValue)
                else { return }
                SDL_SetSurfaceBlendMode(wrapped, SDL_BLENDMODE_NONE)
                if sameLayout {
                    SDL_SoftStretchLinear(wrapped, nil, target, nil)
                } else {
                    SDL_UpperBlitScaled(wrapped, nil, target, nil)
                }
                SDL_FreeSurface(wrapped)
                return
            }
            if mustLock { guard SDL_LockSurface(target) == 0 else { return } }
            defer { if mustLock { SDL_UnlockSurface(target) } }
            guard let destination = target.pointee.pixels else { return }
            let pitch = Int(target.pointee.pitch)
            if sameLayout {
                // Cairo's ARGB32 rows are the window's XRGB8888 rows (the alpha byte is ignored).
                for y in 0..<height {
                    (destination + y * pitch).copyMemory(
                        from: UnsafeRawPointer(source) + y * sourcePitch, byteCount: width * 4)
                }
            } else {
                SDL_ConvertPixels(
                    Int32(width), Int32(height), SDL_PIXELFORMAT_ARGB8888.rawValue, source, Int32(sourcePitch),
                    format, destination, Int32(pitch))
            }
        }
        SDL_UpdateWindowSurface(window)
    }

    package func close() {
        UIApplication.wakeHandler = nil
        SDL_DestroyWindow(window)
        SDL_Quit()
    }

    // MARK: Events

    private func handle(_ event: SDL_Event, host: WindowHost, mapper: InputMapper) {
        let now = host.now
        switch event.type {
        case SDL_QUIT.rawValue:
            host.close()
        case SDL_WINDOWEVENT.rawValue:
            switch UInt32(event.window.event) {
            case SDL_WINDOWEVENT_SIZE_CHANGED.rawValue:
                mapper.cancelAll()
                let (size, scale) = geometry()
                host.resize(to: size, scale: scale)
            case SDL_WINDOWEVENT_EXPOSED.rawValue, SDL_WINDOWEVENT_SHOWN.rawValue:
                host.dirty = true
            default:
                break
            }
        case SDL_MOUSEBUTTONDOWN.rawValue:
            guard event.button.which != UInt32.max else { return }  // SDL_TOUCH_MOUSEID: fingers come separately
            let p = CGPoint(x: CGFloat(event.button.x), y: CGFloat(event.button.y))
            mapper.mouseDown(button: Int(event.button.button), at: p, shiftOrAlt: shiftOrAltHeld(), now: now)
        case SDL_MOUSEBUTTONUP.rawValue:
            guard event.button.which != UInt32.max else { return }
            let p = CGPoint(x: CGFloat(event.button.x), y: CGFloat(event.button.y))
            mapper.mouseUp(button: Int(event.button.button), at: p)
        case SDL_MOUSEMOTION.rawValue:
            guard event.motion.which != UInt32.max else { return }
            mapper.mouseMoved(to: CGPoint(x: CGFloat(event.motion.x), y: CGFloat(event.motion.y)))
        case SDL_MOUSEWHEEL.rawValue:
            guard event.wheel.which != UInt32.max else { return }
            var notches = Double(event.wheel.preciseY)
            if notches == 0 { notches = Double(event.wheel.y) }
            if event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue { notches = -notches }
            let p = CGPoint(x: CGFloat(event.wheel.mouseX), y: CGFloat(event.wheel.mouseY))
            mapper.wheel(notches: notches, at: p, now: now)
        case SDL_FINGERDOWN.rawValue, SDL_FINGERMOTION.rawValue, SDL_FINGERUP.rawValue:
            let f = event.tfinger
            let size = host.window.bounds.size
            let p = CGPoint(x: CGFloat(f.x) * size.width, y: CGFloat(f.y) * size.height)
            let phase: UITouch.Phase =
                event.type == SDL_FINGERDOWN.rawValue ? .began : event.type == SDL_FINGERUP.rawValue ? .ended : .moved
            mapper.finger(f.fingerId ^ (f.touchId << 32), phase, at: p)
        case SDL_KEYDOWN.rawValue:
            if host.hasTextInputFocus {
                handleEditingKey(event.key.keysym.sym, host: host)
            } else {
                handleKey(event.key.keysym.sym, host: host, mapper: mapper)
            }
        case SDL_TEXTINPUT.rawValue:
            // Typed text (after the keyboard layout and input method) for the first responder; ignored without one.
            guard host.hasTextInputFocus else { return }
            let text = withUnsafeBytes(of: event.text.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            host.insertText(text)
        case wakeEventType:
            host.dirty = true  // background work (tiles, a geocoder answer on the main queue) may change the views
        default:
            // SDL_MULTIGESTURE is ignored on purpose: its fingers already arrive as SDL_FINGER* touches; the wake
            // event only ends the wait.
            break
        }
    }

    private func shiftOrAltHeld() -> Bool {
        let mods = SDL_GetModState().rawValue
        let mask = KMOD_LSHIFT.rawValue | KMOD_RSHIFT.rawValue | KMOD_LALT.rawValue | KMOD_RALT.rawValue
        return mods & mask != 0
    }

    /// While a text field or text view is the first responder, keys edit it: backspace deletes, return and enter
    /// are the return key, Esc ends editing; the characters themselves come as `SDL_TEXTINPUT`, and Q, the arrows
    /// and +/- do not reach the map.
    private func handleEditingKey(_ sym: SDL_Keycode, host: WindowHost) {
        func code(_ k: SDL_KeyCode) -> SDL_Keycode { SDL_Keycode(truncatingIfNeeded: k.rawValue) }
        switch sym {
        case code(SDLK_BACKSPACE):
            host.deleteBackward()
        case code(SDLK_RETURN), code(SDLK_KP_ENTER):
            host.insertText("\n")
        case code(SDLK_ESCAPE):
            host.window.endEditing(true)
            host.dirty = true
        default:
            break
        }
    }

    /// Q/Esc close; arrows pan, +/- zoom (scripted touches, see ``InputMapper``); other letters and digits go to the
    /// host's key handler.
    private func handleKey(_ sym: SDL_Keycode, host: WindowHost, mapper: InputMapper) {
        func code(_ k: SDL_KeyCode) -> SDL_Keycode { SDL_Keycode(truncatingIfNeeded: k.rawValue) }
        let t = host.now
        switch sym {
        case code(SDLK_q), code(SDLK_ESCAPE):
            host.close()
        case code(SDLK_LEFT):
            mapper.key(.pan(dx: 100, dy: 0), now: t)
        case code(SDLK_RIGHT):
            mapper.key(.pan(dx: -100, dy: 0), now: t)
        case code(SDLK_UP):
            mapper.key(.pan(dx: 0, dy: 100), now: t)
        case code(SDLK_DOWN):
            mapper.key(.pan(dx: 0, dy: -100), now: t)
        case code(SDLK_PLUS), code(SDLK_EQUALS), code(SDLK_KP_PLUS):
            mapper.key(.zoomIn, now: t)
        case code(SDLK_MINUS), code(SDLK_KP_MINUS):
            mapper.key(.zoomOut, now: t)
        default:
            if sym >= code(SDLK_a) && sym <= code(SDLK_z) || sym >= code(SDLK_0) && sym <= code(SDLK_9),
                let scalar = Unicode.Scalar(UInt32(sym))
            {
                host.onKey?(String(Character(scalar)))
                host.dirty = true
            }
        }
    }
}

/// The name of SDL's video driver, or nil before `SDL_Init`.
func currentVideoDriver() -> String? {
    guard let name = SDL_GetCurrentVideoDriver() else { return nil }
    return String(cString: name)
}
