import Foundation
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import LinuxUIKit

/// The progress of a cubic Bézier timing curve at elapsed fraction `x`, found by dense sampling of the parametric
/// curve (an independent method from the implementation's bisection).
private func sampledProgress(_ x: Double, _ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) -> Double {
    func b(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
    }
    var best = (distance: Double.infinity, y: 0.0)
    for i in 0...200_000 {
        let s = Double(i) / 200_000
        let d = abs(b(s, c1x, c2x) - x)
        if d < best.distance { best = (d, b(s, c1y, c2y)) }
    }
    return best.y
}

private func components(_ color: UIColor?) -> (CGFloat, CGFloat, CGFloat, CGFloat) {
    color?.rgba ?? (-1, -1, -1, -1)
}

private func close(
    _ a: (CGFloat, CGFloat, CGFloat, CGFloat), _ b: (CGFloat, CGFloat, CGFloat, CGFloat), _ tol: CGFloat = 1e-6
)
    -> Bool
{
    abs(a.0 - b.0) <= tol && abs(a.1 - b.1) <= tol && abs(a.2 - b.2) <= tol && abs(a.3 - b.3) <= tol
}

@MainActor @Suite struct AnimationTests {
    @Test func tintAnimatesFromRedToBlueOverFiveSeconds() {
        let clock = installManualClock()
        let view = UIImageView(image: makeHouseImage().withRenderingMode(.alwaysTemplate))
        view.tintColor = .red
        var completions: [Bool] = []
        UIView.animate(
            withDuration: 5.0,
            animations: { view.tintColor = .blue },
            completion: { completions.append($0) })
        // The model value changes at once; the presented value starts at red.
        #expect(view.tintColor == .blue)
        #expect(view.presentedTintColor == .red)

        // Ease-in-out is symmetric: half way in time is half way in colour.
        clock.advance(by: 2.5)
        #expect(close(components(view.presentedTintColor), (0.5, 0, 0.5, 1)))
        let rendered = view.renderImage(scale: 1)
        #expect(pixelMatches(pixel(rendered, 12, 16), 128, 0, 127, 255, tolerance: 1))

        let layerValue = view.layer.presentationValue(forKey: "tintColor") as? UIColor
        #expect(close(components(layerValue), (0.5, 0, 0.5, 1)))

        clock.advance(by: 2.4)  // 4.9 s
        UIAnimator.shared.tick()
        #expect(completions.isEmpty)
        let late = sampledProgress(4.9 / 5, 0.42, 0, 0.58, 1)
        #expect(close(components(view.presentedTintColor), (1 - CGFloat(late), 0, CGFloat(late), 1), 1e-4))

        clock.advance(by: 0.1)  // 5.0 s: the end
        #expect(view.presentedTintColor == .blue)
        UIAnimator.shared.tick()
        #expect(completions == [true])
        UIAnimator.shared.tick()
        #expect(completions == [true])
        #expect(view.layer.animationKeys() == nil)
    }

    @Test func easeInOutQuarterPointMatchesTheCurve() {
        let clock = installManualClock()
        let view = UIView()
        view.tintColor = .red
        UIView.animate(withDuration: 5, animations: { view.tintColor = .blue })
        clock.advance(by: 1.25)
        let y = CGFloat(sampledProgress(0.25, 0.42, 0, 0.58, 1))
        #expect(close(components(view.presentedTintColor), (1 - y, 0, y, 1), 1e-4))
        clock.advance(by: 2.5)  // 3.75 s: by symmetry 1 − y(0.25)
        #expect(close(components(view.presentedTintColor), (y, 0, 1 - y, 1), 1e-4))
    }

    @Test(arguments: [
        (UIView.AnimationOptions.curveLinear, 0.0, 0.0, 1.0, 1.0),
        (UIView.AnimationOptions.curveEaseIn, 0.42, 0.0, 1.0, 1.0),
        (UIView.AnimationOptions.curveEaseOut, 0.0, 0.0, 0.58, 1.0),
        (UIView.AnimationOptions.curveEaseInOut, 0.42, 0.0, 0.58, 1.0),
    ])
    func curvesShapeTheAlphaAnimation(
        option: UIView.AnimationOptions, c1x: Double, c1y: Double, c2x: Double, c2y: Double
    ) {
        let clock = installManualClock()
        let view = UIView()
        UIView.animate(withDuration: 2, delay: 0, options: option, animations: { view.alpha = 0 })
        for t in [0.3, 0.5, 1.0, 1.7] {
            clock.advance(by: t - (clock.now - 100))
            let expected = 1 - sampledProgress(t / 2, c1x, c1y, c2x, c2y)
            let presented = numeric(view.layer.presentationValue(forKey: "opacity")) ?? -1
            #expect(abs(presented - expected) < 1e-4, "t = \(t)")
        }
    }

