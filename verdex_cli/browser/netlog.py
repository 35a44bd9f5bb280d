"""What a tab's pages did: the requests they made and the console messages and uncaught exceptions
they logged, heard from the DevTools protocol for the whole life of the tab (every frame, out-of-process
frames and workers included: each session Chrome attaches to the tab is watched as it comes), numbered
#1, #2, ... across navigations, the last KEEP of each kept.

An action marks where it began (:meth:`NetLog.mark`); :meth:`NetLog.since` gives what happened after
the mark: the requests that finished or failed by then, and the errors and warnings. Bodies stay in
the browser (its network buffer) until asked for (:meth:`NetLog.body`)."""

from __future__ import annotations

import base64
import itertools
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, VerdexError
from .cdp import Target
from .js_values import console_text

KEEP = 1000
BUFFER = {"maxTotalBufferSize": 64 * 1024 * 1024, "maxResourceBufferSize": 16 * 1024 * 1024}
EAGER = frozenset({"Fetch", "XHR"})  # their bodies are asked for at once: a navigation would evict them
EAGER_MAX = 1024 * 1024
SECRET_HEADERS = frozenset({"authorization", "cookie", "set-cookie", "proxy-authorization"})
LEVELS = {"error": 0, "assert": 0, "warning": 1, "warn": 1, "log": 2, "info": 2, "dir": 2, "dirxml": 2, "table": 2,
          "trace": 2, "clear": 2, "count": 2, "timeEnd": 2, "startGroup": 2, "startGroupCollapsed": 2,
          "endGroup": 2, "debug": 3, "verbose": 3}
LEVEL_NAMES = ("error", "warning", "info", "debug")


@dataclass(slots=True)
class Request:
    n: int
    rid: str
    target: Target = field(repr=False)
    method: str
    url: str
    type: str
    frame_id: str
    doc: int  # the main document it belongs to (the log's navigation count when it began)
    started: float  # monotonic
    wall: float  # epoch seconds (HAR)
    request_headers: dict = field(default_factory=dict)
    has_body: bool = False
    body: str | None = None
    status: int | None = None
    status_text: str = ""
    response_headers: dict = field(default_factory=dict)
    mime: str = ""
    protocol: str = ""
    size: int = 0
    failure: str = ""
    ms: float | None = None  # until finished or failed
    ended: float | None = None  # monotonic
    stamp: float = 0.0  # the browser's clock when it began (seconds)
    fetched: object = None  # an API answer's body, asked for as it finished (a Pending; see EAGER)

    @property
    def done(self) -> bool:
        return self.ended is not None

    @property
    def answered(self) -> bool:
        """Ended, or its response has come (a body the page never reads may never finish loading)."""
        return self.ended is not None or self.status is not None


@dataclass(slots=True)
class Message:
    n: int
    level: str  # error | warning | info | debug
    text: str
    source: str | None  # the script's URL (None: not known)
    line: int | None
    doc: int
    at: float
    exception: bool = False


