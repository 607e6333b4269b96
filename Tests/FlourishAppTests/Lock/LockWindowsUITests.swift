@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The lock's own windows, real under Xvfb: the unlock page over a journal locked on disk, and
/// the questions Preferences asks before turning the lock on or off or changing its passphrase.
final class LockWindowsUITests: XCTestCase {
    private let folder = TemporaryFolder()

    func testTheUnlockPageSaysAWrongPassphraseAndOpensWithTheRightOneOrTheRecoveryKey() throws {
        try MainActor.assumeIsolated {
            PrivateSystemBus.ensure()
            Toolkit.initialize()
            let path = folder.file("journal.sqlite")
            let store = try JournalStore(path: path)
            try store.save(try EntryDraft(title: "Secret title", mood: .okay).validated().get())
            store.close()
            let locked = try JournalLock.lock(path: path, passphrase: "the right passphrase", cost: .interactive)
            let page = UnlockWindow(application: Harness.sharedApplication(), journalPath: path)
            defer { page.window.destroy() }
            var opened: JournalCipher?
            page.onUnlocked = { opened = $0 }
            page.present()
            XCTAssertEqual(page.window.title, "Flourish", "the title says nothing of the journal")
            XCTAssertFalse(page.problem.isVisible)

            page.unlockButton.click()
            XCTAssertTrue(page.problem.isVisible, "an empty field is answered at once")

            page.passphraseField.text = "the wrong passphrase"
            page.unlockButton.click()
            XCTAssertTrue(MainLoop.run(until: { page.unlockButton.isSensitive && page.problem.text.contains("does not open") }, timeout: 10))
            XCTAssertEqual(page.passphraseField.text, "", "a wrong passphrase is not left in the field")
            XCTAssertNil(opened)

            page.passphraseField.text = locked.recoveryKey
            page.unlockButton.click()
            XCTAssertTrue(MainLoop.run(until: { opened != nil }, timeout: 10), "the recovery key opens it")
            XCTAssertEqual(opened?.keyID, locked.cipher.keyID)
            XCTAssertEqual(page.passphraseField.text, "", "nothing typed stays in the window")
        }
    }

    func testLockQuestionsCheckWhatIsTypedAndSayWhatWentWrong() throws {
        try MainActor.assumeIsolated {
            // Change Passphrase… and New Key… ask the same: the current passphrase, a new one twice.
            for purpose in [LockPassphraseWindow.Purpose.change, .newKey] {
                let harness = try Harness()
                defer { harness.close() }
                var asked: [(Passphrase, Passphrase)] = []
                var answer: JournalError? = .wrongPassphrase
                let question = LockPassphraseWindow(application: Harness.sharedApplication(), parent: harness.main.window,
                                                    purpose: purpose) { current, new, done in
                    asked.append((current, new))
                    done(answer)
                }
                defer { question.window.destroy() }
                question.present()
                question.actionButton.click()
                XCTAssertTrue(question.problem.text.contains("passphrase"), question.problem.text)
                question.currentField.text = "old passphrase"
                question.newField.text = "short"
                question.againField.text = "short"
                question.actionButton.click()
                XCTAssertTrue(question.problem.text.contains("at least 8"), question.problem.text)
                question.newField.text = "a good new passphrase"
                question.againField.text = "a different one"
                question.actionButton.click()
                XCTAssertTrue(question.problem.text.contains("differ"), question.problem.text)
                XCTAssertTrue(asked.isEmpty, "nothing is done before the fields are right")

                question.againField.text = "a good new passphrase"
                question.actionButton.click()
                XCTAssertEqual(asked.count, 1)
                // Handed over as typed, as bytes.
                XCTAssertEqual(asked.first?.0.isSame(as: Passphrase("old passphrase")), true)
                XCTAssertEqual(asked.first?.1.isSame(as: Passphrase("a good new passphrase")), true)
                XCTAssertTrue(question.problem.text.contains("does not open"), "the failure is said: \(question.problem.text)")
                XCTAssertTrue(question.window.isVisible, "and the window stays")

                answer = nil
                question.actionButton.click()
                XCTAssertTrue(MainLoop.run(until: { !question.window.isVisible }, timeout: 5), "done, it closes")
            }
        }
    }
}
