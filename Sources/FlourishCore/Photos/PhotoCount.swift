import Foundation

/// "1 photo", "12 photos": how many photos an import or an export brings, said one way everywhere.
public enum PhotoCount {
    public static func words(_ count: Int) -> String {
        count == 1 ? tr("1 photo") : String(format: tr("%@ photos"), "\(count)")
    }
}
