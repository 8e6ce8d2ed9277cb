// iOS map files import Core Animation and Core Graphics by name: they compile unchanged (found by a new-user trial).
import CoreGraphics
import GoogleMaps
import QuartzCore

/// A marker pulse as iOS code writes it: a `CABasicAnimation` on a `CALayer`, sized with Core Graphics types.
@MainActor func addPulse(to view: UIView, at point: CGPoint) {
    let ring = CALayer()
    ring.bounds = CGRect(x: 0, y: 0, width: 24, height: 24)
    ring.position = point
    ring.cornerRadius = 12
    ring.borderWidth = 2
    ring.borderColor = UIColor.systemBlue.cgColor
    let pulse = CABasicAnimation(keyPath: "opacity")
    pulse.fromValue = 1
    pulse.toValue = 0
    pulse.duration = 1.2
    pulse.repeatCount = .infinity
    pulse.timingFunction = CAMediaTimingFunction(name: .easeOut)
    ring.add(pulse, forKey: "pulse")
    view.layer.addSublayer(ring)
    CATransaction.begin()
    CATransaction.setAnimationDuration(0.3)
    ring.opacity = 0.8
    CATransaction.commit()
}