class NetLog:
    def __init__(self, frame_index: Callable[[str], int | None]):
        self.frame_index = frame_index  # frame id -> the tab's frame index (None: not known yet)
        self.requests: deque[Request] = deque(maxlen=KEEP)
        self.messages: deque[Message] = deque(maxlen=KEEP)
        self.by_id: dict[tuple[int, str], Request] = {}
        self.docs: list[str] = [""]  # the main document's URL per navigation (a separator in `requests`)
        self._req_n = itertools.count(1)
        self._msg_n = itertools.count(1)
        self.dropped = 0  # requests let go of (older than the last KEEP)
        self.lock = threading.Lock()
        self._watched: set[int] = set()

    # -- hearing --------------------------------------------------------------------------------
    def watch(self, target: Target) -> None:
        """Hear ``target``'s requests and messages, and those of every session attached to it."""
        if id(target) in self._watched:
            return
        self._watched.add(id(target))
        on = target.on
        on("Network.requestWillBeSent", lambda **kw: self._sent(target, **kw))
        on("Network.requestWillBeSentExtraInfo", lambda **kw: self._extra(target, "request_headers", **kw))
        on("Network.responseReceived", lambda **kw: self._response(target, **kw))
        on("Network.responseReceivedExtraInfo", lambda **kw: self._extra(target, "response_headers", **kw))
        on("Network.loadingFinished", lambda **kw: self._ended(target, **kw))
        on("Network.loadingFailed", lambda **kw: self._ended(target, **kw))
        on("Runtime.consoleAPICalled", self._console)
        on("Runtime.exceptionThrown", self._exception)
        on("Target.attachedToTarget", lambda **kw: self._attached(target, **kw))
        try:
            target.hold_network(buffers=BUFFER)
        except VerdexError:
            pass

    def _attached(self, parent: Target, targetInfo: dict | None = None, **_) -> None:
        info = targetInfo or {}
        if info.get("type") not in ("iframe", "worker", "shared_worker", "service_worker"):
            return
        child = parent.child(info.get("targetId", ""))
        if child is None:
            return
        self.watch(child)
        child.send("Runtime.enable")  # before it runs (connection.py): what its first line logs is heard

    def navigated(self, url: str) -> None:
        """The main frame shows a new document (a separator in the list)."""
        with self.lock:
            self.docs.append(url)

    def _sent(self, target: Target, requestId: str = "", request: dict | None = None, type: str = "",
              frameId: str = "", wallTime: float = 0.0, timestamp: float = 0.0, redirectResponse: dict | None = None,
              **_) -> None:
        request = request or {}
        with self.lock:
            key = (id(target), requestId)
            old = self.by_id.get(key)
            if old is not None and redirectResponse is not None:  # a redirect ends one request, starts the next
                self._respond(old, redirectResponse)
                self._end(old, timestamp)
            if len(self.requests) == KEEP:
                gone = self.requests[0]
                self.by_id.pop((id(gone.target), gone.rid), None)
                if gone.fetched is not None and not isinstance(gone.fetched, dict):
                    gone.fetched.drop()  # its body goes with it
                self.dropped += 1
            main_doc = type == "Document" and self.frame_index(frameId) == 0  # the document it brings
            req = Request(next(self._req_n), requestId, target, request.get("method", "GET"), request.get("url", ""),
                          type or "Other", frameId, len(self.docs) - (0 if main_doc else 1), time.monotonic(),
                          wallTime or time.time(),
                          dict(request.get("headers") or {}), bool(request.get("hasPostData")),
                          request.get("postData"), stamp=timestamp)
            self.requests.append(req)
            self.by_id[key] = req

    def _extra(self, target: Target, which: str, requestId: str = "", headers: dict | None = None, **_) -> None:
        with self.lock:
            req = self.by_id.get((id(target), requestId))
            if req is not None and headers:  # the headers as sent and received (cookies included)
                getattr(req, which).update(headers)

    def _response(self, target: Target, requestId: str = "", response: dict | None = None, timestamp: float = 0.0,
                  **_) -> None:
        with self.lock:
            req = self.by_id.get((id(target), requestId))
            if req is not None and response:
                self._respond(req, response)
                if timestamp and req.stamp and not req.done:  # until the answer, while its body loads
                    req.ms = (timestamp - req.stamp) * 1000.0

    @staticmethod
    def _respond(req: Request, response: dict) -> None:
        req.status = response.get("status")
        req.status_text = response.get("statusText", "")
        req.response_headers.update(response.get("headers") or {})
        req.mime = response.get("mimeType", "")
        req.protocol = response.get("protocol", "")

    @staticmethod
    def _end(req: Request, stamp: float) -> None:
        req.ended = time.monotonic()
        req.ms = (stamp - req.stamp) * 1000.0 if stamp and req.stamp else (req.ended - req.started) * 1000.0

    def _ended(self, target: Target, requestId: str = "", encodedDataLength: float = 0, errorText: str = "",
               canceled: bool = False, blockedReason: str = "", corsErrorStatus: dict | None = None,
               timestamp: float = 0.0, **_) -> None:
        with self.lock:
            req = self.by_id.get((id(target), requestId))
            if req is None or req.done:
                return
            self._end(req, timestamp)
            req.size = int(encodedDataLength or 0)
            if req.type in EAGER and not errorText and not canceled and req.size <= EAGER_MAX:
                try:
                    req.fetched = target.start("Network.getResponseBody", kept=True, requestId=requestId)
                except VerdexError:
                    pass
            if errorText or canceled:
                cors = (corsErrorStatus or {}).get("corsError")
                req.failure = ("canceled" if canceled else errorText) + (f" (CORS: {cors})" if cors else "") \
                    + (f" (blocked: {blockedReason})" if blockedReason else "")

    def _console(self, type: str = "log", args: list | None = None, stackTrace: dict | None = None, **_) -> None:
        frame = ((stackTrace or {}).get("callFrames") or [{}])[0]
        self._message(LEVEL_NAMES[LEVELS.get(type, 2)], console_text(args or []), frame.get("url", ""),
                      frame.get("lineNumber"))

    def _exception(self, exceptionDetails: dict | None = None, **_) -> None:
        d = exceptionDetails or {}
        text = (d.get("exception") or {}).get("description") or d.get("text") or "Uncaught exception"
        self._message("error", text.split("\n    at ", 1)[0], d.get("url", ""), d.get("lineNumber"), exception=True)

    def _message(self, level: str, text: str, source: str, line: int | None, exception: bool = False) -> None:
        with self.lock:
            self.messages.append(Message(next(self._msg_n), level, text, source or None,
                                         None if line is None else line + 1, len(self.docs) - 1, time.monotonic(),
                                         exception))

    # -- asking ---------------------------------------------------------------------------------
    def mark(self) -> tuple[int, int]:
        with self.lock:
            return (self.requests[-1].n if self.requests else 0, self.messages[-1].n if self.messages else 0)

    def since(self, mark: tuple[int, int]) -> tuple[list[Request], list[Message]]:
        """The requests begun after ``mark`` that were answered (or failed), and the errors and warnings
        logged after it."""
        with self.lock:
            reqs = [r for r in self.requests if r.n > mark[0] and r.answered]
            msgs = [m for m in self.messages if m.n > mark[1] and m.level in ("error", "warning")]
        return reqs, msgs

    def wait_ended(self, mark: tuple[int, int], limit: float, ignore=frozenset({"EventSource", "WebSocket", "Media"})) -> None:
        """Wait (at most ``limit`` s) until every request begun after ``mark`` has ended (streams aside)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            with self.lock:
                if not any(r.n > mark[0] and not r.answered and r.type not in ignore for r in self.requests):
                    return
            time.sleep(0.01)

    def find(self, n: int) -> Request | None:
        with self.lock:
            return next((r for r in self.requests if r.n == n), None)

    def clear_messages(self) -> int:
        with self.lock:
            count = len(self.messages)
            self.messages.clear()
            return count

    def body(self, req: Request, timeout: float) -> tuple[bytes | None, str]:
        """(the response body, '' or why there is none)."""
        if req.failure:
            return None, "the request failed"
        if not req.done:
            return None, "the response has not finished loading"
        try:
            if isinstance(req.fetched, dict):
                res = req.fetched
            elif req.fetched is not None:
                res = req.fetched = req.fetched.result()
            else:
                res = req.target.call("Network.getResponseBody", timeout=timeout, interrupt=False, requestId=req.rid)
        except CDPError:
            return None, "the browser no longer holds it (evicted, or the document that loaded it is gone)"
        except (CDPTimeout, ConnectionLost):
            return None, "its frame or tab is gone"
        data = res.get("body", "")
        return (base64.b64decode(data) if res.get("base64Encoded") else data.encode("utf-8")), ""

    def request_body(self, req: Request, timeout: float) -> str | None:
        if req.body is not None or not req.has_body:
            return req.body
        try:
            return req.target.call("Network.getRequestPostData", timeout=timeout, interrupt=False,
                                   requestId=req.rid).get("postData")
        except (CDPError, CDPTimeout, ConnectionLost):
            return None


def masked(headers: dict, show: bool) -> dict:
    """Headers with the values of Authorization, Cookie, Set-Cookie and Proxy-Authorization as *** (unless ``show``)."""
    return {k: (v if show or k.lower() not in SECRET_HEADERS else "***") for k, v in headers.items()}


def level_at_most(level: str, most: str) -> bool:
    return LEVEL_NAMES.index(level) <= LEVEL_NAMES.index(most)
