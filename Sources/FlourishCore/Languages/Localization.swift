import CIntl
import Foundation

/// Flourish's translations, through gettext. Every string a person sees goes through `tr`, and
/// `xgettext --keyword=tr` (see po/) collects them into the template.
public enum Localization {
    public static let domain = "flourish"

    /// Takes the language from the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) and reads
    /// translations from `localeDirectory` (…/share/locale beside an installed binary).
    public static func setUp(localeDirectory: String?) {
        setlocale(LC_ALL, "")
        if let localeDirectory { bindtextdomain(domain, localeDirectory) }
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)
    }
}

/// The translation of `text` in the person's language, or `text` itself.
/// Keep the argument a single string literal so xgettext can find it; put values in with
/// `String(format:)` placeholders, never interpolation.
public func tr(_ text: String) -> String {
    text.withCString { key in
        // Untranslated, dgettext hands back `key` itself, which lives only inside this closure.
        guard let translated = dgettext(Localization.domain, key), translated != key else { return text }
        return String(cString: translated)
    }
}
