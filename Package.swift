// swift-tools-version:6.0
import PackageDescription

// Layering (see docs/architecture.md): CGtk (C module map) <- GtkKit (the one bridge that touches pointers)
// <- FlourishApp (controllers) <- flourish (executable). FlourishCore (models, store) never imports GTK.
let package = Package(
    name: "Flourish",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "flourish", targets: ["flourish"]),
        .executable(name: "flourish-webdav", targets: ["flourish-webdav"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // Property-based tests (Swift Testing) of what the store keeps.
        .package(url: "https://github.com/x-sheep/swift-property-based.git", exact: "2.0.1"),
        // Reads Daylio's own backup, a ZIP file (and the tests write such backups with it).
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
    ],
    targets: [
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        // libsecret, for the desktop's Secret Service (sync's key and password); GLib, not GTK.
        .systemLibrary(name: "CSecret", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]),
        // glibc's malloc tuning, which Swift's Glibc module does not export; GtkKit alone uses it.
        .systemLibrary(name: "CMalloc"),
        // Enchant 2, for spelling as a person types, with the computer's own dictionaries.
        .systemLibrary(name: "CEnchant", pkgConfig: "enchant-2", providers: [.apt(["libenchant-2-dev"])]),
        .target(
            name: "GtkKit",
            dependencies: ["CGtk", "CSecret", "CMalloc", "CEnchant"]
        ),
        // glibc's gettext, for the core's own words; no GTK.
        .systemLibrary(name: "CIntl"),
        // libsodium, for sync: what leaves the machine is sealed with it; no GTK.
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // The encrypting SQLite VFS for locked journals, in C beside libsodium: every page sealed
        // before it reaches the disk. No GTK.
        .target(
            name: "CJournalCipher",
            linkerSettings: [.linkedLibrary("sqlite3"), .linkedLibrary("sodium")]
        ),
        // cmark-gfm, for entries' Markdown (the entry page, previews); no GTK.
        .systemLibrary(name: "CMark", providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .target(
            name: "FlourishCore",
            dependencies: ["CIntl", "CSodium", "CMark", "CJournalCipher", "WebDAVWire", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "GRDBSQLite", package: "GRDB.swift"), "ZIPFoundation"],
            // cmark-gfm from Debian's static archives (see Sources/CMark/shim.h): the package
            // then needs no library whose name differs between Debian 12 and 13.
            linkerSettings: [.unsafeFlags(["-Xlinker", "-l:libcmark-gfm-extensions.a", "-Xlinker", "-l:libcmark-gfm.a"])]
        ),
        // What Flourish and its WebDAV helper say to each other; Foundation alone.
        .target(name: "WebDAVWire"),
        // The WebDAV helper: the one program of Flourish's that links a network stack (libcurl,
        // named for the build that links Foundation statically), started by the app when it
        // syncs through WebDAV.
        .executableTarget(
            name: "flourish-webdav",
            dependencies: ["WebDAVWire"],
            path: "Sources/flourish-webdav",
            linkerSettings: [.linkedLibrary("curl", .when(platforms: [.linux]))]
        ),
        .target(
            name: "FlourishApp",
            dependencies: ["GtkKit", "FlourishCore"],
            plugins: ["ProjectVersion"]
        ),
        // The release's version is meson.build's: this plugin reads it into the app at build time.
        .plugin(name: "ProjectVersion", capability: .buildTool(), dependencies: ["project-version"]),
        .executableTarget(name: "project-version", path: "Sources/project-version"),
        .executableTarget(
            name: "flourish",
            dependencies: ["FlourishApp", "FlourishCore"]
        ),
        // The benchmark's floor: a bare GTK window built as Flourish is.
        .executableTarget(name: "flourish-bare-window", dependencies: ["GtkKit"], path: "Sources/flourish-bare-window"),
        .executableTarget(
            name: "flourish-bench",
            dependencies: ["FlourishCore", "FlourishTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/flourish-bench"
        ),
        // What both test suites use: temporary folders and a real store with faults in front.
        .target(
            name: "FlourishTestSupport",
            dependencies: ["FlourishCore", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/Support",
            exclude: ["geoclue_standin.py", "portal_standin.py", "webdav_server.py", "lighttpd_server.py", "nginx_server.py",
                      "rclone_server.py", "local_server.py", "busy_proxy.py", "syncthing_pair.py", "make_photos.sh"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // XCTest on Linux runs every test synchronously on the main thread, which Swift 6's
        // region checker cannot see; the tests use Swift 5 mode and `MainActor.assumeIsolated`.
        .testTarget(
            name: "FlourishCoreTests",
            dependencies: ["FlourishCore", "FlourishTestSupport", "CSodium", .product(name: "GRDB", package: "GRDB.swift"), "ZIPFoundation"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Swift Testing, in Swift 6 mode: what the store keeps, for any text at all.
        .testTarget(
            name: "FlourishPropertyTests",
            dependencies: ["FlourishCore", "FlourishTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "FlourishAppTests",
            dependencies: ["FlourishApp", "GtkKit", "FlourishCore", "FlourishTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
