@testable import FlourishApp
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// A paste right after another program copied: on X11, GTK learns what the new clipboard holds
/// only when that program answers, and a paste in between must wait for the answer rather than
/// say the clipboard holds no photo.
final class ClipboardPasteTests: XCTestCase {
    func testFilesCopiedByAnotherProgramAMomentAgoArePastedOnceItSaysWhatItHolds() throws {
        let made = try TestPhotos()
        let path = made.path(.webp)
        try withANewOwnerUnheard(copying: "file://\(path)\r\n") { harness, window, holder in
            // A minute's bound, so that only hearing the formats can end the wait in this test.
            var pasted: ClipboardPicture??
            window.readClipboardPicture(waitingAtMost: 60_000) { pasted = .some($0) }
            MainLoop.run(for: 0.3)
            XCTAssertNil(pasted, "nothing is decided while the formats are unknown")
            XCTAssertEqual(kill(holder.processIdentifier, SIGCONT), 0)
            harness.waitUntil("the paste is read", timeout: 10) { pasted != nil }
            guard case .files(let paths)?? = pasted else { return XCTFail("pasted \(String(describing: pasted)), not the copied file") }
            XCTAssertEqual(paths, [path])
        }
    }

    func testAClipboardThatNeverSaysWhatItHoldsIsNothingToPasteOnceTheWaitIsOver() throws {
        try withANewOwnerUnheard(copying: "file:///nowhere.png\r\n") { harness, window, _ in
            var pasted: ClipboardPicture??
            window.readClipboardPicture(waitingAtMost: 200) { pasted = .some($0) }
            harness.waitUntil("the wait is over", timeout: 10) { pasted != nil }
            XCTAssertEqual(pasted.map { $0 == nil }, true, "nothing to paste from an owner that never answered")
        }
    }

    /// Runs `body` once a program has copied `uris` (as a file manager does) and GTK has heard
    /// of the new owner but not of what it holds. The X server knows it owns the clipboard once
    /// a third program is answered by it; GTK has not run meanwhile, so the news waits unread
    /// on its connection. Stopped, the program cannot say what it holds until `body` resumes it.
    private func withANewOwnerUnheard(copying uris: String, _ body: @MainActor (Harness, Window, Process) throws -> Void) throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let window = harness.main.window
            let words = try heardOwner(harness, window)
            defer { resumeAndEnd(words) }
            let holder = try stoppedOwner(of: "text/uri-list", uris)
            defer { resumeAndEnd(holder) }
            harness.waitUntil("GTK hears another program took the clipboard") { window.clipboardAwaitsFormats }
            try body(harness, window, holder)
        }
    }

    /// A first program holding words, whose formats GTK has heard: GTK awaits none. (Another
    /// program, not Flourish: asking the owner below would wait for ever on a GTK loop that is
    /// not running.)
    @MainActor
    private func heardOwner(_ harness: Harness, _ window: Window) throws -> Process {
        let holder = try owner(of: "text/plain", "words")
        harness.waitUntil("GTK knows what the first program holds") { !window.clipboardAwaitsFormats }
        return holder
    }

    /// xclip holding `type` (a program copying), once the X server names it the owner, stopped:
    /// it cannot answer what it holds until `resumeAndEnd`.
    private func stoppedOwner(of type: String, _ data: String) throws -> Process {
        let holder = try owner(of: type, data)
        XCTAssertEqual(kill(holder.processIdentifier, SIGSTOP), 0)
        return holder
    }

    /// xclip holding `type`, once the X server names it the owner.
    private func owner(of type: String, _ data: String) throws -> Process {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/xclip")
        holder.arguments = ["-quiet", "-selection", "clipboard", "-t", type, "-i"]
        let input = Pipe()
        holder.standardInput = input
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        input.fileHandleForWriting.write(Data(data.utf8))
        try input.fileHandleForWriting.close()
        try waitUntilTheClipboardOffers(type)
        return holder
    }

    private func resumeAndEnd(_ holder: Process) {
        kill(holder.processIdentifier, SIGCONT)
        holder.terminate()
        holder.waitUntilExit()
    }

    /// Asks the clipboard's owner for its formats, as another program would, until it offers `type`.
    private func waitUntilTheClipboardOffers(_ type: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let asking = Process()
            asking.executableURL = URL(fileURLWithPath: "/usr/bin/xclip")
            asking.arguments = ["-o", "-selection", "clipboard", "-t", "TARGETS"]
            let output = Pipe()
            asking.standardOutput = output
            asking.standardError = FileHandle.nullDevice
            try asking.run()
            let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            asking.waitUntilExit()
            if said.split(separator: "\n").contains(Substring(type)) { return }
            usleep(50_000) // before asking again: xclip may still be starting
        }
        XCTFail("the clipboard never offered \(type)", file: file, line: line)
    }
}
