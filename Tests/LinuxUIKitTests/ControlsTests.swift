import Foundation
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import LinuxUIKit

/// A fresh headless host driving `root` (a manual clock, no keyboard focus left from another test).
@MainActor private func makeHost(_ root: UIView) -> UIHeadlessHost {
    _ = installManualClock()
    UIApplication.shared.resetForNextRun()
    KeyboardFocus.current = nil
    return UIHeadlessHost(view: root)
}

/// A white root view of `size` points.
@MainActor private func makeRoot(width: CGFloat = 320, height: CGFloat = 240) -> UIView {
    let root = UIView(frame: CGRect(x: 0, y: 0, width: width, height: height))
    root.backgroundColor = .white
    return root
}

/// Records the names of the events a control sends, in order.
@MainActor private final class EventLog {
    var names: [String] = []

    func watch(_ control: UIControl, _ events: [(String, UIControl.Event)]) {
        for (name, event) in events {
            control.addAction(UIAction { [unowned self] _ in self.names.append(name) }, for: event)
        }
    }
}

@MainActor private func center(_ view: UIView) -> CGPoint { CGPoint(x: view.frame.midX, y: view.frame.midY) }

/// UIKit's controls driven by scripted touches and typed text on the headless host.
@MainActor @Suite(.serialized) struct ControlsTests {
    // MARK: UIControl and UIButton

    @Test func buttonTapSendsTouchDownUpInsideThenPrimaryAction() {
        let root = makeRoot()
        var sender: Any?
        let button = UIButton(primaryAction: UIAction(title: "Go") { action in sender = action.sender })
        button.frame = CGRect(x: 20, y: 20, width: 100, height: 40)
        root.addSubview(button)
        let log = EventLog()
        log.watch(
            button,
            [
                ("down", .touchDown), ("upInside", .touchUpInside), ("primary", .primaryActionTriggered),
                ("upOutside", .touchUpOutside),
            ])
        let host = makeHost(root)
        #expect(button.buttonType == .system)
        #expect(button.title(for: .normal) == "Go")
        host.tap(at: center(button))
        #expect(log.names == ["down", "upInside", "primary"])
        #expect((sender as? UIButton) === button)
        #expect(!button.isHighlighted && !button.isTracking)
        host.terminate()
    }

    @Test func touchUpOutsideTheSlopDoesNotFireButInsideItDoes() {
        let root = makeRoot(width: 400, height: 300)
        let button = UIButton(type: .system)
        button.setTitle("Tap", for: .normal)
        button.frame = CGRect(x: 20, y: 20, width: 80, height: 40)
        root.addSubview(button)
        let log = EventLog()
        log.watch(button, [("upInside", .touchUpInside), ("upOutside", .touchUpOutside), ("exit", .touchDragExit)])
        let host = makeHost(root)
        // 200 points away: outside the 70-point tracking slop.
        host.drag(from: center(button), to: CGPoint(x: 260, y: 240))
        #expect(log.names == ["exit", "upOutside"])
        // 30 points beyond the right edge: still inside, as on iOS.
        log.names = []
        host.drag(from: center(button), to: CGPoint(x: 130, y: 40))
        #expect(log.names == ["upInside"])
        host.terminate()
    }

    @Test func disabledControlsIgnoreTapsAndActionsCanBeReplacedAndRemoved() {
        let root = makeRoot()
        let button = UIButton(frame: CGRect(x: 10, y: 10, width: 100, height: 40))
        root.addSubview(button)
        var calls: [String] = []
        let id = UIAction.Identifier("tap")
        button.addAction(UIAction(identifier: id) { _ in calls.append("first") }, for: .touchUpInside)
        button.addAction(UIAction(identifier: id) { _ in calls.append("second") }, for: .touchUpInside)
        let host = makeHost(root)
        host.tap(at: center(button))
        #expect(calls == ["second"])
        button.isEnabled = false
        #expect(button.state == .disabled)
        host.tap(at: center(button))
        #expect(calls == ["second"])
        button.isEnabled = true
        button.removeAction(identifiedBy: id, for: .touchUpInside)
        host.tap(at: center(button))
        #expect(calls == ["second"])
        button.addAction(UIAction { _ in calls.append("sent") }, for: [.valueChanged, .editingChanged])
        button.sendActions(for: [.valueChanged, .editingChanged])
        #expect(calls == ["second", "sent"])
        host.terminate()
    }

