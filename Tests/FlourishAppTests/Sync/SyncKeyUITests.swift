@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// Change Passphrase… and Shut Out Other Computers… in the Sync window, in real windows over
/// real journal files and a real folder, the keys in a real GNOME Keyring; and the other computer
/// told, in its own window, that the key changed.
final class SyncKeyUITests: XCTestCase {
    private let shared = TemporaryFolder()
    private let passphrase = "a long sync passphrase"
    private let second = "the second passphrase"
    private let third = "the third passphrase"
    private var place: String { shared.file("Flourish") }

    private func keyFile() throws -> KeyFile {
        try KeyFile.read(try Data(contentsOf: URL(fileURLWithPath: (place as NSString).appendingPathComponent(KeyFile.name))), place: place)
    }

    @MainActor
    private func fill(_ keyWindow: SyncKeyWindow, current: String, new: String) {
        keyWindow.currentField.text = current
        keyWindow.newField.text = new
        keyWindow.againField.text = new
        keyWindow.changeButton.click()
    }

    func testThePassphraseChangedThenTheOthersShutOutAndTheOtherComputerToldAndLetBackIn() throws {
        try MainActor.assumeIsolated {
            let laptop = try Harness(), desktop = try Harness()
            defer { laptop.close(); desktop.close() }
            // The health check (1.5 s after each window appears) starts a sync, and a key is
            // not changed while one runs: had it come during the steps below, the change would
            // be refused as busy rather than for what the step tests.
            for harness in [laptop, desktop] { harness.waitUntil("checked") { harness.model.health != nil } }
            let window = laptop.setUpSync(through: place, passphrase: passphrase, again: passphrase)
            laptop.waitSynced()
            _ = desktop.setUpSync(through: place, passphrase: passphrase)
            desktop.waitSynced()

            XCTAssertTrue(window.changePassphraseButton.isVisible)
            window.changePassphraseButton.click()
            let change = try XCTUnwrap(window.keyWindow)
            fill(change, current: "not the passphrase", new: second)
            laptop.waitUntil("refused", timeout: 15) { change.problem.isVisible }
            XCTAssertEqual(change.problem.text, SyncError.wrongPassphrase.errorDescription)
            XCTAssertNoThrow(try keyFile().unwrap(passphrase: passphrase), "nothing changed")
            laptop.waitSynced()
            XCTAssertEqual(laptop.main.syncStatus.label, "Synced", "a refused change is said in its window, not as a sync problem")
            fill(change, current: passphrase, new: "short")
            XCTAssertEqual(change.problem.text, "A new passphrase has at least 8 characters.")
            fill(change, current: passphrase, new: second)
            laptop.waitUntil("changed, and its window closed", timeout: 15) { window.keyWindow == nil }
            XCTAssertThrowsError(try keyFile().unwrap(passphrase: passphrase), "the old passphrase opens nothing")
            XCTAssertNoThrow(try keyFile().unwrap(passphrase: second))
            desktop.main.sync?.syncNow()
            desktop.waitSynced()

            window.shutOutButton.click()
            let shut = try XCTUnwrap(window.keyWindow)
            fill(shut, current: second, new: third)
            laptop.waitUntil("shut out, and its window closed", timeout: 30) { window.keyWindow == nil }
            laptop.waitSynced()
            XCTAssertNoThrow(try keyFile().unwrap(passphrase: third))
            XCTAssertEqual(SyncKeyring.key(for: laptop.journal), try keyFile().unwrap(passphrase: third), "the new key is kept")

            // The desktop, still on the old key, is told and asked for the new passphrase.
            desktop.main.sync?.syncNow()
            desktop.waitUntil("the desktop is told", timeout: 15) { desktop.main.sync?.status == .needsPassphrase }
            desktop.main.showSync()
            let other = try XCTUnwrap(desktop.main.syncWindow)
            XCTAssertEqual(other.statusLabel.text, SyncError.keyChanged.errorDescription)
            XCTAssertTrue(other.unlockButton.isVisible)
            XCTAssertFalse(other.shutOutButton.isVisible)
            other.passphraseField.text = third
            other.unlockButton.click()
            desktop.waitSynced()
            XCTAssertEqual(SyncKeyring.key(for: desktop.journal), try keyFile().unwrap(passphrase: third))
        }
    }
}
