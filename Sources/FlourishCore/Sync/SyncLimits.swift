/// Bounds on what sync believes of a place. A place is not trusted: whatever it holds, sync reads
/// no more than these, and numbers past them are refused before they are used.
public enum SyncLimits {
    /// The largest file sync reads from a place, sealed and padded: well above the largest real
    /// snapshot (a ten-year journal's is under 4 MB). Anything larger is reported and never read.
    public static let largestFile = 256 << 20 + 4096
    /// File numbers are eight digits; a number past this is no machine's.
    public static let highestNumber = 99_999_999
}
