import Foundation

/// The journal's templates as the screens see them: the list the Template menu and Preferences
/// → Templates show, kept current after each change, and the changes, each a store intent on
/// the model's queue.
extension JournalModel {
    /// Calls `observer` each time `templates` changes.
    public func observeTemplates(_ observer: @escaping @MainActor () -> Void) {
        templateObservers.append(observer)
    }

    /// The template every new entry starts from, if one is chosen.
    public var defaultTemplate: EntryTemplate? { templates.first(where: \.isDefault) }

    /// Reads the templates in the background (after the window's first frame: nothing needs
    /// them before); tried again shortly if the journal cannot be read just now.
    public func loadTemplates() {
        let store = self.store
        work.async {
            let templates = Result { () throws(JournalError) in try store.templates() }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    switch templates {
                    case .success(let templates): self.templatesChanged(to: templates)
                    case .failure:
                        DispatchQueue.main.asyncAfter(deadline: .now() + Self.tagRetrySeconds) {
                            MainActor.assumeIsolated { self.loadTemplates() }
                        }
                    }
                }
            }
        }
    }

    public func createTemplate(_ definition: TemplateDefinition, completion: @escaping @MainActor (Result<EntryTemplate, JournalError>) -> Void) {
        runTemplateChange({ store throws(JournalError) in try store.createTemplate(definition) }, completion: completion)
    }

    public func updateTemplate(id: Int64, to definition: TemplateDefinition,
                               completion: @escaping @MainActor (Result<EntryTemplate, JournalError>) -> Void) {
        runTemplateChange({ store throws(JournalError) in try store.updateTemplate(id: id, to: definition) }, completion: completion)
    }

    public func setDefaultTemplate(id: Int64?, completion: @escaping @MainActor (Result<Void, JournalError>) -> Void) {
        runTemplateChange({ store throws(JournalError) in try store.setDefaultTemplate(id: id) }, completion: completion)
    }

    /// Deletes the template; `completion` gets what Undo needs to put it back.
    public func deleteTemplate(id: Int64, completion: @escaping @MainActor (Result<DeletedTemplate, JournalError>) -> Void) {
        runTemplateChange({ store throws(JournalError) in try store.deleteTemplate(id: id) }, completion: completion)
    }

    public func restoreTemplate(_ deleted: DeletedTemplate, completion: @escaping @MainActor (Result<EntryTemplate, JournalError>) -> Void) {
        runTemplateChange({ store throws(JournalError) in try store.restoreTemplate(deleted) }, completion: completion)
    }

    /// Runs `change`, then reads the templates again, in the background; on success `templates`
    /// is the new list and every observer hears of it before `completion`.
    private func runTemplateChange<T: Sendable>(_ change: @escaping @Sendable (any JournalStoring) throws(JournalError) -> T,
                                                completion: @escaping @MainActor (Result<T, JournalError>) -> Void) {
        let store = self.store
        work.async {
            let result = Result { () throws(JournalError) in try change(store) }
            let templates = result.isSuccess ? (try? store.templates()) : nil
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    switch result {
                    case .success:
                        if let templates { self.templatesChanged(to: templates) } else { self.loadTemplates() }
                    case .failure(let error):
                        if case .damagedJournal = error { self.checkHealth() }
                    }
                    completion(result)
                }
            }
        }
    }

    private func templatesChanged(to templates: [EntryTemplate]) {
        self.templates = templates
        templatesRead = true
        for observer in templateObservers { observer() }
    }
}
