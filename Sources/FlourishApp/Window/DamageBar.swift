import FlourishCore
import Foundation
import GtkKit

/// Across the top of the window when the journal's health check found damage: says so in
/// words, and offers "Recover…" (every readable entry copied into a new journal beside it, the
/// damaged file never changed) and "Quit". Saving is refused meanwhile, with its own message.
@MainActor
final class DamageBar {
    let view = Box(.horizontal, spacing: 12)
    let message = Label()
    let recoverButton = Button(mnemonic: tr("_Recover…"))
    let quitButton = Button(mnemonic: tr("_Quit"))
    private let journalPath: String
    private let alerts: Alerts
    private(set) var isRecovering = false

    init(journalPath: String, alerts: Alerts, quit: @escaping @MainActor () -> Void) {
        self.journalPath = journalPath
        self.alerts = alerts
        view.addClass("damage-bar")
        message.enableWrapping()
        message.alignStart()
        message.expand(horizontally: true, vertically: false)
        message.text = String(format: tr("The journal at %@ is damaged. Flourish shows the entries it can read and will not write to it."),
                              journalPath)
        view.append(message)
        view.append(recoverButton)
        view.append(quitButton)
        view.isVisible = false
        recoverButton.onClicked { [unowned self] in recover() }
        quitButton.onClicked { quit() }
    }

    /// Shown where it is, without taking the keyboard: the person may be typing in the form when
    /// the check's verdict arrives, and a keystroke must not land on "Recover…".
    func show() {
        view.isVisible = true
    }

    /// Where "Recover…" writes: beside the journal, named for the moment, never over a file.
    func recoveryPath(now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd-HHmmss"
        let base = ((journalPath as NSString).deletingPathExtension as NSString).lastPathComponent
        let folder = (journalPath as NSString).deletingLastPathComponent
        return (folder as NSString).appendingPathComponent("\(base)-recovered-\(formatter.string(from: now)).sqlite")
    }

    private func recover() {
        guard !isRecovering else { return }
        isRecovering = true
        recoverButton.isSensitive = false
        let (source, output) = (journalPath, recoveryPath())
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { () throws(JournalError) in try JournalRescue.recover(from: source, to: output) }
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self.recovered(result) }
            }
        }
    }

    private func recovered(_ result: Result<JournalRescue.Recovery, JournalError>) {
        isRecovering = false
        recoverButton.isSensitive = true
        switch result {
        case .success(let recovery):
            alerts.showMessage(
                title: tr("Entries Recovered"),
                message: String(format: tr("Flourish copied %@ entries into a new journal at %@; %@ could not be read. The damaged journal was left as it is. To open the new one, quit and run “flourish --database %@”."),
                                "\(recovery.recovered)", recovery.output, "\(recovery.lost)", recovery.output))
        case .failure(let error):
            alerts.showMessage(title: tr("Error"), message: error.errorDescription ?? tr("The entries could not be recovered."))
        }
    }
}
