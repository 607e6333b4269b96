import FlourishCore
import Foundation
import GtkKit

/// "Sync…" (main menu). Sync off: where to sync (a folder that something else keeps in step, or
/// a WebDAV server with its address and password) and the passphrase, with the warning that a
/// forgotten one cannot be recovered; Set Up joins the journal there or starts one. Sync on:
/// where it syncs, how it stands, Sync Now and Turn Off Sync, and the passphrase or the key
/// changed (`SyncKeyWindow`). Nothing here waits: the work runs
/// in the background and its outcome is said in the window.
@MainActor
final class SyncWindow {
    let window: Window
    // Setting up.
    let folderChoice = CheckButton(tr("A folder that something else keeps in step (Syncthing, a Nextcloud client, a USB stick)"))
    let serverChoice = CheckButton(tr("A WebDAV server (Nextcloud, ownCloud, a NAS)"))
    let folderField = TextEntry()
    let chooseFolderButton = Button(mnemonic: tr("C_hoose…"))
    let addressField = TextEntry()
    let passwordField = PasswordEntry()
    let passphraseField = PasswordEntry()
    let againField = PasswordEntry()
    let setUpButton = Button(mnemonic: tr("_Set Up"))
    // Synced.
    let placeLabel = Label()
    let statusLabel = Label()
    let syncNowButton = Button(mnemonic: tr("Sync _Now"))
    let turnOffButton = Button(mnemonic: tr("_Turn Off Sync"))
    let unlockButton = Button(mnemonic: tr("_Unlock"))
    let changePassphraseButton = Button(mnemonic: tr("Change _Passphrase…"))
    let shutOutButton = Button(mnemonic: tr("Shut _Out Other Computers…"))
    /// The passphrase or key being changed, while its window is open.
    private(set) var keyWindow: SyncKeyWindow?
    private let application: Application
    /// What went wrong, in words, next to the fields it is about.
    let problem = Label()
    let closeButton = Button(mnemonic: tr("_Close"))

    private let controller: SyncController
    private let intro = Label(tr("Keep this journal on all your computers, end-to-end encrypted: only your computers, with the sync passphrase, can read it."))
    private let setUpBox = Box(.vertical, spacing: 8)
    private let syncedBox = Box(.vertical, spacing: 8)
    private let folderRow = Box(.horizontal, spacing: 8)
    private let serverBox = Box(.vertical, spacing: 4)
    private let againRow: Box
    private let passphraseBox: Box
    private(set) var isWorking = false

