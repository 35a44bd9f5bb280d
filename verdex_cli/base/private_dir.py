"""Short private directories for Unix sockets (light: the session client uses it). A socket path is at
most 107 bytes and a long ``$TMPDIR`` (pytest's ``tmp_path``, a CI workspace) would fail every socket
under it, so sockets (the session's, Chrome's singleton socket) live in ``verdex-UID`` (mode 0700, the
user's own) under the first of ``preferred``, ``$TMPDIR`` and ``/tmp`` where ``room`` more bytes fit."""

from __future__ import annotations

import os
import stat
from contextlib import suppress

MAX_SOCKET_PATH = 107  # sun_path is 108 bytes with the terminating NUL


class Unsafe(Exception):
    """A directory that is not ours alone to write to (the message says why)."""


def candidates(preferred: tuple[str, ...] = ()) -> list[str]:
    uid = os.getuid()
    tmp = os.environ.get("TMPDIR") or "/tmp"
    found = [p for p in preferred if p]
    if os.path.isabs(tmp):
        found.append(os.path.join(tmp, f"verdex-{uid}"))
    found.append(f"/tmp/verdex-{uid}")
    return found


def short_base(room: int, preferred: tuple[str, ...] = ()) -> str | None:
    """The first candidate directory under which ``room`` more bytes of path still make a socket
    path (None when none does)."""
    return next((path for path in candidates(preferred) if len(path.encode()) + room <= MAX_SOCKET_PATH), None)


def ensure_private(path: str) -> str:
    """``path`` created with mode 0700 if missing, and checked (Unsafe otherwise); OSError passes."""
    with suppress(FileExistsError):
        os.mkdir(path, 0o700)
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise Unsafe(f"{path}: it is not a directory.")
    if st.st_uid != os.getuid():
        raise Unsafe(f"{path}: it is owned by another user.")
    if st.st_mode & 0o022:
        raise Unsafe(f"{path}: group or others may write to it (mode {stat.S_IMODE(st.st_mode):04o}; it must be 0700).")
    return path
