import Foundation

/// Daylio's five moods, from its best step (1, "rad") to its worst (5, "awful"), with the names
/// Daylio gives them in the languages it ships, so that a CSV written in German ("super",
/// "gut", …) proposes the same Flourish moods as one written in English.
///
/// The names come from using Daylio in those languages, not from a list Daylio publishes: a
/// name missing here is proposed as okay and shown in the Import window like a custom mood, for
/// the person to change.
enum DaylioMoods {
    /// English names by step: what a backup's unrenamed moods are called.
    static let english = ["rad", "good", "meh", "bad", "awful"]

    /// Each language's names, step by step (rad, good, meh, bad, awful); a second line for a
    /// language gives the names other versions of Daylio used.
    static let languages: [(language: String, names: [String])] = [
        ("en", english),
        ("de", ["super", "gut", "mittel", "schlecht", "schrecklich"]),
        ("de", ["super", "gut", "okay", "mies", "furchtbar"]),
        ("fr", ["génial", "bien", "bof", "mauvais", "horrible"]),
        ("fr", ["super", "bien", "moyen", "mal", "affreux"]),
        ("es", ["genial", "bien", "regular", "mal", "horrible"]),
        ("es", ["fantástico", "bien", "normal", "mal", "fatal"]),
        ("pt", ["radiante", "bem", "mais ou menos", "mal", "horrível"]),
        ("pt", ["fantástico", "bom", "meh", "mau", "péssimo"]),
        ("it", ["raggiante", "bene", "così così", "male", "malissimo"]),
        ("it", ["fantastico", "bene", "normale", "male", "terribile"]),
        ("pl", ["super", "dobrze", "tak sobie", "źle", "okropnie"]),
        ("pl", ["świetnie", "dobrze", "przeciętnie", "słabo", "fatalnie"]),
        ("ru", ["супер", "хорошо", "так себе", "плохо", "ужасно"]),
        ("ru", ["отлично", "хорошо", "нормально", "плохо", "ужасно"]),
        ("uk", ["чудово", "добре", "так собі", "погано", "жахливо"]),
        ("nl", ["super", "goed", "gaat wel", "slecht", "vreselijk"]),
        ("nl", ["geweldig", "goed", "matig", "slecht", "verschrikkelijk"]),
        ("cs", ["skvěle", "dobře", "ujde to", "špatně", "hrozně"]),
        ("cs", ["výborně", "dobře", "nic moc", "špatně", "příšerně"]),
        ("sk", ["super", "dobre", "nič moc", "zle", "hrozne"]),
        ("tr", ["harika", "iyi", "idare eder", "kötü", "berbat"]),
        ("ja", ["最高", "良い", "普通", "悪い", "最悪"]),
        ("ja", ["最高", "いい", "まあまあ", "悪い", "最悪"]),
        ("zh", ["超棒", "不错", "一般", "不好", "糟糕"]),
        ("zh", ["很棒", "好", "还行", "差", "很差"]),
        ("ko", ["최고", "좋음", "보통", "나쁨", "최악"]),
        ("sv", ["strålande", "bra", "sådär", "dåligt", "hemskt"]),
        ("da", ["fantastisk", "godt", "okay", "dårligt", "forfærdeligt"]),
        ("nb", ["strålende", "bra", "middels", "dårlig", "forferdelig"]),
        ("fi", ["mahtava", "hyvä", "ihan ok", "huono", "kamala"]),
        ("hu", ["szuper", "jó", "elmegy", "rossz", "szörnyű"]),
        ("ro", ["super", "bine", "așa și așa", "rău", "groaznic"]),
        ("id", ["luar biasa", "baik", "biasa", "buruk", "mengerikan"]),
        ("vi", ["tuyệt vời", "tốt", "bình thường", "tệ", "kinh khủng"]),
        ("th", ["ยอดเยี่ยม", "ดี", "เฉยๆ", "แย่", "แย่มาก"]),
    ]

    /// The languages Daylio ships, as locale language codes.
    static let languageCodes: Set<String> = Set(languages.map(\.language))

    /// Every name of each step, in any language.
    static let names: [[String]] = (0..<5).map { step in
        var seen = Set<String>()
        return languages.map { $0.names[step] }.filter { seen.insert($0).inserted }
    }

    /// Each name's step (1 to 5), by the name in lower case; a name two steps share (none
    /// today) keeps the first.
    private static let steps: [String: Int] = {
        var steps: [String: Int] = [:]
        for (index, list) in names.enumerated() {
            for name in list where steps[name] == nil { steps[name] = index + 1 }
        }
        return steps
    }()

    /// The names of a step in `language` ("de", "pt"), English's among them; in every language
    /// when the language is not known.
    static func names(ofStep step: Int, in language: String?) -> [String] {
        guard let language, languages.contains(where: { $0.language == language }) else { return names[step - 1] }
        var seen = Set<String>()
        return languages.filter { $0.language == language || $0.language == "en" }.map { $0.names[step - 1] }.filter { seen.insert($0).inserted }
    }

    /// The step a default name stands for, in any language; nil for a name of the person's own.
    static func step(ofDefaultName name: String) -> Int? {
        steps[name.lowercased()]
    }

    /// Flourish's nearest to a Daylio step: rad the best, good really good, meh okay, bad not so
    /// great, awful the worst.
    static func mood(forStep step: Int) -> Mood {
        switch step {
        case 1: .theBest
        case 2: .reallyGood
        case 4: .notSoGreat
        case 5: .theWorst
        default: .okay
        }
    }

    /// The Flourish mood proposed for a name: its step's when it is a default name, okay otherwise.
    static func proposal(for name: String) -> Mood {
        step(ofDefaultName: name).map(mood(forStep:)) ?? .okay
    }

    /// The name an entry's identity is made from, the same whichever language the file is in: a
    /// default name as its English one ("gut" is "good"), any other name as it is (lower case).
    static func canonical(_ name: String) -> String {
        let lowered = name.lowercased()
        return step(ofDefaultName: lowered).map { english[$0 - 1] } ?? lowered
    }
}
