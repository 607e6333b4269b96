import FlourishCore
import GtkKit

extension JournalError {
    /// Why a picture named `fileName` could not be read, in the person's words.
    static func picture(_ fileName: String, _ error: PhotoDecodingError) -> JournalError {
        switch error.kind {
        case .notAnImage: .notAPicture(name: fileName)
        case .damaged: .unreadablePicture(name: fileName, reason: tr("it is damaged or cut short"))
        case .readerMissing: .unreadablePicture(name: fileName, reason: tr("this computer has no reader for its kind of picture"))
        }
    }
}
