"""A thin, safe handle on one DevTools session (over the one browser socket: connection.py). Every
call carries a timeout; protocol errors, time-outs and a dropped socket come out as the project's own
exceptions with human messages."""

from __future__ import annotations

import contextvars
import json
import logging
import queue
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import websocket

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, PageCrashed, VerdexError
from .busy import stop_busy_scripts, timeout_message
from .connection import AUTO_ATTACH, LOST, LOST_SENTINEL, Connection

# Calls that may still be made on a crashed page: they bring it back (or only touch the tab).
RECOVERY_METHODS = frozenset({"Page.navigate", "Page.reload", "Page.bringToFront", "Page.stopLoading",
                              "Runtime.terminateExecution", "Inspector.enable"})
NAVIGATION_METHODS = frozenset({"Page.navigate", "Page.reload"})


# True while the user's own command runs (see :func:`user_command`): only then may a timed-out
# call interrupt the page's script. Status reads (toolbar, tab titles) never do.
_USER_COMMAND: contextvars.ContextVar[bool] = contextvars.ContextVar("verdex_user_command", default=False)


@contextmanager
def user_command() -> Iterator[None]:
    """Run a user's command: a call that times out in it stops the page's runaway script."""
    token = _USER_COMMAND.set(True)
    try:
        yield
    finally:
        _USER_COMMAND.reset(token)


