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

    /// Each step's names, English first, then by language.
    static let names: [[String]] = [
        // rad
        ["rad", "super", "génial", "genial", "radiante", "fantástico", "fantastico", "raggiante", "świetnie", "rewelacyjnie",
         "супер", "отлично", "прекрасно", "geweldig", "skvěle", "výborně", "harika", "最高", "超棒", "很棒", "최고",
         "чудово", "strålende", "fantastisk", "szuper", "fenomenal", "hebat", "tuyệt vời", "ยอดเยี่ยม", "rewelacja", "mahtava"],
        // good
        ["good", "gut", "bien", "bem", "bom", "bene", "dobrze", "хорошо", "goed", "dobře", "dobre", "iyi", "良い", "いい",
         "不错", "好", "좋음", "좋아요", "добре", "bra", "god", "godt", "jó", "bun", "baik", "tốt", "ดี", "hyvä"],
        // meh
        ["meh", "ok", "okay", "mittel", "so lala", "bof", "moyen", "regular", "normal", "más o menos", "mais ou menos",
         "così così", "tak sobie", "przeciętnie", "так себе", "нормально", "gaat wel", "matig", "nic moc", "ujde to", "ujde",
         "idare eder", "eh", "普通", "まあまあ", "一般", "还行", "보통", "그저 그래요", "так собі", "sådär", "okej", "megvagyok",
         "elmegy", "așa și așa", "biasa", "bình thường", "เฉยๆ", "ihan ok"],
        // bad
        ["bad", "schlecht", "mal", "mauvais", "male", "źle", "плохо", "slecht", "špatně", "zle", "kötü", "悪い", "不好", "差",
         "나쁨", "나빠요", "погано", "dåligt", "dårlig", "dårligt", "rossz", "rău", "buruk", "tệ", "แย่", "huono"],
        // awful
        ["awful", "schrecklich", "furchtbar", "miserabel", "horrible", "affreux", "terrible", "fatal", "horrível", "péssimo",
         "terribile", "malissimo", "okropnie", "fatalnie", "ужасно", "vreselijk", "verschrikkelijk", "hrozně", "hrozne",
         "berbat", "最悪", "糟糕", "很差", "최악", "жахливо", "hemskt", "forfærdeligt", "forferdelig", "szörnyű", "groaznic",
         "mengerikan", "kinh khủng", "แย่มาก", "kamala"],
    ]

    /// Each name's step (1 to 5), by the name in lower case.
    private static let steps: [String: Int] = {
        var steps: [String: Int] = [:]
        for (index, list) in names.enumerated() {
            for name in list where steps[name] == nil { steps[name] = index + 1 }
        }
        return steps
    }()

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