    @Test func classicButtonStatesAndColours() {
        _ = installManualClock()
        let button = UIButton(type: .system)
        button.setTitle("Normal", for: .normal)
        button.setTitle("Pressed", for: .highlighted)
        #expect(button.title(for: .selected) == "Normal")
        #expect(button.titleLabel?.text == "Normal")
        button.isHighlighted = true
        #expect(button.titleLabel?.text == "Pressed")
        #expect(button.state == .highlighted)
        button.isHighlighted = false
        #expect(button.currentTitleColor == UIColor.systemBlue)
        button.setTitleColor(.red, for: .normal)
        #expect(button.currentTitleColor == UIColor.red)
        button.isSelected = true
        #expect(button.state == .selected)
        let size = button.intrinsicContentSize
        #expect(size.width > 30 && size.height >= 30)
        let custom = UIButton(type: .custom)
        custom.setTitle("x", for: .normal)
        #expect(custom.currentTitleColor == UIColor.white)
    }

    @Test func filledConfigurationDrawsItsBackground() {
        _ = installManualClock()
        var configuration = UIButton.Configuration.filled()
        configuration.title = "Directions"
        configuration.baseBackgroundColor = .systemGreen
        let button = UIButton(configuration: configuration)
        button.frame = CGRect(x: 0, y: 0, width: 140, height: 44)
        #expect(button.currentTitle == "Directions")
        #expect(button.titleLabel?.textColor == UIColor.white)
        let image = button.renderImage(scale: 1)
        // Left of the title, inside the rounded background: the base background colour.
        #expect(pixelMatches(pixel(image, 8, 22), 52, 199, 89, 255))
        #expect(button.intrinsicContentSize.height >= 34)
        var plain = UIButton.Configuration.plain()
        plain.title = "Plain"
        button.configuration = plain
        #expect(pixel(button.renderImage(scale: 1), 8, 22).a == 0)
    }

    // MARK: Value controls

    @Test func switchTogglesOnTapAndCodeSendsNothing() {
        let root = makeRoot()
        let toggle = UISwitch(frame: CGRect(x: 30, y: 30, width: 0, height: 0))
        root.addSubview(toggle)
        #expect(toggle.frame.size == CGSize(width: 51, height: 31))
        var values: [Bool] = []
        toggle.addAction(UIAction { _ in values.append(toggle.isOn) }, for: .valueChanged)
        let host = makeHost(root)
        host.tap(at: center(toggle))
        #expect(toggle.isOn && values == [true])
        // On: the track is green near the left end.
        #expect(pixelMatches(pixel(host.snapshot(), 36, 45), 52, 199, 89, 255))
        toggle.setOn(false, animated: true)
        #expect(!toggle.isOn && values == [true])
        host.tap(at: center(toggle))
        #expect(values == [true, true])
        host.terminate()
    }

    @Test func segmentedControlSelectsTheTappedSegment() {
        let root = makeRoot()
        let segments = UISegmentedControl(items: ["Map", "Satellite", "Hybrid"])
        segments.frame = CGRect(x: 10, y: 10, width: 300, height: 32)
        root.addSubview(segments)
        #expect(segments.numberOfSegments == 3)
        #expect(segments.selectedSegmentIndex == UISegmentedControl.noSegment)
        var changes: [Int] = []
        segments.addAction(UIAction { _ in changes.append(segments.selectedSegmentIndex) }, for: .valueChanged)
        let host = makeHost(root)
        host.tap(at: CGPoint(x: 260, y: 26))
        #expect(segments.selectedSegmentIndex == 2 && changes == [2])
        host.tap(at: CGPoint(x: 260, y: 26))
        #expect(changes == [2])
        host.tap(at: CGPoint(x: 40, y: 26))
        #expect(changes == [2, 0])
        segments.insertSegment(withTitle: "Terrain", at: 0, animated: false)
        #expect(segments.selectedSegmentIndex == 1 && segments.titleForSegment(at: 0) == "Terrain")
        segments.setTitle("Roads", forSegmentAt: 1)
        #expect(segments.titleForSegment(at: 1) == "Roads")
        segments.removeSegment(at: 1, animated: false)
        #expect(segments.selectedSegmentIndex == UISegmentedControl.noSegment && segments.numberOfSegments == 3)
        segments.selectedSegmentIndex = 7
        #expect(segments.selectedSegmentIndex == UISegmentedControl.noSegment)
        host.terminate()
    }

