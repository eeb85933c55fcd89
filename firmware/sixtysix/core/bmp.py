"""Read an indexed BMP (the sprite sheets tools/sprites.py writes) into RAM.

displayio draws a RAM Bitmap at about half the cost per pixel of an OnDiskBitmap, which
reads the file for every pixel it sends (issue 12: ~6.5 us against ~12 us a pixel); the
sheets are small enough to keep (tools/sprites.py says how they are kept small).
"""
import struct
import bitmaptools
import displayio


def rows(path):
    """(pixels, width, height, row stride) of an uncompressed 8-bit BMP, its rows as the
    file keeps them (bottom-up, padded to 4 bytes): a map read a byte at a time, which
    from a bytearray is a plain index where a Bitmap's pixel is a call each."""
    with open(path, "rb") as f:
        head = f.read(54)
        if len(head) < 54 or head[:2] != b"BM" or struct.unpack_from("<H", head, 28)[0] != 8:
            raise ValueError(path + " is not an 8-bit BMP")
        offset = struct.unpack_from("<I", head, 10)[0]
        width, height = struct.unpack_from("<ii", head, 18)
        stride = (width + 3) // 4 * 4
        data = bytearray(stride * height)
        f.seek(offset)
        f.readinto(data)
    return data, width, height, stride


def load(path, with_palette=True):
    """(Bitmap, Palette or None) of an uncompressed 1-, 2-, 4- or 8-bit BMP."""
    with open(path, "rb") as f:
        head = f.read(54)
        if len(head) < 54 or head[:2] != b"BM":
            raise ValueError(path + " is not a BMP")
        offset = struct.unpack_from("<I", head, 10)[0]
        width, height = struct.unpack_from("<ii", head, 18)
        bits = struct.unpack_from("<H", head, 28)[0]
        if bits not in (1, 2, 4, 8) or struct.unpack_from("<I", head, 30)[0] != 0:
            raise ValueError(path + ": only uncompressed indexed BMPs")
        palette = None
        if with_palette:
            n = struct.unpack_from("<I", head, 46)[0] or 1 << bits
            raw = f.read(4 * n)
            palette = displayio.Palette(n)
            for i in range(n):
                palette[i] = raw[4 * i + 2] << 16 | raw[4 * i + 1] << 8 | raw[4 * i]
        bitmap = displayio.Bitmap(width, abs(height), 1 << bits)
        f.seek(offset)
        # rows are padded to 4 bytes; the first pixel is in the high bits; bottom-up
        # unless the height is negative
        bitmaptools.readinto(bitmap, f, bits, element_size=4, reverse_pixels_in_element=True,
                             reverse_rows=height > 0)
    return bitmap, palette
