/// How many words a text holds, as a person counts them: runs between spaces and line breaks
/// that hold a letter or a digit (a lone dash or an emoji is no word; "well-known" is one).
public enum WordCount {
    public static func of(_ text: String) -> Int {
        var count = 0
        var counted = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                counted = false
                continue
            }
            if !counted, scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                count += 1
                counted = true
            }
        }
        return count
    }

    /// "1 word", "1,204 words", in the person's language.
    public static func phrase(_ count: Int) -> String {
        count == 1 ? tr("1 word") : String(format: tr("%@ words"), count.formatted())
    }
}