    @Test func sliderFollowsADraggedThumb() {
        let root = makeRoot()
        let slider = UISlider(frame: CGRect(x: 10, y: 50, width: 228, height: 31))
        slider.minimumValue = 0
        slider.maximumValue = 10
        root.addSubview(slider)
        var sent: [Float] = []
        slider.addAction(UIAction { _ in sent.append(slider.value) }, for: .valueChanged)
        let host = makeHost(root)
        // The thumb starts at the left end (centre x 10 + 14); drag it 100 points: half of the 200-point travel.
        host.drag(from: CGPoint(x: 24, y: 65), to: CGPoint(x: 124, y: 65))
        #expect(abs(slider.value - 5) < 0.01)
        #expect(sent.count > 5 && sent.last == slider.value)
        // A touch on the track away from the thumb is not tracked.
        host.drag(from: CGPoint(x: 220, y: 65), to: CGPoint(x: 230, y: 65))
        #expect(abs(slider.value - 5) < 0.01)
        // Not continuous: one event when the finger lifts.
        slider.isContinuous = false
        sent = []
        host.drag(from: CGPoint(x: 124, y: 65), to: CGPoint(x: 300, y: 65))
        #expect(slider.value == 10 && sent == [10])
        slider.value = -3
        #expect(slider.value == 0)
        host.terminate()
    }

    @Test func stepperStepsClampsAndWraps() {
        let root = makeRoot()
        let stepper = UIStepper(frame: CGRect(x: 10, y: 10, width: 0, height: 0))
        stepper.maximumValue = 2
        root.addSubview(stepper)
        var values: [Double] = []
        stepper.addAction(UIAction { _ in values.append(stepper.value) }, for: .valueChanged)
        let host = makeHost(root)
        let plus = CGPoint(x: 10 + 70, y: 26)
        let minus = CGPoint(x: 10 + 24, y: 26)
        host.tap(at: plus)
        host.advance(by: 0.5)
        host.tap(at: plus)
        host.advance(by: 0.5)
        host.tap(at: plus)
        #expect(values == [1, 2])
        host.advance(by: 0.5)
        host.tap(at: minus)
        #expect(values == [1, 2, 1])
        stepper.wraps = true
        stepper.value = 2
        host.advance(by: 0.5)
        host.tap(at: plus)
        #expect(stepper.value == 0)
        host.terminate()
    }

    @Test func activityIndicatorTurnsOnTheHostClock() {
        let root = makeRoot()
        let spinner = UIActivityIndicatorView(style: .large)
        spinner.center = CGPoint(x: 100, y: 100)
        root.addSubview(spinner)
        let host = makeHost(root)
        #expect(spinner.isHidden && !spinner.isAnimating)
        #expect(host.runUntilIdle(timeout: 1))
        spinner.startAnimating()
        #expect(!spinner.isHidden && spinner.frame.size == CGSize(width: 37, height: 37))
        let first = spinner.leadingSpoke
        host.advance(by: 0.25)
        #expect(spinner.leadingSpoke == (first + 2) % 8)
        #expect(!host.runUntilIdle(timeout: 0.5))  // it keeps asking for frames while turning
        spinner.stopAnimating()
        #expect(spinner.isHidden)
        #expect(host.runUntilIdle(timeout: 1))
        host.terminate()
    }

    @MainActor final class Wheels: UIPickerViewDataSource, UIPickerViewDelegate {
        var selected: [(Int, Int)] = []
        func numberOfComponents(in pickerView: UIPickerView) -> Int { 2 }
        func pickerView(_ pickerView: UIPickerView, numberOfRowsInComponent component: Int) -> Int {
            component == 0 ? 10 : 3
        }
        func pickerView(_ pickerView: UIPickerView, titleForRow row: Int, forComponent component: Int) -> String? {
            "\(component):\(row)"
        }
        func pickerView(_ pickerView: UIPickerView, didSelectRow row: Int, inComponent component: Int) {
            selected.append((component, row))
        }
    }