    init(application: Application, parent: Window, controller: SyncController) {
        self.controller = controller
        self.application = application
        let content: Box
        (window, content) = TaskWindow.make(application: application, parent: parent, title: tr("Sync"), width: 520)

        intro.enableWrapping()
        intro.alignStart()
        setUpBox.append(intro)
        let choices = Box(.vertical, spacing: 4, groupNamed: tr("Where to sync"))
        serverChoice.join(folderChoice)
        choices.append(folderChoice)
        folderField.setAccessibleLabel(tr("Folder"))
        folderField.placeholder = tr("A folder, e.g. ~/Sync/Flourish")
        folderField.expand(horizontally: true)
        folderRow.append(folderField)
        folderRow.append(chooseFolderButton)
        folderRow.setMargins(start: 24)
        choices.append(folderRow)
        choices.append(serverChoice)
        addressField.setAccessibleLabel(tr("Address"))
        addressField.placeholder = "https://USER@cloud.example.org/remote.php/dav/files/USER/Flourish/"
        let hint = Label(tr("For Nextcloud: Files → Settings shows the WebDAV address; put your user name before the host, and make an app password."))
        hint.enableWrapping()
        hint.alignStart()
        hint.addClass("dim-label")
        passwordField.setAccessibleLabel(tr("Password"))
        passwordField.placeholder = tr("Password (an app password for Nextcloud)")
        for widget in [addressField, hint, passwordField] as [Widget] { serverBox.append(widget) }
        serverBox.setMargins(start: 24)
        choices.append(serverBox)
        setUpBox.append(choices)

        passphraseField.setAccessibleLabel(tr("Sync passphrase"))
        passphraseField.placeholder = tr("Sync passphrase")
        againField.setAccessibleLabel(tr("The same passphrase again, for a new synced journal"))
        againField.placeholder = tr("The same again (for a new synced journal)")
        againRow = Box(.vertical, spacing: 4)
        againRow.append(againField)
        let warning = Label(tr("A forgotten passphrase cannot be recovered: nothing else can open the journal at the sync place. Keep it somewhere safe."))
        warning.enableWrapping()
        warning.alignStart()
        passphraseBox = Box(.vertical, spacing: 4)
        passphraseBox.append(passphraseField)
        passphraseBox.append(againRow)
        passphraseBox.append(warning)
        setUpBox.append(passphraseBox)

        placeLabel.enableWrapping()
        placeLabel.alignStart()
        statusLabel.enableWrapping()
        statusLabel.alignStart()
        syncedBox.append(placeLabel)
        syncedBox.append(statusLabel)
        let keyRow = Box(.horizontal, spacing: 8)
        keyRow.append(changePassphraseButton)
        keyRow.append(shutOutButton)
        syncedBox.append(keyRow)

        problem.addClass("field-error")
        problem.enableWrapping()
        problem.alignStart()
        problem.isVisible = false
        content.append(setUpBox)
        content.append(syncedBox)
        content.append(problem)
        setUpButton.addClass("suggested-action")
        unlockButton.addClass("suggested-action")
        TaskWindow.buttons([closeButton, turnOffButton, unlockButton, setUpButton, syncNowButton], in: content, of: window)

        folderChoice.isActive = true
        folderChoice.onToggled { [unowned self] in showChoice() }
        serverChoice.onToggled { [unowned self] in showChoice() }
        chooseFolderButton.onClicked { [unowned self] in chooseFolder() }
        closeButton.onClicked { [unowned self] in window.close() }
        setUpButton.onClicked { [unowned self] in setUp() }
        passphraseField.onActivate { [unowned self] in
            if controller.status == .needsPassphrase { unlock() } else { _ = againField.grabFocus() }
        }
        againField.onActivate { [unowned self] in setUp() }
        syncNowButton.onClicked { [unowned self] in controller.syncNow() }
        unlockButton.onClicked { [unowned self] in unlock() }
        turnOffButton.onClicked { [unowned self] in turnOff() }
        changePassphraseButton.onClicked { [unowned self] in changeKey(shutOut: false) }
        shutOutButton.onClicked { [unowned self] in changeKey(shutOut: true) }
        controller.observe { [weak self] in self?.showState() }
    }

    func present() {
        problem.isVisible = false
        showState()
        window.present()
        if controller.isOn {
            _ = (controller.status == .needsPassphrase ? passphraseField : syncNowButton).grabFocus()
        } else {
            _ = folderChoice.grabFocus()
        }
    }

    private func showChoice() {
        folderRow.isSensitive = folderChoice.isActive
        serverBox.isSensitive = serverChoice.isActive
    }

    /// The setup fields while sync is off; where and how it stands while it is on.
    private func showState() {
        let on = controller.isOn
        let locked = controller.status == .needsPassphrase
        setUpBox.isVisible = !on || locked
        intro.isVisible = !on
        syncedBox.isVisible = on
        againRow.isVisible = !on
        setUpButton.isVisible = !on
        syncNowButton.isVisible = on && !locked
        unlockButton.isVisible = locked
        turnOffButton.isVisible = on
        changePassphraseButton.isVisible = on && !locked
        shutOutButton.isVisible = on && !locked
        if on {
            placeLabel.text = String(format: tr("Syncing through %@."), controller.placeName ?? "")
            statusLabel.text = controller.sentence
            // Only the passphrase is asked again, and the password for a server.
            setChoicesVisible(!locked)
        } else {
            setChoicesVisible(true)
        }
        showChoice()
    }