    @Test func interruptedAnimationStartsFromThePresentedValue() {
        let clock = installManualClock()
        let view = UIView()
        view.tintColor = .red
        var first: [Bool] = []
        var second: [Bool] = []
        UIView.animate(
            withDuration: 5, delay: 0, options: .curveLinear, animations: { view.tintColor = .blue },
            completion: { first.append($0) })
        clock.advance(by: 2)  // linear: 40 % of the way, (0.6, 0, 0.4)
        #expect(close(components(view.presentedTintColor), (0.6, 0, 0.4, 1)))
        UIView.animate(
            withDuration: 2, delay: 0, options: .curveLinear, animations: { view.tintColor = .green },
            completion: { second.append($0) })
        // No jump: the new animation begins where the old one was.
        #expect(close(components(view.presentedTintColor), (0.6, 0, 0.4, 1)))
        #expect(first.isEmpty)  // reported on the next tick, not inside animate
        UIAnimator.shared.tick()
        #expect(first == [false])
        clock.advance(by: 1)  // half of the new one: (0.3, 0.5, 0.2)
        #expect(close(components(view.presentedTintColor), (0.3, 0.5, 0.2, 1)))
        clock.advance(by: 1)
        UIAnimator.shared.tick()
        #expect(view.presentedTintColor == .green)
        #expect(second == [true])
        #expect(first == [false])
    }