    @Test func pickerSelectsByTapAndByDrag() {
        let root = makeRoot(width: 320, height: 216)
        let picker = UIPickerView(frame: root.bounds)
        let wheels = Wheels()
        picker.dataSource = wheels
        picker.delegate = wheels
        root.addSubview(picker)
        let host = makeHost(root)
        #expect(picker.selectedRow(inComponent: 0) == 0 && picker.selectedRow(inComponent: 5) == -1)
        // A tap one row (32 points) below the band in the left wheel.
        host.tap(at: CGPoint(x: 80, y: 108 + 32))
        #expect(picker.selectedRow(inComponent: 0) == 1)
        // Dragging the left wheel up by three rows turns it three rows on.
        host.drag(from: CGPoint(x: 80, y: 150), to: CGPoint(x: 80, y: 150 - 96))
        #expect(picker.selectedRow(inComponent: 0) == 4)
        // The right wheel stops at its last row.
        host.drag(from: CGPoint(x: 240, y: 200), to: CGPoint(x: 240, y: 0))
        #expect(picker.selectedRow(inComponent: 1) == 2)
        #expect(wheels.selected.map { "\($0.0):\($0.1)" } == ["0:1", "0:4", "1:2"])
        picker.selectRow(99, inComponent: 0, animated: false)
        #expect(picker.selectedRow(inComponent: 0) == 9 && wheels.selected.count == 3)
        host.terminate()
    }

    // MARK: Text

    @MainActor final class FieldDelegate: UITextFieldDelegate {
        var calls: [String] = []
        func textFieldDidBeginEditing(_ textField: UITextField) { calls.append("begin") }
        func textFieldDidEndEditing(_ textField: UITextField) { calls.append("end") }
        func textField(
            _ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String
        ) -> Bool {
            !string.contains { $0.isNumber }
        }
        func textFieldShouldReturn(_ textField: UITextField) -> Bool {
            calls.append("return")
            textField.resignFirstResponder()
            return true
        }
    }

    @Test func textFieldTakesTypedTextThroughItsDelegate() {
        let root = makeRoot()
        let field = UITextField(frame: CGRect(x: 10, y: 10, width: 300, height: 34))
        field.borderStyle = .roundedRect
        field.placeholder = "Search"
        field.keyboardType = .webSearch
        let delegate = FieldDelegate()
        field.delegate = delegate
        root.addSubview(field)
        var changes = 0
        field.addAction(UIAction { _ in changes += 1 }, for: .editingChanged)
        let host = makeHost(root)
        host.type("ignored")
        #expect(field.text == "" && changes == 0)
        host.tap(at: center(field))
        #expect(field.isFirstResponder && field.isEditing && delegate.calls == ["begin"])
        host.type("Cafe 42")
        #expect(field.text == "Cafe " && changes == 5)
        host.type("\u{8}\u{8}")
        #expect(field.text == "Caf" && changes == 7)
        host.type("\n")
        #expect(delegate.calls == ["begin", "return", "end"])
        #expect(!field.isFirstResponder && KeyboardFocus.current == nil)
        host.type("x")
        #expect(field.text == "Caf")
        host.terminate()
    }

    @Test func clearButtonAndEndEditing() {
        let root = makeRoot()
        let field = UITextField(frame: CGRect(x: 10, y: 10, width: 300, height: 34))
        field.borderStyle = .roundedRect
        field.clearButtonMode = .whileEditing
        field.text = "Helsinki"
        root.addSubview(field)
        let log = EventLog()
        log.watch(field, [("begin", .editingDidBegin), ("changed", .editingChanged), ("end", .editingDidEnd)])
        let host = makeHost(root)
        host.tap(at: CGPoint(x: 60, y: 27))
        let clear = field.clearButtonRect(forBounds: field.bounds)
        host.tap(at: CGPoint(x: clear.midX + 10, y: clear.midY + 10))
        #expect(field.text == "")
        #expect(root.endEditing(true))
        #expect(log.names == ["begin", "changed", "end"])
        host.terminate()
    }

    @MainActor final class NotesDelegate: UITextViewDelegate {
        var changes = 0
        func textViewDidChange(_ textView: UITextView) { changes += 1 }
    }

    @Test func textViewTakesLinesAndGrowsItsContent() {
        let root = makeRoot()
        let notes = UITextView(frame: CGRect(x: 10, y: 10, width: 200, height: 60))
        notes.font = .systemFont(ofSize: 17)
        let delegate = NotesDelegate()
        notes.delegate = delegate
        root.addSubview(notes)
        let host = makeHost(root)
        host.tap(at: center(notes))
        #expect(notes.isFirstResponder)
        host.type("One\nTwo\nThree\nFour")
        #expect(notes.text == "One\nTwo\nThree\nFour" && delegate.changes == 18)
        #expect(notes.contentSize.height > 60)
        #expect(notes.contentOffset.y > 0)  // scrolled to show the end
        notes.isEditable = false
        #expect(!notes.isFirstResponder)
        host.terminate()
    }

