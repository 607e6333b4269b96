import FlourishCore
import Foundation

/// The longest passphrase line read: the bytes are read into a buffer of this size, never grown
/// (a buffer grown is a copy left behind unwiped).
private let longestLine = 4096

/// A passphrase or recovery key for the lock, read as bytes and never a Swift `String`: asked for
/// with `prompt` on a terminal (nothing echoed), else the next line of standard input. Read with
/// read(2), byte by byte, so that what follows the line stays for the command's other reads.
/// Standard input ending first ends the command, as `readSecret` does.
func readPassphrase(prompt: String) -> Passphrase {
    let terminal = isatty(STDIN_FILENO) == 1
    var settings = termios()
    if terminal {
        FileHandle.standardError.write(Data(prompt.utf8))
        tcgetattr(STDIN_FILENO, &settings)
        var quiet = settings
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
    }
    var line = [UInt8](repeating: 0, count: longestLine)
    defer { explicit_bzero(&line, line.count) }
    var count = 0, ended = true
    var byte: UInt8 = 0
    while read(STDIN_FILENO, &byte, 1) == 1 {
        if byte == UInt8(ascii: "\n") {
            ended = false
            break
        }
        if count < longestLine { line[count] = byte }
        count += 1
    }
    byte = 0
    if terminal {
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        FileHandle.standardError.write(Data("\n".utf8))
    }
    if ended, count == 0, !terminal {
        let reason = tr("standard input ended before the passphrase")
        FileHandle.standardError.write(Data("flourish: \(reason)\n".utf8))
        end(1)
    }
    guard count <= longestLine else { failed(.other(reason: tr("the passphrase is too long; nothing was changed"))) }
    if count > 0, line[count - 1] == UInt8(ascii: "\r") { count -= 1 }
    return line.withUnsafeBytes { Passphrase(copying: $0.baseAddress, count: count) }
}
