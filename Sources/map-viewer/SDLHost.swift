import CCairo
import CSDL2
import Foundation
import LinuxUIKit

/// The SDL2 window: owns the window, renderer and streaming texture, runs the event loop, feeds input to an
/// ``InputMapper`` and shows the hosted view's rendered image. Contains no map logic.
///
/// Loop: wait for events (`SDL_WaitEventTimeout`: up to 1 s at rest, until the next due gesture step, or until the
/// next frame time while frames are wanted), deliver them, run due gesture steps, then — at most 60 times a second
/// and only when touches were sent, the window was exposed or resized, the content needs frames, or a view in the
/// tree asked for display — tick the content, render the root view at the drawable/window scale, upload it into an
/// ARGB8888 streaming texture (Cairo's ARGB32 layout, no swizzle; blend mode none as the pixels are premultiplied)
/// and present. No vsync is requested (toolchain notes §4).
@MainActor final class SDLHost {
    private let window: OpaquePointer
    private let renderer: OpaquePointer
    private var texture: OpaquePointer?
    private var textureSize = (w: Int32(0), h: Int32(0))
    private let content: any ViewerContent
    private let mapper: InputMapper
    private var dirty = true
    private var running = true
    private var nextFrameAt: TimeInterval = 0
    private var frames = 0
    private var announced = false
    /// Seconds each presented frame took (tick, render, upload, present), kept when `--stats` is on.
    private var frameTimes: [TimeInterval] = []
    /// Of each kept frame: seconds in `renderImage` (the map's frame), the rest being tick, upload and present.
    private var renderTimes: [TimeInterval] = []
    private let keepStats: Bool
    private let scriptName: String?
    private var script: ViewerScript?
    private let forcedScale: CGFloat?
    /// `MAP_VIEWER_DUMP_FRAME=FILE.png`: the last presented frame, at its device pixels, is written there on exit
    /// (HiDPI checks: the window shows it scaled to the window).
    private let dumpPath = ProcessInfo.processInfo.environment["MAP_VIEWER_DUMP_FRAME"]
    private var lastImage: UIImage?

    static let frameInterval: TimeInterval = 1.0 / 60

