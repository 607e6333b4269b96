@testable import FlourishApp
import FlourishTestSupport
import GtkKit
import XCTest

/// The passphrase questions' fields, in a real window under Xvfb: Enter goes on to the next field
/// and acts in the last; closing the window empties every field.
final class PassphraseFieldsTests: XCTestCase {
    func testEnterGoesOnThenActsAndClosingEmptiesTheFields() throws {
        MainActor.assumeIsolated {
            Toolkit.initialize()
            let window = Window(application: Harness.sharedApplication())
            let fields = [PasswordEntry(), PasswordEntry(), PasswordEntry()]
            let box = Box(.vertical, spacing: 6)
            for field in fields { box.append(field) }
            window.setChild(box)
            var acted = 0
            PassphraseFields.wire(fields, in: window) { acted += 1 }
            window.present()
            _ = fields[0].grabFocus()
            XCTAssertTrue(MainLoop.run(until: { fields[0].containsFocus }, timeout: 5))

            fields[0].activate()
            XCTAssertTrue(MainLoop.run(until: { fields[1].containsFocus }, timeout: 5), "Enter in the first goes on to the second")
            XCTAssertEqual(acted, 0)
            fields[1].activate()
            XCTAssertTrue(MainLoop.run(until: { fields[2].containsFocus }, timeout: 5), "and on to the third")
            fields[2].activate()
            XCTAssertEqual(acted, 1, "Enter in the last does what the window is for")

            for (index, field) in fields.enumerated() { field.text = "secret \(index)" }
            window.close()
            XCTAssertEqual(fields.map(\.text), ["", "", ""], "no secret stays in a closed window")
            window.destroy()
        }
    }
}
