import CGtk

/// GtkPicture: shows a `Texture`, scaled to the space it is given, its aspect kept.
///
/// A picture is an image for a screen reader: give it `alternativeText` saying what it shows,
/// or hide it from the reader when it only decorates (`setAccessibleHidden`).
public final class Picture: Widget {
    public init(_ texture: Texture? = nil) {
        super.init(gtk_picture_new())
        // didSet does not run for a property set in its own class's initialiser.
        self.texture = texture
        gtk_picture_set_paintable(picture, texture.map { $0.raw })
    }

    private var picture: OpaquePointer { OpaquePointer(raw) }

    /// What it shows; nil shows nothing. GTK keeps its own reference on the texture.
    public var texture: Texture? {
        didSet { gtk_picture_set_paintable(picture, texture.map { $0.raw }) }
    }

    /// How the picture fills the space it is given (GTK 4.8's `content-fit`).
    public enum ContentFit: UInt32 {
        /// All of it, stretched to the space.
        case fill = 0
        /// All of it, as large as fits, aspect kept (the space left over stays empty).
        case contain
        /// The whole space, aspect kept (what does not fit is cut off): a square thumbnail.
        case cover
        /// As `contain`, but never larger than the picture's own size.
        case scaleDown

        var gtk: GtkContentFit { GtkContentFit(rawValue) }
    }

    public var contentFit: ContentFit {
        get { ContentFit(rawValue: gtk_picture_get_content_fit(picture).rawValue) ?? .contain }
        set { gtk_picture_set_content_fit(picture, newValue.gtk) }
    }

    /// Whether it may be given less space than the picture's own size (GTK's default: yes).
    /// Off, the picture asks for its full size, which a big photo in a small window must not.
    public var canShrink: Bool {
        get { gtk_picture_get_can_shrink(picture) != 0 }
        set { gtk_picture_set_can_shrink(picture, newValue ? 1 : 0) }
    }

    /// What the picture shows, in words, for a screen reader (and for when it cannot be shown).
    public var alternativeText: String? {
        get { gtk_picture_get_alternative_text(picture).map { String(cString: $0) } }
        set { gtk_picture_set_alternative_text(picture, newValue) }
    }
}

extension Button {
    /// A button showing `picture` (a photo's thumbnail, to open it), named for a screen reader by
    /// `accessibleName`. The picture inside is hidden from the reader: the button's name says
    /// what it is, and a reader would otherwise announce an image inside the button as well.
    public convenience init(picture: Picture, accessibleName: String) {
        self.init(accessibleName: accessibleName)
        picture.setAccessibleHidden(true)
        gtk_button_set_child(typed(raw), picture.raw)
    }
}
