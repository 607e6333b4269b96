import Foundation
import GtkKit

// The floor under Flourish's start-up and memory: a Swift GTK 4 window with one label, started
// the way Flourish starts (GtkKit's application, main loop and renderer choice), and nothing else.
// scripts/bench starts it in the same rounds as Flourish, so that the table says how far
// Flourish is from what GTK itself costs on this machine.
//
// With --new-entry-screen the window holds instead the controls Flourish's first screen shows
// (see NewEntryScreen): what GTK alone costs to show that screen, with no journal behind it.
MainActor.assumeIsolated {
    let newEntryScreen = CommandLine.arguments.dropFirst().contains("--new-entry-screen")
    let application = Application(id: "org.flourishjournal.BareWindow", unique: false)
    application.onActivate {
        let window = Window(application: application)
        if newEntryScreen {
            NewEntryScreen.build(in: window)
        } else {
            window.title = "Bare window"
            window.setChild(Label("A window with one label"))
        }
        window.present()
    }
    exit(application.run(programName: "flourish-bare-window"))
}