    // MARK: Scrolling and tables

    @MainActor final class ScrollLog: UIScrollViewDelegate {
        var scrolls = 0
        var events: [String] = []
        func scrollViewDidScroll(_ scrollView: UIScrollView) { scrolls += 1 }
        func scrollViewWillBeginDragging(_ scrollView: UIScrollView) { events.append("begin") }
        func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {
            events.append("end")
        }
        func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView) { events.append("animated") }
    }

    @Test func scrollViewDragsWithinItsContentAndAnimatesOffsets() {
        let root = makeRoot(width: 200, height: 200)
        let scroll = UIScrollView(frame: root.bounds)
        scroll.contentSize = CGSize(width: 200, height: 1000)
        let log = ScrollLog()
        scroll.delegate = log
        root.addSubview(scroll)
        let host = makeHost(root)
        host.drag(from: CGPoint(x: 100, y: 180), to: CGPoint(x: 60, y: 30))
        // Only vertical: the content is as wide as the view. The drag starts at the first move past 10 points (the
        // finger moves hypot(40, 150) / 30 = 5.17 points a frame: the second move, at y 170, is 10.35 points away) and
        // the content follows the finger from there: 170 - 30 = 140.
        #expect(scroll.contentOffset.x == 0 && abs(scroll.contentOffset.y - 140) < 0.001)
        #expect(log.events == ["begin", "end"] && log.scrolls > 5)
        host.drag(from: CGPoint(x: 100, y: 190), to: CGPoint(x: 100, y: -1000), duration: 0.3)
        #expect(scroll.contentOffset.y == 800)
        host.drag(from: CGPoint(x: 100, y: 10), to: CGPoint(x: 100, y: 2000), duration: 0.3)
        #expect(scroll.contentOffset.y == 0)
        scroll.setContentOffset(CGPoint(x: 0, y: 300), animated: true)
        host.advance(by: 0.15)
        #expect(scroll.contentOffset.y > 0 && scroll.contentOffset.y < 300)
        host.advance(by: 0.3)
        #expect(scroll.contentOffset.y == 300 && log.events.last == "animated")
        scroll.isScrollEnabled = false
        host.drag(from: CGPoint(x: 100, y: 180), to: CGPoint(x: 100, y: 30))
        #expect(scroll.contentOffset.y == 300)
        host.terminate()
    }

    final class PlaceCell: UITableViewCell {
        static var made = 0
        override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
            PlaceCell.made += 1
            super.init(style: .subtitle, reuseIdentifier: reuseIdentifier)
        }
        required init?(coder: NSCoder) { fatalError("unused") }
    }

    @MainActor final class Places: UITableViewDataSource, UITableViewDelegate {
        var selections: [IndexPath] = []
        var deselections: [IndexPath] = []
        func numberOfSections(in tableView: UITableView) -> Int { 2 }
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 20 }
        func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? {
            section == 0 ? "Nearby" : "Saved"
        }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "place", for: indexPath)
            cell.textLabel?.text = "Place \(indexPath.section).\(indexPath.row)"
            cell.detailTextLabel?.text = "\(indexPath.row * 100) m"
            return cell
        }
        func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { 50 }
        func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) { selections.append(indexPath) }
        func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {
            deselections.append(indexPath)
        }
    }

    @Test func tableViewSelectsTappedRowsScrollsAndReusesCells() {
        let root = makeRoot(width: 320, height: 400)
        let table = UITableView(frame: root.bounds, style: .plain)
        table.register(PlaceCell.self, forCellReuseIdentifier: "place")
        let places = Places()
        PlaceCell.made = 0
        table.dataSource = places
        table.delegate = places
        root.addSubview(table)
        let host = makeHost(root)
        #expect(table.numberOfSections == 2 && table.numberOfRows(inSection: 1) == 20)
        // Header 28 points, then 50-point rows: y 28 + 2 * 50 + 25 is the middle of row 2.
        // 2 × (28 + 20 × 50) points. (Spelt out as a product, #expect would capture it as an Int, and on Linux a
        // CGFloat and an Int compare through AnyHashable, unequal.)
        #expect(table.contentSize.height == 2056)
        #expect(table.visibleCells.count == 8)
        #expect((table.cellForRow(at: IndexPath(row: 0, section: 0)) as? PlaceCell)?.reuseIdentifier == "place")
        host.tap(at: CGPoint(x: 100, y: 28 + 100 + 25))
        #expect(places.selections == [IndexPath(row: 2, section: 0)])
        #expect(table.indexPathForSelectedRow == IndexPath(row: 2, section: 0))
        #expect(table.cellForRow(at: IndexPath(row: 2, section: 0))?.isSelected == true)
        // Drag the table up by 510 points in 36 moves of 14.17 points: the first move starts the drag, so the content
        // moves 510 - 14.17 points; the same window point is then over row 12 (content y 153 + 495.8).
        host.drag(from: CGPoint(x: 160, y: 380), to: CGPoint(x: 160, y: 380 - 510), duration: 0.6)
        #expect(abs(table.contentOffset.y - (510 - 510 / 36)) < 0.01)
        host.tap(at: CGPoint(x: 100, y: 28 + 100 + 25))
        #expect(places.selections.last == IndexPath(row: 12, section: 0))
        #expect(places.deselections == [IndexPath(row: 2, section: 0)])
        table.deselectRow(at: IndexPath(row: 12, section: 0), animated: true)
        #expect(table.indexPathForSelectedRow == nil)
        // Scroll through everything: cells are reused, not made per row.
        for _ in 0..<4 { host.drag(from: CGPoint(x: 160, y: 390), to: CGPoint(x: 160, y: 0), duration: 0.3) }
        #expect(table.contentOffset.y == table.contentSize.height - 400)
        #expect(table.visibleCells.first?.textLabel?.text?.hasPrefix("Place 1.") == true)
        #expect(PlaceCell.made < 14)
        host.terminate()
    }

    @MainActor final class Names: UITableViewDataSource {
        var names: [String] = []
        var countQueries = 0
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
            countQueries += 1
            return names.count
        }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
            cell.textLabel?.text = names[indexPath.row]
            return cell
        }
    }

    @Test func tableLoadsItsDataWhenFirstAskedAndKeepsACodeSelectionMadeBeforeLayout() {
        _ = installManualClock()
        let table = UITableView(frame: CGRect(x: 0, y: 0, width: 320, height: 200), style: .plain)
        let names = Names()
        table.dataSource = names
        // As on iOS, setting the data source asks nothing yet: rows filled in afterwards are shown.
        names.names = ["Kamppi", "Pasila", "Vallila"]
        #expect(names.countQueries == 0)
        // Selecting in code before the first layout pass loads the data and keeps the selection.
        table.selectRow(at: IndexPath(row: 1, section: 0), animated: false, scrollPosition: .none)
        #expect(table.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
        // Asking for the visible cells places them first.
        #expect(table.visibleCells.map { $0.textLabel?.text ?? "" } == ["Kamppi", "Pasila", "Vallila"])
        #expect(table.cellForRow(at: IndexPath(row: 1, section: 0))?.isSelected == true)
        // A reload that drops the selected row drops the selection.
        names.names = ["Kamppi"]
        table.reloadData()
        #expect(table.visibleCells.count == 1 && table.indexPathForSelectedRow == nil)
    }

    @Test func diffableDataSourceShowsSnapshots() {
        enum Section: Hashable, Sendable { case recent, favourites }
        let root = makeRoot(width: 320, height: 300)
        let table = UITableView(frame: root.bounds, style: .insetGrouped)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "cell")
        let source = UITableViewDiffableDataSource<Section, String>(tableView: table) { table, indexPath, name in
            let cell = table.dequeueReusableCell(withIdentifier: "cell", for: indexPath)
            var content = cell.defaultContentConfiguration()
            content.text = name
            cell.contentConfiguration = content
            return cell
        }
        root.addSubview(table)
        var snapshot = NSDiffableDataSourceSnapshot<Section, String>()
        snapshot.appendSections([.recent, .favourites])
        snapshot.appendItems(["Kamppi", "Pasila"], toSection: .recent)
        snapshot.appendItems(["Suomenlinna", "Kamppi"])
        #expect(snapshot.numberOfItems == 3 && snapshot.itemIdentifiers(inSection: .favourites) == ["Suomenlinna"])
        var done = false
        source.apply(snapshot, animatingDifferences: true) { done = true }
        #expect(done)
        let host = makeHost(root)
        host.runUntilIdle(timeout: 1)
        #expect(table.numberOfSections == 2 && table.numberOfRows(inSection: 0) == 2)
        #expect(source.itemIdentifier(for: IndexPath(row: 0, section: 1)) == "Suomenlinna")
        #expect(source.indexPath(for: "Pasila") == IndexPath(row: 1, section: 0))
        snapshot.deleteItems(["Kamppi"])
        source.apply(snapshot)
        host.runUntilIdle(timeout: 1)
        #expect(table.numberOfRows(inSection: 0) == 1)
        let cell = table.cellForRow(at: IndexPath(row: 0, section: 0))
        #expect((cell?.contentConfiguration as? UIListContentConfiguration)?.text == "Pasila")
        host.terminate()
    }

    @Test func indexPathRowsAndSections() {
        var path = IndexPath(row: 3, section: 1)
        #expect(path.section == 1 && path.row == 3 && path.item == 3 && Array(path) == [1, 3])
        path.row = 4
        #expect(path == IndexPath(item: 4, section: 1))
    }

    // MARK: A screen of controls

    @Test func screenOfControlsGolden() {
        let root = makeRoot(width: 360, height: 560)
        root.backgroundColor = UIColor(white: 0.97, alpha: 1)
        let segments = UISegmentedControl(items: ["Map", "Satellite", "Terrain"])
        segments.selectedSegmentIndex = 1
        segments.frame = CGRect(x: 16, y: 16, width: 328, height: 32)
        let field = UITextField(frame: CGRect(x: 16, y: 60, width: 328, height: 36))
        field.borderStyle = .roundedRect
        field.placeholder = "Search places"
        let typed = UITextField(frame: CGRect(x: 16, y: 104, width: 328, height: 36))
        typed.borderStyle = .roundedRect
        typed.text = "Helsinki"
        var filled = UIButton.Configuration.filled()
        filled.title = "Directions"
        let go = UIButton(configuration: filled)
        go.frame = CGRect(x: 16, y: 152, width: 150, height: 40)
        var tinted = UIButton.Configuration.tinted()
        tinted.title = "Save"
        tinted.cornerStyle = .capsule
        let save = UIButton(configuration: tinted)
        save.frame = CGRect(x: 180, y: 152, width: 80, height: 40)
        let classic = UIButton(type: .system)
        classic.setTitle("Share", for: .normal)
        classic.frame = CGRect(x: 270, y: 152, width: 74, height: 40)
        let on = UISwitch(frame: CGRect(x: 16, y: 208, width: 0, height: 0))
        on.isOn = true
        let off = UISwitch(frame: CGRect(x: 80, y: 208, width: 0, height: 0))
        let stepper = UIStepper(frame: CGRect(x: 150, y: 208, width: 0, height: 0))
        stepper.value = 1
        let spinner = UIActivityIndicatorView(style: .medium)
        spinner.center = CGPoint(x: 320, y: 224)
        spinner.startAnimating()
        let slider = UISlider(frame: CGRect(x: 16, y: 252, width: 328, height: 31))
        slider.value = 0.3
        let table = UITableView(frame: CGRect(x: 0, y: 296, width: 360, height: 264), style: .plain)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        let rows = Rows()
        table.dataSource = rows
        for view in [segments, field, typed, go, save, classic, on, off, stepper, spinner, slider, table] {
            root.addSubview(view)
        }
        let host = makeHost(root)
        table.selectRow(at: IndexPath(row: 1, section: 0), animated: false, scrollPosition: .none)
        host.advance(by: 0.1)
        let image = host.snapshot()
        expectMatchesGolden(image, named: "controls-screen", channelTolerance: 24, maxDifferingFraction: 0.01)
        host.terminate()
    }

    @MainActor final class Rows: UITableViewDataSource {
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 4 }
        func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { "Places" }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let styles: [UITableViewCell.CellStyle] = [.default, .subtitle, .value1, .default]
            let cell = UITableViewCell(style: styles[indexPath.row], reuseIdentifier: nil)
            cell.textLabel?.text = ["Kamppi", "Senate Square", "Distance", "Downloads"][indexPath.row]
            cell.detailTextLabel?.text = ["", "Helsinki", "2.4 km", ""][indexPath.row]
            cell.accessoryType = [.disclosureIndicator, .none, .none, .checkmark][indexPath.row]
            return cell
        }
    }
}