class Target:
    """A handle on one DevTools session (the browser itself, a page, an out-of-process frame or a
    worker) on the connection's one WebSocket or pipe: its calls wait for their answers in queues of
    their own (``method_results``, by message id), its events are handled in order by a thread of its
    own (``event_handlers``, by event name). ``Target.open(url)`` (or ``Target.open(transport=...)``)
    opens a connection and returns its root session; the connection makes one for every target
    attached to it (:meth:`attach`, or Chrome's auto-attach: :meth:`child`)."""

    def __init__(self, conn: Connection, session_id: str | None, target_id: str | None, kind: str,
                 parent: str | None = None, timeout: float = 10.0):
        self.conn = conn
        self.session_id = session_id
        self.id = target_id
        self.kind = kind
        self.parent = parent  # the session id of the session it was attached to (None: the root's)
        self.timeout = timeout
        self.children: set[str] = set()
        self.event_handlers: dict[str, list[Callable[..., None]]] = {}
        self.method_results: dict[int, queue.Queue] = {}
        self.event_queue: queue.Queue = queue.Queue()
        self._stopped = threading.Event()
        self.crashed = False  # set by Inspector.targetCrashed; cleared by a navigation or reload
        self.scripts: set[str] = set()  # page scripts installed in its documents (timer_watch.install)
        self._network_users = 0  # hold_network() callers: the domain is on while there is one
        self.enabled = False  # child(): its domains were turned on
        threading.Thread(target=self._handle_events, daemon=True, name="verdex-cdp-events").start()

    @classmethod
    def open(cls, ws_url: str = "", timeout: float = 10.0, headers: list[str] | tuple = (),
             transport=None, answering: bool = False) -> "Target":
        """Open a connection (a WebSocket to ``ws_url``, or ``transport``): its root session. With
        ``answering``, once a browser answers on it (closed again when it does not)."""
        try:
            root = Connection(ws_url, timeout, cls, headers, transport=transport).root
        except (websocket.WebSocketException, OSError, ValueError) as exc:
            raise ConnectionLost(f"Cannot connect to the browser target: {exc}") from exc
        try:
            if answering:
                root.call("Browser.getVersion", interrupt=False)
        except BaseException:
            root.close()
            raise
        return root

    # -- sessions on the same socket -----------------------------------------------------------
    def tab_targets(self) -> list["Target"]:
        """This target's tab: the page's session and its out-of-process frames' (at any depth)."""
        session = self
        while session.kind == "iframe" and self.conn.sessions.get(session.parent) is not None:
            session = self.conn.sessions[session.parent]
        found = [session, *map(self.conn.session_for, self.conn.frame_targets(session.id))]
        return [s for s in found if s is not None]

    def attach(self, target_id: str) -> "Target":
        """Attach to a target as a flat session on this socket (``Target.attachToTarget``); its
        out-of-process frames and workers attach to it in turn."""
        sid = self.call("Target.attachToTarget", targetId=target_id, flatten=True)["sessionId"]
        target = self.conn.sessions.get(sid)  # made on the attachedToTarget event, always sent first
        if target is None:  # detached again already
            raise ConnectionLost(LOST)
        target.call("Target.setAutoAttach", **AUTO_ATTACH)
        return target

    def child(self, target_id: str, wait: float = 0.0) -> "Target | None":
        """The session Chrome attached for ``target_id`` (an out-of-process frame: its frame id) on
        this connection, waiting up to ``wait`` s for it; None when there is none."""
        return self.conn.session_for(target_id, wait)

    def watch_crashes(self) -> None:
        """Notice a renderer crash (calls then fail at once with PageCrashed instead of timing out)."""
        self.on("Inspector.targetCrashed", self._on_crashed)
        try:
            self.call("Inspector.enable", timeout=min(self.timeout, 5.0))
        except (CDPError, CDPTimeout):
            pass

    def _on_crashed(self, **_: Any) -> None:
        self.crashed = True
        # wake calls waiting for an answer the crashed renderer will never give
        for pending in list(self.method_results.values()):
            pending.put({"error": {"message": "The page crashed."}})

    # -- calls -------------------------------------------------------------
    def call(self, method: str, timeout: float | None = None, interrupt: bool | None = None, **params: Any) -> dict:
        """Call a protocol method; raise CDPError / CDPTimeout / ConnectionLost / PageCrashed.
        ``interrupt``: whether a time-out may stop the page's running script (``None``: only inside
        :func:`user_command`; read-only status calls pass ``False``)."""
        try:
            result = self.start(method, timeout, interrupt=interrupt, **params).result()
        except KeyboardInterrupt:  # Ctrl-C stops the page's script exactly as a time-out does
            if self._may_interrupt(method, interrupt):
                self.interrupt_script()
            raise
        if method in NAVIGATION_METHODS:
            self.crashed = False  # a new renderer process serves the tab
        return result

    def call_many(self, calls: list[tuple[str, dict]]) -> list[dict]:
        """Send several calls at once and wait for every reply (one round trip instead of one each: a
        mouse move, press and release sent one by one wait for an animation frame each). Errors come
        out as from :meth:`call`, with ``done``: how many calls had answered before it."""
        sent: list[Pending] = []
        results: list[dict] = []
        try:
            for method, params in calls:
                if self.crashed:
                    raise PageCrashed(method=method)
                sent.append(self.start(method, **params))
            for pending in sent:
                results.append(pending.result())
        except (CDPError, CDPTimeout, ConnectionLost, PageCrashed) as exc:
            exc.done = len(results)
            # every call reached the browser and only this target's session ended (the browser is
            # still there): the target closed while handling them
            exc.all_sent = len(sent) == len(calls) and not self.conn.stopped.is_set()
            raise
        finally:
            for pending in sent:
                pending.drop()
        return results

    def start(self, method: str, timeout: float | None = None, *, kept: bool = False, interrupt: bool | None = None,
              **params: Any) -> "Pending":
        """Send a call now and wait for its answer later (``Pending.result()``): calls started on
        several targets before any is waited for share one round trip. Raises at once what
        :meth:`call` raises when the call cannot be sent; the reply's errors come from ``result()``.
        ``kept``: the answer is read much later and nothing waits on it (a bookkeeping question sent
        ahead): the call is left out of the transport's round-trip counts. ``interrupt``: as :meth:`call`'s."""
        if self.crashed and method not in RECOVERY_METHODS:
            raise PageCrashed(method=method)
        if not self.alive:
            raise ConnectionLost(LOST)
        mid = self.conn.next_id()
        box: queue.Queue = queue.Queue()
        self.method_results[mid] = box
        try:
            self._send(mid, method, params)
        except ConnectionLost:
            self.method_results.pop(mid, None)
            raise
        depth = None if kept else self.conn.call_started()
        limit = self.timeout if timeout is None else timeout
        return Pending(self, mid, method, box, limit, depth, interrupt)

    def _may_interrupt(self, method: str, interrupt: bool | None) -> bool:
        allowed = _USER_COMMAND.get() if interrupt is None else interrupt
        return allowed and self.kind != "browser" and method != "Runtime.terminateExecution"

    def timed_out(self, method: str, limit: float, interrupt: bool | None = None) -> VerdexError:
        """The error for a call unanswered within ``limit`` s, in words (a user's command stops the
        script that keeps a document of its tab busy, and says so)."""
        if self.crashed:
            return PageCrashed(method=method)
        busy = stop_busy_scripts(self) if self._may_interrupt(method, interrupt) else None
        return CDPTimeout(timeout_message(method, limit, busy, self.kind == "browser"), method=method)

    def reply(self, method: str, box: queue.Queue, deadline: float) -> dict:
        while True:
            if not self.alive and box.empty():
                raise ConnectionLost(LOST)
            try:
                reply = box.get(timeout=max(0.0, min(0.5, deadline - time.monotonic())))
                break
            except queue.Empty:
                if time.monotonic() >= deadline:  # (in words, and PageCrashed when it crashed: timed_out)
                    raise CDPTimeout(f"{method} was not answered.", method=method) from None
        if reply is LOST_SENTINEL:  # the session ended while waiting
            raise ConnectionLost(LOST)
        if "error" in reply and "result" not in reply:
            if self.crashed:
                raise PageCrashed(method=method)
            detail = reply["error"].get("message", "")
            raise CDPError(f"{method} failed: {detail}", method=method, detail=detail)
        return reply.get("result", {})

    def send(self, method: str, **params: Any) -> None:
        """Make a call without waiting for its answer (a target handles its calls in order, so later
        calls find it done); for calls a busy page must not hold up. Raises ConnectionLost."""
        if not self.alive:
            raise ConnectionLost(LOST)
        self._send(self.conn.next_id(), method, params)

    def _send(self, mid: int, method: str, params: dict) -> None:
        """Send call ``mid`` (its answer box, when one is wanted, is the caller's to register)."""
        message = {"id": mid, "method": method, "params": params}
        if self.session_id is not None:  # stamped with the session it is for
            message["sessionId"] = self.session_id
        try:
            self.conn.send_raw(json.dumps(message))
        except (websocket.WebSocketException, OSError) as exc:
            raise ConnectionLost(LOST) from exc

    def hold_network(self, buffers: dict | None = None) -> None:
        """Network events on for one more user (answers to documents, requests an action starts): the
        first user enables the domain (not waiting for the answer), the last one's release_network()
        disables it. Raises ConnectionLost."""
        self._network_users += 1
        if self._network_users > 1:
            return
        sizes = buffers or {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0}  # bodies kept, or none
        try:
            self.send("Network.enable", **sizes)
        except VerdexError:
            self._network_users -= 1
            raise

    def release_network(self) -> None:
        """One user of hold_network() is done (never raises)."""
        if self._network_users == 0:
            return
        self._network_users -= 1
        if self._network_users == 0:
            try:
                self.send("Network.disable")
            except VerdexError:
                pass

    def interrupt_script(self) -> None:
        """Stop a runaway script in this target (handled off the page's main thread; a page that
        runs no script is left as it is). Never raises, a second Ctrl-C included."""
        try:
            self.start("Runtime.terminateExecution", 2).result()
        except BaseException:
            pass

    @property
    def alive(self) -> bool:
        return not self._stopped.is_set()

    def end(self) -> None:
        """The session is over: calls waiting for an answer fail at once, later ones too."""
        self._stopped.set()
        for pending in list(self.method_results.values()):
            pending.put(LOST_SENTINEL)

    # -- events ------------------------------------------------------------
    def on(self, event: str, handler: Callable[..., None]) -> None:
        """Add a handler for a protocol event (several handlers per event)."""
        self.event_handlers.setdefault(event, []).append(handler)

    def _handle_events(self) -> None:
        while not self._stopped.is_set():
            try:
                event = self.event_queue.get(timeout=1)
            except queue.Empty:
                continue
            try:
                for handler in list(self.event_handlers.get(event["method"], ())):
                    try:
                        handler(**event.get("params", {}))
                    except Exception:  # an event handler must never kill the event thread
                        logging.getLogger(__name__).debug("event handler failed", exc_info=True)
            finally:
                if event["method"] == "Target.attachedToTarget":
                    self.conn.resume(event.get("params") or {})
                self.event_queue.task_done()

    def drain_events(self, timeout: float = 0.5) -> None:
        """Wait (bounded) until the event thread has handled every event received so far (events are
        queued before the reply of a later call: the handlers then know what a returned call caused)."""
        q = self.event_queue
        deadline = time.monotonic() + timeout
        while q.unfinished_tasks and time.monotonic() < deadline and self.alive:
            time.sleep(0.002)

    def close(self) -> None:
        """The root: close the socket (every session on it ends). A page verdex attached to: detach
        (the tab itself stays). A session Chrome attached by itself (a frame, a worker) lives as long
        as its target: nothing to do."""
        try:
            if self.session_id is None:
                self.conn.close()
            elif self.parent is None and self.alive:
                self.conn.root.send("Target.detachFromTarget", sessionId=self.session_id)
                self.conn.on_detached(self.session_id)
        except Exception:  # closing must never raise
            pass


