"""The session protocol: one JSON object per line over a Unix stream socket (light).

Client -> server: ``hello`` (who, what output it wants, ``check``: the lines to parse before any
runs), ``run`` (one command line, with the client's own ``id``), ``cancel`` (that id), ``info``, ``stop``.
Server -> client: ``welcome`` (with the first bad line's output, if any), ``result`` (for that id: the output prepared for this
client, ``out``/``err``, or the outcome itself for an attached REPL), ``feed`` (attach: another
client's command with its outcome), ``queued`` (a run waits behind another client's command: which),
``started`` (it runs now), ``status``, ``info``, ``notice`` (e.g. the browser died).
"""

from __future__ import annotations

import _socket  # the C module: `socket` would pull in selectors and more (the light client starts fast)
import os

try:  # the C codec that `json` wraps: `json` itself imports `re` and `enum`, a quarter of a light call
    from _json import encode_basestring_ascii, make_encoder, make_scanner
except ImportError:  # another Python than CPython
    from json import JSONDecoder, JSONEncoder

    _encode = JSONEncoder(ensure_ascii=True, separators=(",", ":"), default=str).iterencode
    _scan = JSONDecoder().scan_once
else:
    class _Decoding:  # what the C scanner reads from `json.JSONDecoder`
        strict, object_hook, object_pairs_hook = True, None, None
        parse_float, parse_int, parse_constant = float, int, float

    _encode = make_encoder(None, str, encode_basestring_ascii, None, ":", ",", False, False, True)
    _scan = make_scanner(_Decoding())

from ..base.env_text import env_of_line
from .names import NoSession, check_socket, session_dir, socket_path, why_ended

MAX_LINE = 64 * 1024 * 1024


def encode(obj: dict) -> bytes:
    return ("".join(_encode(obj, 0)) + "\n").encode("ascii")


def decode(line: bytes) -> object:
    """One JSON value (ValueError when the line is not exactly one)."""
    text = line.decode("utf-8").strip()
    try:
        obj, end = _scan(text, 0)
    except StopIteration:
        raise ValueError("not JSON") from None
    if end != len(text):
        raise ValueError("extra data")
    return obj


class Channel:
    """One connected socket: ``send`` whole objects, ``recv`` the next one (None at end)."""

    def __init__(self, sock):
        self.sock = sock
        self._buf = b""

    def send(self, obj: dict) -> None:
        self.sock.sendall(encode(obj))

    def recv(self) -> dict | None:
        while True:
            cut = self._buf.find(b"\n")
            if cut >= 0:
                line, self._buf = self._buf[:cut], self._buf[cut + 1:]
                try:
                    obj = decode(line)
                except ValueError:
                    return None
                return obj if isinstance(obj, dict) else None
            if len(self._buf) > MAX_LINE:
                return None
            try:
                chunk = self.sock.recv(1 << 16)
            except (ConnectionResetError, BrokenPipeError):
                return None
            if not chunk:
                return None
            self._buf += chunk

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def run_message(job_id: int, line: str) -> dict:
    """A client's `run`: the line, and the values of the variables its `--env VAR` names (ours)."""
    msg = {"op": "run", "id": job_id, "line": line}
    env = env_of_line(line)
    if env:
        msg["env"] = env
    return msg


def cancel(channel: Channel, job_id: int) -> None:
    """Ask the server to cancel the client's job ``job_id`` (a server already gone has nothing to cancel)."""
    try:
        channel.send({"op": "cancel", "id": job_id})
    except OSError:
        pass


def connect(name: str) -> Channel:
    """Connect to session ``name``: NoSession at once when no server listens there (never a hang);
    UsageError for an unsafe directory or a socket that is not ours."""
    directory = session_dir()
    path = socket_path(name, directory)
    try:
        check_socket(path)
    except FileNotFoundError:
        raise NoSession(name, why=why_ended(name, directory)) from None
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect(path)
    except (ConnectionRefusedError, FileNotFoundError):
        sock.close()
        raise NoSession(name) from None
    except OSError as exc:
        sock.close()
        raise NoSession(name, f"Cannot reach session '{name}': {exc.strerror or exc}.") from None
    return Channel(sock)


def join(name: str, kind: str, wait: float | None = None, then: dict | None = None,
         **settings) -> tuple[Channel, dict]:
    """Connect to session ``name`` and introduce this client (``then``: a first message sent in the same
    write; ``wait``: at most so long for the answer, else TimeoutError): (channel, the server's welcome);
    NoSession when it closed on us."""
    channel = connect(name)
    try:
        channel.sock.settimeout(wait)
        data = encode({"op": "hello", "kind": kind, "pid": os.getpid(), "cwd": _cwd(), **settings})
        channel.sock.sendall(data + encode(then) if then else data)
        reply = channel.recv()
        if reply is None or reply.get("op") != "welcome":
            raise NoSession(name, (reply or {}).get("message"))
    except BaseException:
        channel.close()
        raise
    return channel, reply


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:
        return ""
