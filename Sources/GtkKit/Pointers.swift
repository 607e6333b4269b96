import CGtk

// GTK types reach Swift in two spellings: derivable types with public structs as
// UnsafeMutablePointer<T>, final and opaque ones as OpaquePointer. These helpers convert between
// them, and they stay inside GtkKit so that no controller ever handles a raw pointer.

@inline(__always)
func typed<T>(_ pointer: UnsafeMutableRawPointer) -> UnsafeMutablePointer<T> {
    pointer.assumingMemoryBound(to: T.self)
}

@inline(__always)
func typed<T, U>(_ pointer: UnsafeMutablePointer<U>) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: T.self)
}

@inline(__always)
func typed<T>(_ pointer: OpaquePointer) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: T.self)
}

@inline(__always)
func opaque<U>(_ pointer: UnsafeMutablePointer<U>) -> OpaquePointer {
    OpaquePointer(pointer)
}

/// Reads a C string GTK owns into a Swift string; NULL reads as "".
func string(from pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}
