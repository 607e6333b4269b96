import Foundation

/// The journal's measures as the screens see them: the list the forms' fields show, kept
/// current after each change, and the changes themselves, each a store intent on the model's queue.
extension JournalModel {
    /// Calls `observer` each time `measures` changes (the forms' fields, Preferences → Measures).
    public func observeMeasures(_ observer: @escaping @MainActor () -> Void) {
        measureObservers.append(observer)
    }

    /// An entry's values as the entry page says them, in the measures' order: "Sleep: 7.5 hours".
    public func measureWords(_ values: [Int64: Double]) -> [String] {
        measures.compactMap { measure in
            values[measure.id].map { String(format: tr("%@: %@"), measure.name, measure.spoken($0)) }
        }
    }

    /// The measure with this id, if the journal still has it.
    public func measure(_ id: Int64) -> Measure? { measures.first { $0.id == id } }

    /// Reads the measures in the background; tried again shortly if the journal cannot be read
    /// just now, so the forms never stay without their fields.
    public func loadMeasures() {
        let store = self.store
        work.async {
            let measures = Result { () throws(JournalError) in try store.measures() }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    switch measures {
                    case .success(let measures): self.measuresChanged(to: measures)
                    case .failure:
                        DispatchQueue.main.asyncAfter(deadline: .now() + Self.tagRetrySeconds) {
                            MainActor.assumeIsolated { self.loadMeasures() }
                        }
                    }
                }
            }
        }
    }

    /// How many entries carry a value for each measure, for Preferences → Measures.
    public func measureUse(completion: @escaping @MainActor (Result<[Int64: Int], JournalError>) -> Void) {
        let store = self.store
        work.async {
            let result = Result { () throws(JournalError) in try store.measureUse() }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
    }

    public func createMeasure(_ definition: MeasureDefinition, completion: @escaping @MainActor (Result<Measure, JournalError>) -> Void) {
        runMeasureChange({ store throws(JournalError) in try store.createMeasure(definition) }, adjust: { _ in }, completion: completion)
    }

    public func updateMeasure(id: Int64, to definition: MeasureDefinition,
                              completion: @escaping @MainActor (Result<Measure, JournalError>) -> Void) {
        runMeasureChange({ store throws(JournalError) in try store.updateMeasure(id: id, to: definition) }, adjust: { _ in },
                         completion: completion)
    }

    public func moveMeasure(id: Int64, to index: Int, completion: @escaping @MainActor (Result<Void, JournalError>) -> Void) {
        runMeasureChange({ store throws(JournalError) in try store.moveMeasure(id: id, to: index) }, adjust: { _ in },
                         completion: completion)
    }

    /// Deletes the measure and its values; `completion` gets what Undo needs to put them back.
    public func deleteMeasure(id: Int64, completion: @escaping @MainActor (Result<DeletedMeasure, JournalError>) -> Void) {
        runMeasureChange({ store throws(JournalError) in try store.deleteMeasure(id: id) }, adjust: { entry in
            entry.measures[id] = nil
        }, completion: completion)
    }

    /// Puts a deleted measure back, with its values on the entries still there.
    public func restoreMeasure(_ deleted: DeletedMeasure, completion: @escaping @MainActor (Result<Measure, JournalError>) -> Void) {
        runMeasureChange({ store throws(JournalError) in try store.restoreMeasure(deleted) }, adjust: { entry in
            if let value = deleted.values[entry.id] { entry.measures[deleted.measure.id] = value }
        }, completion: completion)
    }

    /// Runs `change`, then reads the measures again, in the background. On success the entries
    /// in memory are brought in line with the file by `adjust`, `measures` is the new list, and
    /// every observer hears of it before `completion`. A change made is reported made even if
    /// the list cannot be read again just then (it is read again shortly).
    private func runMeasureChange<T: Sendable>(_ change: @escaping @Sendable (any JournalStoring) throws(JournalError) -> T,
                                               adjust: @escaping @MainActor (inout Entry) -> Void,
                                               completion: @escaping @MainActor (Result<T, JournalError>) -> Void) {
        let store = self.store
        work.async {
            let result = Result { () throws(JournalError) in try change(store) }
            let measures = result.isSuccess ? (try? store.measures()) : nil
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    switch result {
                    case .success(let value):
                        for id in self.cache.keys { adjust(&self.cache[id]!) }
                        if let measures { self.measuresChanged(to: measures) } else { self.loadMeasures() }
                        completion(.success(value))
                    case .failure(let error):
                        if case .damagedJournal = error { self.checkHealth() }
                        completion(.failure(error))
                    }
                }
            }
        }
    }

    /// The journal's measures are now `measures`: every observer hears of it.
    private func measuresChanged(to measures: [Measure]) {
        self.measures = measures
        for observer in measureObservers { observer() }
    }
}
