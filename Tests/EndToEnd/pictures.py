"""Real pictures made for the tests, byte by byte: each decodes (an import keeps a photo only when
its pixels do) and each seed gives bytes of its own, so a photo can be found again by its bytes.

    png(seed, width, height)   a truecolor PNG, its rows drawn from the seed, the seed in its text
    jpeg(seed, width, height, size=0)   a grey baseline JPEG carrying the seed in a comment,
                                        padded with comments to about `size` bytes
"""
import hashlib
import struct
import zlib


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(seed, width=320, height=240):
    stream = hashlib.sha256(f"png {seed}".encode()).digest()
    row = (stream * (width * 3 // len(stream) + 1))[:width * 3]
    pixels = b"".join(b"\0" + row[y % 7:] + row[:y % 7] for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(pixels)) + _chunk(b"tEXt", f"Comment\0picture {seed}".encode())
            + _chunk(b"IEND", b""))


def _segment(marker, data):
    return bytes([0xFF, marker]) + struct.pack(">H", len(data) + 2) + data


def jpeg(seed, width=640, height=480, size=0):
    """Every 8 x 8 block mid-grey: one Huffman code of one bit for "no change" and one for "end of
    block", so each block is two 0 bits and the scan is zero bytes."""
    comment = f"picture {seed} ".encode()
    parts = [b"\xff\xd8", _segment(0xFE, comment)]
    while size and sum(map(len, parts)) + 65537 < size:
        parts.append(_segment(0xFE, (comment * (65533 // len(comment) + 1))[:65533]))
    if size > sum(map(len, parts)) + 4:
        parts.append(_segment(0xFE, (comment * size)[:size - sum(map(len, parts)) - 4]))
    parts += [
        _segment(0xDB, b"\x00" + bytes([1] * 64)),                                       # quantisation
        _segment(0xC0, struct.pack(">BHHB", 8, height, width, 1) + b"\x01\x11\x00"),    # one grey component
        _segment(0xC4, b"\x00" + bytes([1] + [0] * 15) + b"\x00"),                      # DC: 0 → "0"
        _segment(0xC4, b"\x10" + bytes([1] + [0] * 15) + b"\x00"),                      # AC: end of block → "0"
        _segment(0xDA, b"\x01\x01\x00\x00\x3f\x00"),
        bytes((((width + 7) // 8) * ((height + 7) // 8) * 2 + 7) // 8),
        b"\xff\xd9",
    ]
    return b"".join(parts)
