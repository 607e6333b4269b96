import Foundation
import PackagePlugin

/// Gives a target `ProjectVersion.string`, the version in meson.build, so that the release is
/// named in one place for SwiftPM and meson builds alike.
@main
struct ProjectVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let meson = context.package.directoryURL.appendingPathComponent("meson.build")
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("ProjectVersion.swift")
        return [
            .buildCommand(
                displayName: "Reading the version from meson.build",
                executable: try context.tool(named: "project-version").url,
                arguments: [meson.path, output.path],
                inputFiles: [meson],
                outputFiles: [output]
            ),
        ]
    }
}
