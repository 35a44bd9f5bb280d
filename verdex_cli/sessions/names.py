"""Session names, the private socket directory and its checks, and who holds a name (light).

The directory is ``$XDG_RUNTIME_DIR/verdex`` (else ``$TMPDIR/verdex-UID``, else ``/tmp/verdex-UID``),
mode 0700, owned by the user; it holds, per session, ``NAME.sock`` (mode 0600), ``NAME.lock`` (held
with ``flock`` by the server for its whole life: a name is running exactly when its lock is held) and
``NAME.log`` (the server's stderr). Anything else -- a directory or socket owned by another user, a
directory others may write to, a symlink -- is refused with one line.
"""

from __future__ import annotations

import os
import stat

from ..base.errors import ErrorKind, UsageError, VerdexError
from ..base.private_dir import MAX_SOCKET_PATH, Unsafe, candidates, ensure_private, short_base

NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def valid_name(name: str | None) -> bool:
    """1 to 40 letters, digits, '_' or '-' (checked without `re`: the light client starts without it)."""
    return bool(name) and len(name) <= 40 and set(name) <= NAME_CHARS
DEFAULT = "default"
ENV = "VERDEX_SESSION"


class NoSession(VerdexError):
    kind = ErrorKind.NO_SESSION

    def __init__(self, name: str, message: str | None = None, why: str | None = None):
        ended = f"; it {why}" if why else ""
        super().__init__(message or f"No session '{name}'{ended}. Start one with 'verdex session start {name}'.")
        self.name = name


def file_path(name: str, directory: str, suffix: str) -> str:
    """``NAME.lock``, ``NAME.log`` or ``NAME.ended`` (why the last server of the name ended on its own: the
    idle timeout; kept until the name starts again) in the session directory."""
    return os.path.join(directory, name + suffix)


def why_ended(name: str, directory: str) -> str | None:
    try:
        with open(file_path(name, directory, ".ended"), encoding="utf-8") as fh:
            return fh.read(300).strip() or None
    except (OSError, ValueError):
        return None


def check_name(name: str) -> str:
    if not valid_name(name):
        raise UsageError(f"Bad session name '{name}': use 1 to 40 letters, digits, '_' or '-'.")
    return name


def default_name(given: str | None) -> str:
    """NAME as given, else $VERDEX_SESSION, else ``default``; a bad name from the variable says so."""
    if given or not os.environ.get(ENV):
        return check_name(given or DEFAULT)
    try:
        return check_name(os.environ[ENV])
    except UsageError as exc:
        raise blame_env(exc) from None


def blame_env(exc: VerdexError, given: str | None = None) -> VerdexError:
    """``exc``, with its message saying that $VERDEX_SESSION chose the session when no NAME (or
    --session) was ``given``."""
    if not given and os.environ.get(ENV):
        exc.message = (f"{exc.message.rstrip('.')} (the session is named by {ENV}={os.environ[ENV]}; "
                       f"give --session NAME, or unset {ENV} to run one-shot with a URL).")
        exc.args = (exc.message,)
    return exc


def base_dir() -> str:
    """``$XDG_RUNTIME_DIR/verdex``, else ``$TMPDIR/verdex-UID``, else ``/tmp/verdex-UID``: the first
    under which the socket of the longest name fits (the client and the server pick the same)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    preferred = (os.path.join(runtime, "verdex"),) if runtime and os.path.isabs(runtime) and os.path.isdir(runtime) \
        else ()
    return short_base(len("/" + "x" * 40 + ".sock"), preferred) or candidates(preferred)[0]


def session_dir(create: bool = False) -> str:
    """The checked directory; created (0700) when ``create``; UsageError when it is unsafe."""
    path = base_dir()
    if not create and not os.path.lexists(path):
        return path
    try:  # refuse a directory that is not ours alone to write to
        return ensure_private(path)
    except Unsafe as exc:
        raise UsageError(f"Refusing session directory {exc}") from None
    except OSError as exc:
        raise UsageError(f"Cannot create session directory {path}: {exc.strerror}.") from exc


def socket_path(name: str, directory: str) -> str:
    path = file_path(name, directory, ".sock")
    if len(path.encode()) > MAX_SOCKET_PATH:
        raise UsageError(f"Session socket path too long for a Unix socket: {path}.")
    return path


def check_socket(path: str) -> None:
    """Refuse a socket that is not a socket of ours (FileNotFoundError passes through)."""
    st = os.lstat(path)
    if not stat.S_ISSOCK(st.st_mode):
        raise UsageError(f"Refusing {path}: it is not a socket.")
    if st.st_uid != os.getuid():
        raise UsageError(f"Refusing {path}: it is owned by another user.")


def take_lock(path: str) -> int | None:
    """Lock ``path`` (created 0600) without waiting: the open fd, or None when another holds it.

    The file may be removed by whoever cleans a stale session; a lock on a removed file is no lock, so
    after locking we check that the path still names the file we locked (else try again)."""
    import fcntl  # not needed by the light client

    for _ in range(5):
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)
    return None


def running_pid(name: str, directory: str) -> int | None:
    """The pid of the live server of ``name``, or None; a stale session's files are removed here."""
    lock = file_path(name, directory, ".lock")
    if not os.path.exists(lock):
        remove(socket_path(name, directory))
        return None
    fd = take_lock(lock)
    if fd is None:  # held: a server lives
        try:
            with open(lock, encoding="ascii") as fh:
                return int(fh.read().strip() or 0) or -1
        except (OSError, ValueError):
            return -1
    try:  # nobody holds it: the server died (kill -9) -- clean its leftovers while we hold the lock
        remove(socket_path(name, directory), file_path(name, directory, ".log"), lock)
    finally:
        os.close(fd)
    return None


def known_names(directory: str) -> list[str]:
    try:
        entries = os.listdir(directory)
    except OSError:
        return []
    names = {e.rsplit(".", 1)[0] for e in entries if e.endswith((".lock", ".sock"))}
    return sorted(n for n in names if valid_name(n))


def remove(*paths: str) -> None:
    for path in paths:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