    @Test func inheritedTintFollowsTheParentsAnimation() {
        let clock = installManualClock()
        let parent = UIView()
        let child = UIImageView(image: makeHouseImage().withRenderingMode(.alwaysTemplate))
        parent.addSubview(child)
        parent.tintColor = .red
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { parent.tintColor = .blue })
        clock.advance(by: 0.25)
        #expect(child.tintColor == .blue)
        #expect(close(components(child.presentedTintColor), (0.75, 0, 0.25, 1)))
    }

    @Test func delayShowsTheOldValueUntilItStarts() {
        let clock = installManualClock()
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        var done = false
        UIView.animate(
            withDuration: 2, delay: 1, options: .curveLinear,
            animations: { view.frame = CGRect(x: 100, y: 0, width: 30, height: 10) }, completion: { done = $0 })
        #expect(view.frame == CGRect(x: 100, y: 0, width: 30, height: 10))
        clock.advance(by: 0.5)
        #expect(view.layer.presentation()?.position == CGPoint(x: 5, y: 5))
        clock.advance(by: 1.5)  // half way through the 2 s after the delay
        #expect(view.layer.presentation()?.position == CGPoint(x: 60, y: 5))
        #expect(view.layer.presentation()?.bounds.size == CGSize(width: 20, height: 10))
        clock.advance(by: 1)
        UIAnimator.shared.tick()
        #expect(done)
    }

    @Test func transformAlphaAndBackgroundAnimateTogether() {
        let clock = installManualClock()
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        view.backgroundColor = .black
        var calls = 0
        UIView.animate(
            withDuration: 4, delay: 0, options: .curveLinear,
            animations: {
                view.transform = CGAffineTransform(scaleX: 3, y: 3)
                view.alpha = 0.5
                view.backgroundColor = .white
            }, completion: { _ in calls += 1 })
        clock.advance(by: 1)
        let presented = view.layer.presentation()
        #expect(presented?.affineTransform() == CGAffineTransform(scaleX: 1.5, y: 1.5))
        #expect(presented?.opacity == 0.875)
        #expect(presented?.backgroundColor == CGColor(red: 0.25, green: 0.25, blue: 0.25, alpha: 1))
        clock.advance(by: 3)
        UIAnimator.shared.tick()
        #expect(calls == 1)  // one completion for the whole block
    }

    @Test func settingOutsideABlockStopsTheAnimation() {
        let clock = installManualClock()
        let view = UIView()
        var finished: Bool?
        UIView.animate(withDuration: 2, animations: { view.alpha = 0 }, completion: { finished = $0 })
        clock.advance(by: 1)
        view.alpha = 1
        #expect(numeric(view.layer.presentationValue(forKey: "opacity")) == 1)
        UIAnimator.shared.tick()
        #expect(finished == false)
    }

    @Test func blockWithoutChangesCompletesOnTheNextTick() {
        _ = installManualClock()
        var finished: Bool?
        UIView.animate(withDuration: 3, animations: {}, completion: { finished = $0 })
        #expect(finished == nil)
        UIAnimator.shared.tick()
        #expect(finished == true)
    }

    @Test func transactionDurationAndCompletionForLayerAnimations() {
        let clock = installManualClock()
        #expect(CATransaction.animationDuration() == 0.25)
        let layer = CALayer()
        var completed = 0
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        #expect(CATransaction.animationDuration() == 2)
        CATransaction.setCompletionBlock { completed += 1 }
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 0
        fade.toValue = 1
        layer.add(fade, forKey: "fade")
        CATransaction.commit()
        #expect(CATransaction.animationDuration() == 0.25)
        clock.advance(by: 1)
        // Linear by default (no timing function): half the opacity at half the time.
        #expect(layer.presentation()?.opacity == 0.5)
        #expect(layer.opacity == 1)
        UIAnimator.shared.tick()
        #expect(completed == 0)
        clock.advance(by: 1)
        UIAnimator.shared.tick()
        #expect(completed == 1)
        #expect(layer.animation(forKey: "fade") == nil)
    }

    /// `repeatCount` and `autoreverses` (CAMediaTiming): a pulse plays its runs, back and forth when autoreversing,
    /// ends at its last run's final value, and an infinite one stays until removed.
    @Test func repeatCountAndAutoreverses() {
        let clock = installManualClock()
        let layer = CALayer()
        let pulse = CABasicAnimation(keyPath: "opacity")
        pulse.fromValue = 0
        pulse.toValue = 1
        pulse.duration = 1
        pulse.repeatCount = 2.5
        layer.add(pulse, forKey: "pulse")
        func opacity() -> Float { layer.presentation()?.opacity ?? -1 }
        clock.advance(by: 0.25)
        #expect(opacity() == 0.25)
        clock.advance(by: 1)  // 1.25 s: a quarter into the second run
        #expect(opacity() == 0.25)
        clock.advance(by: 1.1)  // 2.35 s: the half run
        #expect(abs(opacity() - 0.35) < 1e-5)
        UIAnimator.shared.tick()
        #expect(layer.animationKeys()?.count == 1)
        clock.advance(by: 0.2)  // 2.55 s: past the end
        UIAnimator.shared.tick()
        #expect(layer.animationKeys() == nil || layer.animationKeys()?.isEmpty == true)

        let breathe = CABasicAnimation(keyPath: "opacity")
        breathe.fromValue = 0
        breathe.toValue = 1
        breathe.duration = 1
        breathe.autoreverses = true
        breathe.repeatCount = .infinity
        layer.add(breathe, forKey: "breathe")
        clock.advance(by: 0.5)
        #expect(opacity() == 0.5)
        clock.advance(by: 1)  // 1.5 s: half-way back
        #expect(opacity() == 0.5)
        clock.advance(by: 0.25)  // 1.75 s
        #expect(opacity() == 0.25)
        clock.advance(by: 1000)
        UIAnimator.shared.tick()
        #expect(layer.animationKeys()?.contains("breathe") == true)
        layer.removeAnimation(forKey: "breathe")
        #expect(layer.animationKeys() == nil || layer.animationKeys()?.isEmpty == true)
    }

    @Test func timingFunctionNamesOnBasicAnimations() {
        let clock = installManualClock()
        let layer = CALayer()
        let move = CABasicAnimation(keyPath: "position")
        move.fromValue = CGPoint(x: 0, y: 0)
        move.toValue = CGPoint(x: 100, y: 0)
        move.duration = 1
        move.timingFunction = CAMediaTimingFunction(name: .easeIn)
        layer.add(move, forKey: nil)
        #expect(layer.animationKeys()?.count == 1)
        clock.advance(by: 0.5)
        let expected = 100 * sampledProgress(0.5, 0.42, 0, 1, 1)
        let x = (layer.presentationValue(forKey: "position") as? CGPoint)?.x ?? -1
        #expect(abs(Double(x) - expected) < 1e-3)
    }

    /// A layer with its own animatable key, as the map's marker layer will have.
    final class CoordinateLayer: CALayer {
        var latitude: Double = 0
        required init() { super.init() }
        required init(layer: Any) {
            latitude = (layer as? CoordinateLayer)?.latitude ?? 0
            super.init(layer: layer)
        }
        override func value(forKey key: String) -> Any? {
            key == "latitude" ? latitude : super.value(forKey: key)
        }
        override func setValue(_ value: Any?, forKey key: String) {
            if key == "latitude", let v = value as? Double { latitude = v } else { super.setValue(value, forKey: key) }
        }
    }

    @Test func subclassAnimatesItsOwnKey() {
        let clock = installManualClock()
        let layer = CoordinateLayer()
        layer.latitude = 20
        let animation = CABasicAnimation(keyPath: "latitude")
        animation.fromValue = 10
        animation.duration = 4
        layer.add(animation, forKey: "lat")
        clock.advance(by: 1)
        // From 10 (an Int literal, converted to the key's Double) to the model value 20, linearly.
        #expect(layer.presentation()?.latitude == 12.5)
        #expect(layer.latitude == 20)
        layer.removeAnimation(forKey: "lat")
        #expect(layer.presentation()?.latitude == 20)
    }

    @Test func animationDelegateHearsStartAndStop() {
        let clock = installManualClock()
        final class Listener: CAAnimationDelegate {
            var events: [String] = []
            func animationDidStart(_ anim: CAAnimation) { events.append("start") }
            func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { events.append("stop \(flag)") }
        }
        let listener = Listener()
        let layer = CALayer()
        let a = CABasicAnimation(keyPath: "opacity")
        a.toValue = 0.0
        a.duration = 1
        a.delegate = listener
        layer.add(a, forKey: "x")
        UIAnimator.shared.tick()
        clock.advance(by: 1)
        UIAnimator.shared.tick()
        #expect(listener.events == ["start", "stop true"])
    }
}