    /// Fails (returns nil after printing why) when the window or renderer cannot be created.
    /// - Parameters:
    ///   - script: a ``ViewerScript`` name played from the first frame; the window closes at its end.
    ///   - forcedScale: device pixels per point to render at instead of the drawable/window ratio.
    init?(
        title: String, width: Int, height: Int, stats: Bool, script: String? = nil, forcedScale: Double? = nil,
        makeContent: (CGSize) -> any ViewerContent
    ) {
        keepStats = stats
        scriptName = script
        self.forcedScale = forcedScale.map { CGFloat($0) }
        let centered = Int32(bitPattern: SDL_WINDOWPOS_CENTERED_MASK)
        let flags = SDL_WINDOW_SHOWN.rawValue | SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        guard let window = SDL_CreateWindow(title, centered, centered, Int32(width), Int32(height), flags) else {
            viewerError("cannot create the window: \(String(cString: SDL_GetError()))")
            return nil
        }
        guard
            let renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue)
                ?? SDL_CreateRenderer(window, -1, 0)
        else {
            viewerError("cannot create a renderer: \(String(cString: SDL_GetError()))")
            SDL_DestroyWindow(window)
            return nil
        }
        self.window = window
        self.renderer = renderer
        var ww: Int32 = 0
        var wh: Int32 = 0
        SDL_GetWindowSize(window, &ww, &wh)
        content = makeContent(CGSize(width: CGFloat(ww), height: CGFloat(wh)))
        mapper = InputMapper(rootView: content.rootView)
        mapper.onTouches = { [unowned self] in self.dirty = true }
    }

    private var now: TimeInterval { UIAnimator.shared.now }

    /// The window size in points and the device pixels per point.
    private func geometry() -> (size: CGSize, scale: CGFloat) {
        var ww: Int32 = 0
        var wh: Int32 = 0
        var pw: Int32 = 0
        var ph: Int32 = 0
        SDL_GetWindowSize(window, &ww, &wh)
        if SDL_GetRendererOutputSize(renderer, &pw, &ph) != 0 { (pw, ph) = (ww, wh) }
        let scale = forcedScale ?? (ww > 0 ? CGFloat(pw) / CGFloat(ww) : 1)
        return (CGSize(width: CGFloat(max(ww, 1)), height: CGFloat(max(wh, 1))), scale > 0 ? scale : 1)
    }

    /// Runs until the window closes or Q/Esc is pressed.
    func run() {
        var event = SDL_Event()
        while running {
            let t = now
            let wantsFrames = dirty || contentWantsFrames
            var wait: TimeInterval = 1
            if wantsFrames { wait = max(0, nextFrameAt - t) }
            if let deadline = mapper.nextDeadline { wait = min(wait, max(0, deadline - t)) }
            if let deadline = script?.nextDeadline() { wait = min(wait, max(0, deadline - t)) }
            let ms = Int32((wait * 1000).rounded(.up))
            if SDL_WaitEventTimeout(&event, ms) != 0 {
                handle(event)
                while running && SDL_PollEvent(&event) != 0 { handle(event) }
            }
            if let script {
                script.runDue(now: now, mapper: mapper)
                if script.isFinished(now: now) { running = false }
            }
            mapper.runDue(now: now)
            let frameTime = now
            guard frameTime >= nextFrameAt else { continue }
            if dirty || contentWantsFrames {
                let started = ProcessInfo.processInfo.systemUptime
                content.tick()
                present()
                if keepStats { frameTimes.append(ProcessInfo.processInfo.systemUptime - started) }
                dirty = false
                nextFrameAt = frameTime + Self.frameInterval
                if script == nil, let name = scriptName, frames > 0 {
                    script = ViewerScript(name: name, size: content.rootView.bounds.size)
                    frameTimes = []  // the script's frames only: not the window's first
                    renderTimes = []
                    viewerLog("map-viewer: playing script \(name)")
                }
            }
        }
        if let dumpPath, let png = lastImage?.pngData() {
            do {
                try png.write(to: URL(fileURLWithPath: dumpPath))
                viewerLog("map-viewer: wrote the last frame to \(dumpPath)")
            } catch {
                viewerError("cannot write \(dumpPath): \(error)")
            }
        }
        if let texture { SDL_DestroyTexture(texture) }
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
        if keepStats && !frameTimes.isEmpty {
            /// The `q` quantile (0…1) of ascending seconds, in milliseconds with two decimals.
            func ms(_ sorted: [TimeInterval], _ q: Double) -> String {
                String(format: "%.2f", sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))] * 1000)
            }
            let sorted = frameTimes.sorted()
            viewerLog(
                "map-viewer: stats \(sorted.count) frames, frame time median \(ms(sorted, 0.5)) ms, "
                    + "p99 \(ms(sorted, 0.99)) ms, max \(ms(sorted, 1)) ms"
                    + (scriptName.map { ", script \($0)" } ?? ""))
            let render = renderTimes.sorted()
            if !render.isEmpty {
                viewerLog(
                    "map-viewer: stats of which drawing the view (renderImage): median \(ms(render, 0.5)) ms, "
                        + "p99 \(ms(render, 0.99)) ms")
            }
        }
        viewerLog("map-viewer: closed after \(frames) frames")
    }

    /// The content or its views want a frame: it needs ticks, a UIView/CALayer animation runs, or a view in the tree
    /// called `setNeedsDisplay()` since the last render.
    private var contentWantsFrames: Bool {
        content.needsFrames || UIAnimator.shared.hasRunningAnimations || treeNeedsDisplay(content.rootView)
    }

    private func treeNeedsDisplay(_ view: UIView) -> Bool {
        if view.layer.needsDisplay() { return true }
        return view.subviews.contains { treeNeedsDisplay($0) }
    }

    private func present() {
        let (size, scale) = geometry()
        if content.rootView.frame.size != size {
            content.rootView.frame = CGRect(origin: .zero, size: size)
        }
        let renderStart = ProcessInfo.processInfo.systemUptime
        let image = content.rootView.renderImage(scale: scale)
        if keepStats { renderTimes.append(ProcessInfo.processInfo.systemUptime - renderStart) }
        if dumpPath != nil { lastImage = image }
        guard let surface = image.cairoSurface else { return }
        cairo_surface_flush(surface)
        let w = cairo_image_surface_get_width(surface)
        let h = cairo_image_surface_get_height(surface)
        let stride = cairo_image_surface_get_stride(surface)
        guard w > 0, h > 0, let pixels = cairo_image_surface_get_data(surface) else { return }
        if texture == nil || textureSize != (w, h) {
            if let texture { SDL_DestroyTexture(texture) }
            texture = SDL_CreateTexture(
                renderer, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), w, h)
            guard let texture else {
                viewerError("cannot create a \(w)x\(h) texture: \(String(cString: SDL_GetError()))")
                running = false
                return
            }
            SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
            textureSize = (w, h)
        }
        SDL_UpdateTexture(texture, nil, pixels, stride)
        SDL_RenderClear(renderer)
        SDL_RenderCopy(renderer, texture, nil, nil)
        SDL_RenderPresent(renderer)
        frames += 1
        if !announced {
            announced = true
            viewerLog(
                "map-viewer: ready \(Int(size.width))x\(Int(size.height)) pt, scale \(scale), video \(currentVideoDriver() ?? "?")"
            )
        }
    }

    // MARK: Events

    private func handle(_ event: SDL_Event) {
        switch event.type {
        case SDL_QUIT.rawValue:
            running = false
        case SDL_WINDOWEVENT.rawValue:
            switch UInt32(event.window.event) {
            case SDL_WINDOWEVENT_SIZE_CHANGED.rawValue:
                mapper.cancelAll()
                let (size, scale) = geometry()
                content.rootView.frame = CGRect(origin: .zero, size: size)
                viewerLog("map-viewer: resized to \(Int(size.width))x\(Int(size.height)) pt, scale \(scale)")
                dirty = true
            case SDL_WINDOWEVENT_EXPOSED.rawValue, SDL_WINDOWEVENT_SHOWN.rawValue:
                dirty = true
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
            let size = content.rootView.bounds.size
            let p = CGPoint(x: CGFloat(f.x) * size.width, y: CGFloat(f.y) * size.height)
            let phase: UITouch.Phase =
                event.type == SDL_FINGERDOWN.rawValue ? .began : event.type == SDL_FINGERUP.rawValue ? .ended : .moved
            mapper.finger(f.fingerId ^ (f.touchId << 32), phase, at: p)
        case SDL_KEYDOWN.rawValue:
            handleKey(event.key.keysym.sym)
        default:
            // SDL_MULTIGESTURE is ignored on purpose: its fingers already arrive as SDL_FINGER* touches.
            break
        }
    }

    private func shiftOrAltHeld() -> Bool {
        let mods = SDL_GetModState().rawValue
        let mask = KMOD_LSHIFT.rawValue | KMOD_RSHIFT.rawValue | KMOD_LALT.rawValue | KMOD_RALT.rawValue
        return mods & mask != 0
    }

    private func handleKey(_ sym: SDL_Keycode) {
        func code(_ k: SDL_KeyCode) -> SDL_Keycode { SDL_Keycode(truncatingIfNeeded: k.rawValue) }
        let t = now
        switch sym {
        case code(SDLK_q), code(SDLK_ESCAPE):
            running = false
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
        case code(SDLK_n):
            content.resetNorth()
            dirty = true
        default:
            break
        }
    }
}

/// The name of SDL's video driver, or nil before `SDL_Init`.
func currentVideoDriver() -> String? {
    guard let name = SDL_GetCurrentVideoDriver() else { return nil }
    return String(cString: name)
}

/// Prints `map-viewer: message` to standard error.
func viewerError(_ message: String) {
    FileHandle.standardError.write(Data("map-viewer: \(message)\n".utf8))
}
