import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// The login item in a real autostart folder: written whole, removed, and the Exec line quoted.
final class LoginItemTests: XCTestCase {
    private let folder = TemporaryFolder()

    func testTheLoginItemIsWrittenInTheAutostartFolderAndRemoved() throws {
        let item = LoginItem(applicationID: "org.flourishjournal.Flourish", environment: ["XDG_CONFIG_HOME": folder.file("config")])
        XCTAssertEqual(item.path, folder.file("config/autostart/org.flourishjournal.Flourish.desktop"))
        XCTAssertFalse(item.isInstalled)
        try item.install(command: "flourish", name: "Flourish", comment: "Reminds you to write")
        let text = try String(contentsOfFile: item.path, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("[Desktop Entry]\n"))
        XCTAssertTrue(text.contains("\nExec=flourish --gapplication-service\n"))
        XCTAssertTrue(text.contains("\nIcon=org.flourishjournal.Flourish\n"))
        try item.install(command: "/opt/My Apps/flourish", name: "Flourish", comment: "Reminds you to write")
        XCTAssertTrue(try String(contentsOfFile: item.path, encoding: .utf8).contains("\nExec=\"/opt/My Apps/flourish\" --gapplication-service\n"))
        // Every character the specification reserves, and a percent sign: still one argument, and valid.
        try item.install(command: "/opt/100% \"odd\" $HOME `x` back\\slash/flourish", name: "Flourish", comment: "Reminds you to write")
        XCTAssertTrue(try String(contentsOfFile: item.path, encoding: .utf8)
            .contains("\nExec=\"/opt/100%% \\\\\"odd\\\\\" \\\\$HOME \\\\`x\\\\` back\\\\\\\\slash/flourish\" --gapplication-service\n"))
        XCTAssertEqual(try validate(item.path), 0, "desktop-file-validate takes it")
        try item.remove()
        XCTAssertFalse(item.isInstalled)
        XCTAssertNoThrow(try item.remove(), "removing what is gone is no error")
    }

    private func validate(_ path: String) throws -> Int32 {
        let validate = Process()
        validate.executableURL = URL(fileURLWithPath: "/usr/bin/desktop-file-validate")
        validate.arguments = [path]
        try validate.run()
        validate.waitUntilExit()
        return validate.terminationStatus
    }

    func testTheCommandIsFlourishWhenThePathFindsThisBinaryAndItsFullPathOtherwise() throws {
        let bin = folder.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let binary = (bin as NSString).appendingPathComponent("flourish")
        FileManager.default.createFile(atPath: binary, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        XCTAssertEqual(LoginItem.command(executable: binary, environment: ["PATH": "/usr/bin:\(bin)"]), "flourish")
        XCTAssertEqual(LoginItem.command(executable: binary, environment: ["PATH": "/usr/bin"]), binary)
        // Started by its bare name: found on the PATH, never taken as a file in the current folder.
        XCTAssertEqual(LoginItem.command(executable: "flourish", environment: ["PATH": "/usr/bin:\(bin)"]), "flourish")
        // By default, the running binary itself (the kernel's link to it).
        let running = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        XCTAssertTrue(running.hasPrefix("/") && running != "/proc/self/exe", running)
        XCTAssertEqual(LoginItem.command(environment: ["PATH": "/nowhere"]), running)
    }
}
