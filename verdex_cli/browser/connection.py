"""One browser-level DevTools connection carrying flat sessions.

The connection is a WebSocket or, for a browser verdex launched, the pipe pair of
``--remote-debugging-pipe`` (transport.py); everything above the transport is the same.

Every page, out-of-process frame and worker verdex talks to is a *session* on the one socket: the
browser itself (no session id), pages verdex attaches to (``Target.attachToTarget {flatten: true}``)
and the frames and workers Chrome attaches to those pages by itself (``Target.setAutoAttach``).
Each session is a :class:`~verdex_cli.browser.cdp.Target` (``make``): what it sends is stamped with its
``sessionId``, its calls wait for their answers in queues of their own, its events are handled on a
thread of its own. One reader thread owns the socket and routes answers and events by ``sessionId``
into the session's queues; it never runs a handler, so a busy handler cannot hold up answers (``Runtime.terminateExecution`` to a
busy page included). Each session's events are handled in order by its own event thread.

A new frame or worker waits (``waitForDebuggerOnStart``) until the handlers of its attachment have sent
its set-up, unanswered (a service worker answers nothing before it runs): then, whatever they did, it is
told to run, after the set-up (a session handles its calls in order). A target that detaches runs anyway.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from typing import Any, Callable

from ..base.errors import ConnectionLost
from .transport import PipeTransport, WsTransport

LOST = "Browser connection lost (the browser or the tab was closed)."

LOST_SENTINEL = {"__verdex_lost__": True}  # put into a pending call's queue: the session ended

AUTO_ATTACH = {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True}
PAUSE_MAX = 1.0  # seconds a new frame or worker waits for its set-up at most


class Connection:
    """The transport (a WebSocket, or the pipe pair of a browser launched with
    ``--remote-debugging-pipe``: transport.py), its reader thread and the sessions on it (by session
    id and by target id). ``make(conn, session_id, target_id, kind, parent, timeout)`` makes a session:
    the root (the browser) now, then one for each target attached (with its parent's timeout)."""

    def __init__(self, url: str, timeout: float, make: Callable[..., Any], headers: list[str] | tuple = (),
                 transport: WsTransport | PipeTransport | None = None):
        self.url = url  # "" for a pipe
        self.transport = transport if transport is not None else WsTransport(url, timeout, headers)
        self._make = make
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self.stopped = threading.Event()
        self.root = make(self, None, None, "browser", None, timeout)
        self.sessions: dict[str | None, Any] = {None: self.root}
        self.by_target: dict[str, Any] = {}
        self.attached = threading.Condition(self._lock)
        # round-trip accounting (benchmarks): the time with one or more calls outstanding, and the depth
        # of the chain of calls (call_started)
        self.outstanding = 0
        self.depth_done = 0
        self.depth_max = 0
        self.busy = 0.0
        self._busy_since = 0.0
        self._reader = threading.Thread(target=self._read_loop, daemon=True, name="verdex-cdp-reader")
        self._reader.start()

    # -- sending ----------------------------------------------------------------------------------
    def next_id(self) -> int:
        return next(self._ids)

    def send_raw(self, payload: str) -> None:
        if self.stopped.is_set():
            raise ConnectionLost(LOST)
        self.transport.send(payload)

    def call_started(self) -> int:
        """A call (or a batch sent at once) went out: its depth -- one more than the deepest call
        answered before it was sent (the calls it may have waited for)."""
        with self._lock:
            if self.outstanding == 0:
                self._busy_since = time.perf_counter()
            self.outstanding += 1
            depth = self.depth_done + 1
            self.depth_max = max(self.depth_max, depth)
            return depth

    def call_ended(self, depth: int = 0, answered: bool = True) -> None:
        """``answered``: its answer was read (a call let go unread holds nothing up)."""
        with self._lock:
            self.outstanding -= 1
            if self.outstanding == 0:
                self.busy += time.perf_counter() - self._busy_since
            if answered:
                self.depth_done = max(self.depth_done, depth)

    def counters(self) -> tuple[int, float]:
        """(sequential round trips, seconds with a call outstanding) so far. Sequential round trips:
        the longest chain of calls each sent after the answer of the one before (calls sent together,
        or while others are out, share a round trip; a call sent after an answer arrived counts one
        more) -- what a far-away browser multiplies by its latency."""
        with self._lock:
            return self.depth_max, self.busy

    # -- sessions -----------------------------------------------------------------------------------
    def session_for(self, target_id: str, wait: float = 0.0) -> Any:
        """The live session attached to ``target_id``, waiting up to ``wait`` s for it to attach."""
        deadline = time.monotonic() + wait
        with self.attached:
            while True:
                s = self.by_target.get(target_id)
                if s is not None and s.alive:
                    return s
                left = deadline - time.monotonic()
                if left <= 0 or self.stopped.is_set():
                    return None
                self.attached.wait(min(left, 0.05))

    def frame_targets(self, target_id: str) -> list[str]:
        """The target ids (frame ids) of the live out-of-process frame sessions under ``target_id``'s
        session, at any depth, parents first."""
        out: list[str] = []
        with self.attached:
            todo = [self.by_target.get(target_id)]
            while todo:
                session = todo.pop(0)
                for sid in sorted(session.children) if session is not None else ():
                    s = self.sessions.get(sid)
                    if s is not None and s.kind == "iframe" and s.id and s.alive:
                        out.append(s.id)
                        todo.append(s)
        return out

    def _on_attached(self, parent_id: str | None, params: dict) -> None:
        sid = params.get("sessionId")
        info = params.get("targetInfo") or {}
        if not sid or sid in self.sessions:
            return
        parent = self.sessions.get(parent_id)
        session = self._make(self, sid, info.get("targetId"), info.get("type") or "page", parent_id,
                             (parent or self.root).timeout)
        with self.attached:
            self.sessions[sid] = session
            if info.get("targetId"):
                self.by_target[info["targetId"]] = session
            if parent is not None:
                parent.children.add(sid)
            self.attached.notify_all()
        if parent_id is not None and info.get("type") == "iframe":
            try:  # frames inside an out-of-process frame attach to it in turn
                session.send("Target.setAutoAttach", **AUTO_ATTACH)
            except Exception:
                pass
        if parent is None or not parent.event_handlers:  # no handler to set it up: it runs now
            self.resume(params)
        elif params.get("waitingForDebugger"):  # else after its handlers, or PAUSE_MAX s, whatever holds them up
            late = threading.Timer(PAUSE_MAX, self.resume, (params,))
            late.daemon = True
            late.start()

    def resume(self, params: dict) -> None:
        """The target of ``Target.attachedToTarget`` ``params`` runs, if it was paused (never raises)."""
        session = self.sessions.get(params.get("sessionId")) if params.get("waitingForDebugger") else None
        try:
            if session is not None:
                session.send("Runtime.runIfWaitingForDebugger")
        except Exception:  # (it ended: nothing is paused)
            pass

    def on_detached(self, sid: str | None) -> None:
        if sid is None:
            return
        with self.attached:
            session = self.sessions.pop(sid, None)
            if session is None:
                return
            if session.id and self.by_target.get(session.id) is session:
                del self.by_target[session.id]
            children = list(session.children)
        session.end()
        for child in children:
            self.on_detached(child)

    # -- the reader ---------------------------------------------------------------------------------
    def _read_loop(self) -> None:
        try:
            while not self.stopped.is_set():
                raw = self.transport.recv(1.0)  # raises once the other end is gone
                if raw is None:
                    continue
                message = json.loads(raw)
                sid = message.get("sessionId")
                session = self.sessions.get(sid)
                method = message.get("method")
                if method is not None:
                    if method == "Target.attachedToTarget":
                        self._on_attached(sid, message.get("params") or {})
                    elif method == "Target.detachedFromTarget":
                        self.on_detached((message.get("params") or {}).get("sessionId"))
                    if session is not None and session.event_handlers:
                        session.event_queue.put(message)
                elif "id" in message and session is not None:
                    pending = session.method_results.get(message["id"])
                    if pending is not None:
                        pending.put(message)
        except Exception:
            pass
        finally:
            self.stopped.set()
            for session in list(self.sessions.values()):
                session.end()

    def close(self) -> None:
        self.stopped.set()
        for session in list(self.sessions.values()):
            session.end()
        self.transport.close()
