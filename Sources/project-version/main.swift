import Foundation

// Writes the project's version, read from meson.build's `project(…, version: '…')`, as Swift
// source: the release is named in one place, and `flourish --version` says what meson installs.
//   project-version MESON_BUILD OUTPUT
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: project-version MESON_BUILD OUTPUT\n".utf8))
    exit(2)
}
let meson = try String(contentsOfFile: arguments[1], encoding: .utf8)
// The first `version: '…'` is project()'s: meson requires project() to be the first statement.
guard let match = meson.range(of: #"version:\s*'([^']+)'"#, options: .regularExpression) else {
    FileHandle.standardError.write(Data("project-version: no version: '…' in \(arguments[1])\n".utf8))
    exit(1)
}
let version = meson[match].split(separator: "'")[1]
let source = """
    // Made by the ProjectVersion plugin from meson.build; not kept in the repository.
    public enum ProjectVersion {
        public static let string = "\(version)"
    }

    """
// Written only when it changes, so that an unchanged version rebuilds nothing.
let output = URL(fileURLWithPath: arguments[2])
if (try? String(contentsOf: output, encoding: .utf8)) != source {
    try source.write(to: output, atomically: true, encoding: .utf8)
}
