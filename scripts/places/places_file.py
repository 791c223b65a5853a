"""Reading and writing places.bin's container (docs/places-database.md, "Header"), shared by the builder and
the passes that add sections to an existing file."""

import os
import struct


def read_sections(path):
    """The file's sections as (tag, bytes), in directory order."""
    with open(path, "rb") as f:
        data = f.read()
    magic, version, count = struct.unpack_from("<8sII", data, 0)
    if magic != b"CLPLACES" or version != 2:
        raise ValueError(f"{path} is not a version-2 places database")
    sections = []
    for i in range(count):
        tag, _, offset, length = struct.unpack_from("<4sIQQ", data, 16 + 24 * i)
        sections.append((tag, data[offset:offset + length]))
    return sections


def write(path, sections):
    header = 16 + 24 * len(sections)
    offset = (header + 7) & ~7
    directory, body = [], bytearray()
    for tag, data in sections:
        directory.append(struct.pack("<4sIQQ", tag, 0, offset, len(data)))
        padded = data + b"\0" * ((-len(data)) % 8)
        body += padded
        offset += len(padded)
    with open(path + ".tmp", "wb") as f:
        f.write(b"CLPLACES" + struct.pack("<II", 2, len(sections)) + b"".join(directory))
        f.write(b"\0" * (((header + 7) & ~7) - header))
        f.write(body)
    os.replace(path + ".tmp", path)

