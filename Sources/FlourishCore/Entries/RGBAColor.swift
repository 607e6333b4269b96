import Foundation

/// A colour with components from 0 to 1, read from the hex strings the seeds use.
public struct RGBAColor: Equatable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Why a string is not a colour. The seeds printed a warning and drew black; Flourish refuses.
    public enum ParseError: Error, Equatable, LocalizedError {
        case missingHash(String)
        case badLength(String)
        case badDigits(String)

        public var errorDescription: String? {
            switch self {
            case .missingHash(let text): "“\(text)” is not a colour: it must start with “#”."
            case .badLength(let text): "“\(text)” is not a colour: use #RRGGBB or #RRGGBBAA."
            case .badDigits(let text): "“\(text)” is not a colour: only 0–9 and a–f may follow “#”."
            }
        }
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (either case).
    public init(hex text: String) throws {
        guard text.hasPrefix("#") else { throw ParseError.missingHash(text) }
        let digits = text.dropFirst()
        guard digits.count == 6 || digits.count == 8 else { throw ParseError.badLength(text) }
        guard digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else {
            throw ParseError.badDigits(text)
        }
        let rgba = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(red: Double(rgba >> 24 & 0xFF) / 255,
                  green: Double(rgba >> 16 & 0xFF) / 255,
                  blue: Double(rgba >> 8 & 0xFF) / 255,
                  alpha: Double(rgba & 0xFF) / 255)
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque: the form CSS takes.
    public var hex: String {
        func byte(_ component: Double) -> String {
            String(format: "%02x", Int((min(max(component, 0), 1) * 255).rounded()))
        }
        return "#" + byte(red) + byte(green) + byte(blue) + (alpha < 1 ? byte(alpha) : "")
    }

    public var description: String { hex }

    /// The seeds' `lighten`: multiplies the HSB brightness by `factor` (1.5 by default), keeping hue,
    /// saturation and alpha. Brightness stops at 1.
    public func lightened(by factor: Double = 1.5) -> RGBAColor {
        let (hue, saturation, brightness) = hsb
        return RGBAColor(hue: hue, saturation: saturation, brightness: min(brightness * factor, 1), alpha: alpha)
    }

    // MARK: - HSB

    var hsb: (hue: Double, saturation: Double, brightness: Double) {
        let maximum = max(red, green, blue), minimum = min(red, green, blue), delta = maximum - minimum
        let saturation = maximum == 0 ? 0 : delta / maximum
        guard delta > 0 else { return (0, saturation, maximum) }
        var hue: Double
        switch maximum {
        case red: hue = (green - blue) / delta
        case green: hue = 2 + (blue - red) / delta
        default: hue = 4 + (red - green) / delta
        }
        hue /= 6
        if hue < 0 { hue += 1 }
        return (hue, saturation, maximum)
    }

    init(hue: Double, saturation: Double, brightness: Double, alpha: Double) {
        let sector = (hue * 6).truncatingRemainder(dividingBy: 6)
        let chroma = brightness * saturation
        let x = chroma * (1 - abs(sector.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) = switch Int(sector) {
        case 0: (chroma, x, 0)
        case 1: (x, chroma, 0)
        case 2: (0, chroma, x)
        case 3: (0, x, chroma)
        case 4: (x, 0, chroma)
        default: (chroma, 0, x)
        }
        let m = brightness - chroma
        self.init(red: r + m, green: g + m, blue: b + m, alpha: alpha)
    }
}
