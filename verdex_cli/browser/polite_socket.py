"""The TCP socket under a ``ws://`` DevTools connection: a refused handshake is read to its end, and
an open one is hung up so that the server sees it closed (:func:`hang_up`).

Closing a socket with unread bytes makes the kernel reset the connection (RST). Browserless 2.42
answers a wrong token with ``401`` and a body, and its whole process dies of that reset (an unhandled
``ECONNRESET``): websocket-client reads only the status and headers before closing, so one mistyped
token took the user's service down. This socket, closed before its handshake succeeded, half-closes
and reads what the server still sends (at most a second) before closing. ``wss://`` URLs and URLs
reached through a proxy keep websocket-client's own socket.
"""

from __future__ import annotations

import socket
import struct
import time
import urllib.parse
import urllib.request

DRAIN_SECONDS = 2.0


def _read_to_close(sock: socket.socket, patient: bool) -> bool:
    """Read what the other end still sends until it closes (True), for at most DRAIN_SECONDS; unless
    ``patient``, a 0.25 s pause ends it too (False)."""
    end = time.monotonic() + DRAIN_SECONDS
    while (left := end - time.monotonic()) > 0:
        sock.settimeout(min(left, 0.25))
        try:
            if not sock.recv(65536):
                return True
        except TimeoutError:
            if not patient:
                return False
    return False


def drain(sock: socket.socket) -> None:
    """Half-close ``sock`` and read what the other end still sends, so that closing it sends no reset."""
    try:
        sock.shutdown(socket.SHUT_WR)
        _read_to_close(sock, patient=False)
    except OSError:
        pass


def hang_up(sock: socket.socket) -> None:
    """After our WebSocket close frame: read until the server closes, so that closing sends no reset;
    a server that has not closed within DRAIN_SECONDS is reset. No half-close first: a Node.js peer
    (Browserless 2.42's proxy) that has read our FIN stops watching the socket, so a reset after it
    went unseen and the browser lived on while the server was slow to close."""
    try:
        if not _read_to_close(sock, patient=True):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass


class PoliteSocket(socket.socket):
    opened = False  # set once the WebSocket handshake succeeded: then the transport closes it (drained)

    def close(self) -> None:
        if not self.opened and self.fileno() != -1:
            drain(self)
        super().close()


def open_plain(url: str, timeout: float) -> PoliteSocket | None:
    """A connected socket for a ``ws://`` URL (None for anything else: websocket-client opens it)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme.lower() != "ws" or not parts.hostname:
        return None
    if "http" in urllib.request.getproxies() and not urllib.request.proxy_bypass(parts.hostname):
        return None
    raw = socket.create_connection((parts.hostname, parts.port or 80), timeout=timeout)
    sock = PoliteSocket(raw.family, raw.type, raw.proto, fileno=raw.detach())
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as websocket-client's own socket
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    sock.settimeout(timeout)
    return sock
