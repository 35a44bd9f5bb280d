"""The raw message carriers under a :class:`~verdex_cli.browser.connection.Connection`.

A transport moves whole DevTools JSON messages (text) and knows nothing of sessions:

- :class:`WsTransport`: a WebSocket (a ``--connect`` URL, or a browser launched with ``--debug-port``);
- :class:`PipeTransport`: the pipe pair of a browser launched with ``--remote-debugging-pipe`` (Chrome
  reads messages from its fd 3 and writes them to its fd 4, each one ended by a NUL byte). No port is
  opened, so no other local user can reach the browser.

``recv(timeout)`` returns a message, ``None`` when nothing came within ``timeout`` seconds, and raises
:class:`Closed` (or OSError) once the other side is gone.
"""

from __future__ import annotations

import os
import select
import threading

import websocket

from .polite_socket import hang_up, open_plain


class Closed(OSError):
    """The transport is closed (by the other end or by us); an OSError, as a dropped socket is."""


class _OneClose(websocket.WebSocket):
    """websocket-client answers every close frame it reads with one of its own, even after it sent
    ours: a second close frame, arriving after the server had closed, left Browserless 2.42's proxy
    holding the browser until its session time-out. Only the first close frame is sent."""

    def send_close(self, *args, **kwargs) -> None:
        if self.connected:  # send_close clears it
            super().send_close(*args, **kwargs)


class WsTransport:
    def __init__(self, url: str, timeout: float, headers: list[str] | tuple = ()):
        sock = open_plain(url, timeout)  # a refused ws:// handshake is read to its end (polite_socket.py)
        extra = {"socket": sock} if sock is not None else {}
        self.ws = websocket.create_connection(url, class_=_OneClose, header=list(headers), enable_multithread=True,
                                              suppress_origin=True, skip_utf8_validation=True, timeout=timeout,
                                              **extra)
        if sock is not None:
            sock.opened = True

    def send(self, payload: str) -> None:
        self.ws.send(payload)

    def recv(self, timeout: float) -> str | None:
        try:
            self.ws.settimeout(timeout)
            raw = self.ws.recv()
        except websocket.WebSocketTimeoutException:
            return None
        if not raw:  # a close frame
            raise Closed()
        return raw

    def close(self) -> None:
        """Send the close frame, then read until the other end closes (hang_up): Browserless 2.42 ends
        the browser only once it sees the socket closed, and kept it (and its slot) until its session
        time-out when it missed that."""
        sock = self.ws.sock
        try:
            self.ws.send_close()
        except Exception:
            pass
        if sock is not None:
            hang_up(sock)
        self.ws.shutdown()


class PipeTransport:
    """NUL-delimited JSON over two pipe ends: ``write_fd`` (the browser's fd 3) and ``read_fd`` (its fd 4)."""

    CHUNK = 1 << 20

    def __init__(self, read_fd: int, write_fd: int):
        self.read_fd, self.write_fd = read_fd, write_fd
        self._buffer = bytearray()
        self._messages: list[bytes] = []
        self._send_lock = threading.Lock()
        self._recv_lock = threading.Lock()
        self._closed = False

    def send(self, payload: str) -> None:
        data = memoryview(payload.encode("utf-8") + b"\0")
        with self._send_lock:
            if self._closed:
                raise Closed()
            while data:
                written = os.write(self.write_fd, data)  # BrokenPipeError once the browser is gone
                data = data[written:]

    def recv(self, timeout: float) -> str | None:
        with self._recv_lock:
            try:
                return self._recv(timeout)
            finally:
                if self._closed:
                    self._close_read()

    def _recv(self, timeout: float) -> str | None:
        while not self._messages:
            if self._closed or self.read_fd < 0:
                raise Closed()
            ready, _, _ = select.select([self.read_fd], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(self.read_fd, self.CHUNK)
            if not chunk:
                raise Closed()
            self._buffer += chunk
            if b"\0" in chunk:
                *done, rest = bytes(self._buffer).split(b"\0")
                self._messages.extend(done)
                self._buffer = bytearray(rest)
        return self._messages.pop(0).decode("utf-8", "replace")

    def _close_read(self) -> None:
        fd, self.read_fd = self.read_fd, -1
        if fd >= 0:
            try:
                os.close(fd)
            except OSError:
                pass

    def close(self) -> None:
        """Close our ends; the read end is closed by the reader when it is inside recv() (at most
        one recv timeout later), so its select never sees a closed or reused descriptor."""
        with self._send_lock:
            if self._closed:
                return
            self._closed = True
            try:
                os.close(self.write_fd)
            except OSError:
                pass
        if self._recv_lock.acquire(blocking=False):
            try:
                self._close_read()
            finally:
                self._recv_lock.release()
