"""A session server's clients: who is on the other end of a connection (its peer credentials), its
channel, and the commands it asked for (jobs, queued or running)."""

from __future__ import annotations

import os
import socket
import struct
import threading
import time

from . import wire
from ..commands.registry import redact_line


def same_user_peer(sock: socket.socket) -> int | None:
    """The pid of the process on the other end of ``sock`` when it runs as this user, else None.
    The socket is 0600 already; this is a second lock on the door."""
    try:
        pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                              struct.calcsize("3i")))
    except OSError:
        return None
    return pid if uid == os.getuid() else None


class Client:
    def __init__(self, sock: socket.socket, pid: int):
        self.channel = wire.Channel(sock)
        self.pid = pid
        self.kind = "run"
        self.settings: dict = {}
        self.lock = threading.Lock()
        self.gone = False
        self.owner = False  # the session ends when this client goes
        self.introduced = False  # it said hello (a `session list` looking in does not)
        self.rejected = False  # a line of its invocation did not parse: nothing of it runs
        self.pending: dict = {}  # id -> Job, queued or running
        self.tab = None  # (context, tab): its own current tab, once it ran a command (sessions/tabs.py)
        self.tab_before = None  # its tab when its running command began

    @property
    def who(self) -> str:
        return "mcp" if self.kind == "mcp" else f"{self.kind} {self.pid}"

    def send(self, obj: dict) -> None:
        if self.gone:
            return
        with self.lock:
            try:
                self.channel.send(obj)
            except OSError:
                self.gone = True


class Job:
    def __init__(self, client: Client, job_id, line: str, env: dict | None = None):
        self.client, self.id, self.line = client, job_id, line
        self.env = env or {}  # the client's values of the variables its `--env VAR` names
        self.arrived = time.monotonic()
        self.queued_ms = 0.0  # how long it waited behind other clients' commands
        self.cancel = False
        self.signalled = False

    def describe(self) -> str:
        """`run 4121's click c0p0f0e7`, for whoever waits behind it (a fill/type text is masked)."""
        line = " ".join(self.line.split())
        if line.split(" ", 1)[0] in ("fill", "type"):
            line = redact_line(line)
        return f"{self.client.who}'s '{line[:80]}'"
