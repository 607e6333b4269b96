import FlourishCore
import GtkKit

/// Gives imports the app's picture reader, so that a photo is kept only when its pixels decode
/// (or this computer has no reader for its kind, to be shown where there is one)
/// (the core reads headers, never pixels). Set once, first thing, by the command line and the
/// window alike: `--import` and the Import window keep the same photos.
public enum ImportPictureCheck {
    public static func install() {
        ImportPicture.decoder = PictureDecoder(check: { !PhotoDecoding.isUnreadable($0) })
    }
}
