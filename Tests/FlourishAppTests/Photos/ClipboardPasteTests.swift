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
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let window = harness.main.window
            // A program copies the file (as a file manager does): xclip, in the foreground.
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: "/usr/bin/xclip")
            holder.arguments = ["-quiet", "-selection", "clipboard", "-t", "text/uri-list", "-i"]
            let input = Pipe()
            holder.standardInput = input
            holder.standardError = FileHandle.nullDevice
            try holder.run()
            defer {
                kill(holder.processIdentifier, SIGCONT)
                holder.terminate()
                holder.waitUntilExit()
            }
            input.fileHandleForWriting.write(Data("file://\(path)\r\n".utf8))
            try input.fileHandleForWriting.close()
            // The X server knows it owns the clipboard once a third program is answered by it.
            // GTK has not run meanwhile, so the news waits unread on its connection.
            try waitUntilTheClipboardOffers("text/uri-list")
            // Stopped, it cannot say what it holds: GTK hears of the new owner, not of its formats.
            XCTAssertEqual(kill(holder.processIdentifier, SIGSTOP), 0)
            harness.waitUntil("GTK hears another program took the clipboard") { window.clipboardAwaitsFormats }

            var pasted: ClipboardPicture??
            window.readClipboardPicture { pasted = .some($0) }
            MainLoop.run(for: 0.3)
            XCTAssertNil(pasted, "nothing is decided while the formats are unknown")
            XCTAssertEqual(kill(holder.processIdentifier, SIGCONT), 0)
            harness.waitUntil("the paste is read", timeout: 10) { pasted != nil }
            guard case .files(let paths)?? = pasted else { return XCTFail("pasted \(String(describing: pasted)), not the copied file") }
            XCTAssertEqual(paths, [path])
        }
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
        }
        XCTFail("the clipboard never offered \(type)", file: file, line: line)
    }
}