    private func setChoicesVisible(_ visible: Bool) {
        folderChoice.isVisible = visible
        serverChoice.isVisible = visible
        folderRow.isVisible = visible
        serverBox.isVisible = visible || controller.placeName.map(SyncTarget.isWebDAV) ?? false
        addressField.isVisible = visible
    }

    private func chooseFolder() {
        FileChooser.ask(.folder, title: tr("Sync Through a Folder"), from: window, accept: tr("_Choose"), cancel: tr("_Cancel")) { [weak self] path in
            guard let self, let path else { return }
            folderField.text = path
            _ = passphraseField.grabFocus()
        }
    }

    /// The folder typed or chosen, with "~" for the home folder.
    private var folderPath: String {
        let text = folderField.text.trimmingCharacters(in: .whitespaces)
        return text.hasPrefix("~") ? NSHomeDirectory() + text.dropFirst() : text
    }

    private func setUp() {
        guard !isWorking else { return }
        let server = serverChoice.isActive
        let target = server ? addressField.text.trimmingCharacters(in: .whitespaces) : folderPath
        guard !target.isEmpty else {
            return say(server ? tr("Write the server's address.") : tr("Choose or write a folder."), on: server ? addressField : folderField)
        }
        guard server || target.hasPrefix("/") else { return say(tr("Write the folder's whole path, from /."), on: folderField) }
        guard !passphraseField.text.isEmpty else { return say(tr("Write the sync passphrase."), on: passphraseField) }
        working(true)
        controller.setUp(target: target, password: server ? passwordField.text : nil, passphrase: passphraseField.text,
                         again: againField.text) { [weak self] error in
            guard let self else { return }
            working(false)
            if let error { return say(error.errorDescription ?? "\(error)", on: passphraseField) }
            clearSecrets()
            settled()
        }
    }

    /// After a setup, an unlock or turning off: the window shows how things stand now, and
    /// takes the keyboard again only if it is still open (it may have been closed meanwhile).
    private func settled() {
        showState()
        if window.isVisible { present() }
    }

    private func unlock() {
        guard !isWorking else { return }
        guard !passphraseField.text.isEmpty else { return say(tr("Write the sync passphrase."), on: passphraseField) }
        working(true)
        let server = controller.placeName.map(SyncTarget.isWebDAV) ?? false
        controller.unlock(passphrase: passphraseField.text, password: server && !passwordField.text.isEmpty ? passwordField.text : nil) { [weak self] error in
            guard let self else { return }
            working(false)
            if let error { return say(error.errorDescription ?? "\(error)", on: passphraseField) }
            clearSecrets()
            settled()
        }
    }

    private func changeKey(shutOut: Bool) {
        let keyWindow = SyncKeyWindow(application: application, parent: window, controller: controller, shutOut: shutOut)
        keyWindow.window.onCloseRequest { [weak self] in
            self?.keyWindow = nil
            return false
        }
        self.keyWindow = keyWindow
        keyWindow.present()
    }

    private func turnOff() {
        guard !isWorking else { return }
        working(true)
        controller.turnOff { [weak self] error in
            guard let self else { return }
            working(false)
            if let error { return say(error.errorDescription ?? "\(error)", on: turnOffButton) }
            settled()
        }
    }

    /// Passphrases and passwords are not kept in the window once used.
    private func clearSecrets() {
        for field in [passwordField, passphraseField, againField] { field.text = "" }
    }

    private func working(_ on: Bool) {
        isWorking = on
        problem.isVisible = false
        // An earlier problem is not announced again once it is gone.
        for widget in [folderField, addressField, passphraseField, turnOffButton] as [Widget] { widget.setAccessibleDescription("") }
        for button in [setUpButton, unlockButton, turnOffButton, syncNowButton] { button.isSensitive = !on }
    }

    private func say(_ words: String, on widget: Widget) {
        problem.text = words
        problem.isVisible = true
        widget.setAccessibleDescription(words)
        _ = widget.grabFocus()
    }
}