class Pending:
    """A call sent by :meth:`Target.start`, its answer not yet taken. ``result()`` waits for it (once);
    ``drop()`` lets it go unanswered. Either ends its share of the transport's round-trip count."""

    def __init__(self, target: Target, mid: int, method: str, box: queue.Queue, limit: float, depth: int | None = 0,
                 interrupt: bool | None = None):
        self.target, self.mid, self.method, self._box, self.limit = target, mid, method, box, limit
        self._interrupt = interrupt
        self._deadline = time.monotonic() + limit
        self.open = True  # neither answered-and-read nor let go of yet
        self._depth = depth

    def result(self) -> dict:
        try:
            out = self.target.reply(self.method, self._box, self._deadline)
        except CDPTimeout:
            self.drop()
            raise self.target.timed_out(self.method, self.limit, self._interrupt) from None
        except CDPError:
            self.drop(answered=True)  # an answer, saying no
            raise
        except BaseException:
            self.drop()
            raise
        self.drop(answered=True)
        return out

    def drop(self, answered: bool = False) -> None:
        if self.open:
            self.open = False
            self.target.method_results.pop(self.mid, None)
            if self._depth is not None:  # (a kept call is not counted)
                self.target.conn.call_ended(self._depth, answered)


def finish_all(pending: list[Pending]) -> list:
    """The answers of calls made with :meth:`Target.start`, in order, each a result dict or the
    VerdexError it raised (one target's failure leaves the others' answers)."""
    out: list = []
    try:
        for p in pending:
            try:
                out.append(p.result())
            except VerdexError as exc:
                out.append(exc)
    finally:
        for p in pending:  # Ctrl-C included: no reply box is left behind
            p.drop()
    return out
