"""Write initramfs archives in the kernel's "newc" cpio format.

The guest's root file system is assembled from directories (the unpacked
Debian armhf packages, the project's overlay, the guest tools) and a file
list in the format of the kernel's usr/gen_init_cpio (only the "dir", "nod",
"file" and "slink" lines are needed here).  Every entry is owned by root,
whoever builds it, and device nodes need no privileges.
"""

import gzip
import os
import stat


class Archive:
    """An in-order list of cpio entries; a later entry for a path wins."""

    def __init__(self):
        self.entries = {}

    def add(self, path, mode, data=b"", rdev=(0, 0)):
        path = path.strip("/")
        if not path:
            return
        # Make sure every parent directory exists in the archive.
        parent = os.path.dirname(path)
        if parent and parent not in self.entries:
            self.add(parent, stat.S_IFDIR | 0o755)
        if stat.S_ISDIR(mode) and path in self.entries:
            return
        self.entries.pop(path, None)
        self.entries[path] = (mode, data, rdev)

    def add_tree(self, root):
        """Add everything below directory ROOT, keeping modes and links."""
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            rel = os.path.relpath(dirpath, root)
            if rel != ".":
                self.add(rel, stat.S_IFDIR | (os.lstat(dirpath).st_mode & 0o7777))
            for name in sorted(filenames) + [d for d in dirnames
                                             if os.path.islink(os.path.join(dirpath, d))]:
                full = os.path.join(dirpath, name)
                relname = os.path.normpath(os.path.join(rel, name))
                st = os.lstat(full)
                if stat.S_ISLNK(st.st_mode):
                    self.add(relname, stat.S_IFLNK | 0o777, os.readlink(full).encode())
                elif stat.S_ISREG(st.st_mode):
                    with open(full, "rb") as f:
                        self.add(relname, stat.S_IFREG | (st.st_mode & 0o7777), f.read())

    def add_list(self, listfile, srcdir):
        """Add the entries of a gen_init_cpio style list; paths of "file"
        lines are relative to SRCDIR."""
        with open(listfile) as f:
            for lineno, line in enumerate(f, 1):
                words = line.split()
                if not words or words[0].startswith("#"):
                    continue
                kind = words[0]
                try:
                    if kind == "dir":
                        self.add(words[1], stat.S_IFDIR | int(words[2], 8))
                    elif kind == "nod":
                        ftype = stat.S_IFCHR if words[5] == "c" else stat.S_IFBLK
                        self.add(words[1], ftype | int(words[2], 8),
                                 rdev=(int(words[6]), int(words[7])))
                    elif kind == "file":
                        with open(os.path.join(srcdir, words[2]), "rb") as src:
                            self.add(words[1], stat.S_IFREG | int(words[3], 8), src.read())
                    elif kind == "slink":
                        self.add(words[1], stat.S_IFLNK | int(words[3], 8), words[2].encode())
                    else:
                        raise ValueError(f"unknown entry type {kind!r}")
                except (IndexError, ValueError) as e:
                    raise ValueError(f"{listfile}:{lineno}: {e}") from e

    def write(self, out, compress=True):
        """Write the archive to the file OUT, gzip-compressed by default."""
        blob = bytearray()
        for ino, (path, (mode, data, rdev)) in enumerate(self.entries.items(), 1):
            _entry(blob, ino, path, mode, data, rdev)
        _entry(blob, 0, "TRAILER!!!", 0, b"", (0, 0))
        blob += b"\0" * (-len(blob) % 512)
        tmp = out + ".tmp"
        if compress:
            with gzip.GzipFile(tmp, "wb", compresslevel=6, mtime=0) as f:
                f.write(blob)
        else:
            with open(tmp, "wb") as f:
                f.write(blob)
        os.replace(tmp, out)


def _entry(blob, ino, path, mode, data, rdev):
    name = path.encode() + b"\0"
    nlink = 2 if stat.S_ISDIR(mode) else 1
    fields = (ino, mode, 0, 0, nlink, 0, len(data), 0, 0, rdev[0], rdev[1],
              len(name), 0)
    blob += b"070701" + b"".join(b"%08X" % v for v in fields)
    blob += name
    blob += b"\0" * (-len(blob) % 4)
    blob += data
    blob += b"\0" * (-len(blob) % 4)
