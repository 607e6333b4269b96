import Foundation
import GtkKit

// The floor under Flourish's start-up and memory: a Swift GTK 4 window with one label, started
// the way Flourish starts (GtkKit's application, main loop and renderer choice), and nothing else.
// scripts/bench starts it in the same rounds as Flourish, so that the table says how far
// Flourish is from what GTK itself costs on this machine.
MainActor.assumeIsolated {
    let application = Application(id: "org.flourishjournal.BareWindow", unique: false)
    application.onActivate {
        let window = Window(application: application)
        window.title = "Bare window"
        window.setChild(Label("A window with one label"))
        window.present()
    }
    exit(application.run(programName: "flourish-bare-window"))
}
