import CMalloc

/// How much of what the process frees it keeps. glibc's malloc keeps freed memory for the next
/// allocation, in one arena per thread that ever allocated (up to eight per core): a window's
/// background threads (reading rows, searching) each grew an arena of their own, and it stayed
/// grown, so memory rose with every row read for the first thousands of rows of a scroll.
public enum ProcessMemory {
    /// Every thread allocates from one arena: what a background read frees is reused by the
    /// next, wherever it runs. The threads that read rows do little besides, so they seldom wait
    /// on each other for it. Call first thing, before any thread starts: a thread keeps the arena
    /// it started with.
    public static func shareOneArena() {
        _ = mallopt(M_ARENA_MAX, 1)
    }

    /// Gives the freed pages back to the system (they are paged in again, zeroed, when needed).
    /// A few milliseconds for a heap of tens of MiB: for a moment when nothing is being drawn.
    public static func giveBackFreed() {
        _ = malloc_trim(0)
    }
}
