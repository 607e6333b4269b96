@testable import FlourishApp
import FlourishCore
import Foundation
import XCTest

extension Harness {
    /// Sets sync up through the Sync window, as a person types it.
    @MainActor
    func setUpSync(through place: String, passphrase: String, again: String = "") -> SyncWindow {
        XCTAssertTrue(main.window.activateAction("win.sync"), "main menu → Sync…")
        let window = try! XCTUnwrap(main.syncWindow)
        XCTAssertTrue(window.folderChoice.isActive, "a folder is offered first")
        window.folderField.text = place
        window.passphraseField.text = passphrase
        window.againField.text = again
        window.setUpButton.click()
        // The window derives the key at people's cost (about a second of Argon2id and 256 MiB on
        // an idle machine), several times that on a busy one.
        waitUntil("the setup is done", timeout: 30) { !window.isWorking }
        return window
    }

    @MainActor
    func waitSynced() {
        waitUntil("synced", timeout: 15) {
            if case .synced = self.main.sync?.status { return true }
            return false
        }
    }
}