@MainActor @Suite struct AnimationHookTests {
    @Test func externalPropertiesJoinViewAnimationBlocks() {
        let clock = installManualClock()
        let layer = AnimationTests.CoordinateLayer()
        #expect(!UIView.isInsideAnimationBlock)
        #expect(!layer.addViewAnimation(forKey: "latitude", from: 0.0, to: 10.0))
        var finished: Bool?
        UIView.animate(
            withDuration: 2, delay: 0, options: .curveLinear,
            animations: {
                #expect(UIView.isInsideAnimationBlock)
                layer.latitude = 10
                #expect(layer.addViewAnimation(forKey: "latitude", from: 0.0, to: 10.0))
            }, completion: { finished = $0 })
        clock.advance(by: 0.5)
        #expect(layer.presentation()?.latitude == 2.5)
        clock.advance(by: 1.5)
        UIAnimator.shared.tick()
        #expect(finished == true)
        UIView.animate(withDuration: 0, animations: { #expect(!UIView.isInsideAnimationBlock) })
    }

    @Test func externalAnimationsHoldTransactionCompletion() {
        _ = installManualClock()
        #expect(CATransaction.joinOpenTransactions() == nil)
        var done = 0
        CATransaction.begin()
        CATransaction.setCompletionBlock { done += 1 }
        let membership = CATransaction.joinOpenTransactions()
        CATransaction.commit()
        UIAnimator.shared.tick()
        #expect(done == 0)
        membership?.end(finished: true)
        membership?.end(finished: true)
        UIAnimator.shared.tick()
        #expect(done == 1)
    }
}

@MainActor @Suite struct TransformKeyTests {
    @Test func popAnimationOnTransformScale() {
        let clock = installManualClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        let dot = UIView(frame: root.bounds)
        dot.backgroundColor = .red
        root.addSubview(dot)
        let pop = CABasicAnimation(keyPath: "transform.scale")
        pop.fromValue = 0
        pop.toValue = 1
        pop.duration = 1
        dot.layer.add(pop, forKey: "pop")
        clock.advance(by: 0.5)
        #expect(dot.layer.presentation()?.affineTransform() == CGAffineTransform(scaleX: 0.5, y: 0.5))
        // Half size about the centre: covers 5…15 only.
        let image = root.renderImage(scale: 1)
        #expect(pixelMatches(pixel(image, 10, 10), 255, 0, 0, 255))
        #expect(pixel(image, 3, 3).a == 0)
        clock.advance(by: 0.5)
        #expect(pixelMatches(pixel(root.renderImage(scale: 1), 3, 3), 255, 0, 0, 255))
    }

    @Test func rotationSubKeyKeepsScale() {
        let clock = installManualClock()
        let layer = CALayer()
        layer.setAffineTransform(CGAffineTransform(scaleX: 2, y: 2))
        #expect(numeric(layer.value(forKey: "transform.scale")) == 2)
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0
        spin.toValue = Double.pi
        spin.duration = 2
        layer.add(spin, forKey: nil)
        clock.advance(by: 1)
        let t = layer.presentation()?.affineTransform() ?? .identity
        // A quarter turn at twice the size: (1, 0) → (0, 2).
        let p = CGPoint(x: 1, y: 0).applying(t)
        #expect(abs(p.x) < 1e-9 && abs(p.y - 2) < 1e-9)
    }
}
