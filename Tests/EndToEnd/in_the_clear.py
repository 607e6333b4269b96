"""What the end-to-end tests of a locked journal read on disk: every file under some folders,
byte for byte, and what any compressed one holds once unpacked, searched for words that must not
be there in the clear."""

import bz2
import gzip
import io
import lzma
import os
import zipfile


def uncompressed(data):
    """What a gzip, bzip2, xz or zip file holds (each member of a zip), for reading in the clear."""
    found = []
    try:
        if data[:2] == b"\x1f\x8b":
            found.append(gzip.decompress(data))
        elif data[:3] == b"BZh":
            found.append(bz2.decompress(data))
        elif data[:6] == b"\xfd7zXZ\x00":
            found.append(lzma.decompress(data))
        elif data[:4] == b"PK\x03\x04":
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                found += [archive.read(member) for member in archive.namelist()]
    except Exception:
        return found
    return found + [inner for nested in found for inner in uncompressed(nested)]


def files_under(*tops):
    """Every file under `tops`: its bytes, then what it holds once uncompressed. A file the app
    removes while the walk goes is left out."""
    found = {}
    for top in tops:
        for folder, _, names in os.walk(top):
            for name in names:
                path = os.path.join(folder, name)
                try:
                    with open(path, "rb") as file:
                        data = file.read()
                except FileNotFoundError:
                    continue
                found[path] = [data, *uncompressed(data)]
    return found


def in_the_clear(files, words):
    """Each (path, word) where one of `words` (or "SQLite format 3") is in a file, in any case."""
    return [(path, word) for path, contents in sorted(files.items()) for word in [*words, "SQLite format 3"]
            if any(word.lower().encode() in data.lower() for data in contents)]
