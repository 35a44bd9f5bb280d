"""A thin, safe wrapper over one pychrome WebSocket (one DevTools target).

Every call carries a timeout; protocol errors, time-outs and a dropped socket
come out as the project's own exceptions with human messages.
"""

from __future__ import annotations

import logging
import time
import warnings
from typing import Any, Callable

import pychrome
import pychrome.exceptions as pexc
import websocket

from ..errors import CDPError, CDPTimeout, ConnectionLost

# pychrome logs a full traceback when the socket drops; we report it ourselves.
logging.getLogger("pychrome").setLevel(logging.CRITICAL)
logging.getLogger("pychrome.tab").setLevel(logging.CRITICAL)

# pychrome also warns (to stderr) about every protocol error; we raise CDPError instead.
warnings.filterwarnings("ignore", category=UserWarning, module=r"pychrome(\.|$)")

LOST = "Browser connection lost (the browser or the tab was closed)."


class _Tab(pychrome.Tab):
    """pychrome's Tab, except that its reader thread marks the tab stopped however it ends.

    pychrome's loop dies with a JSONDecodeError on a WebSocket close frame (recv() returns '')
    without setting ``_stopped``; pending and later calls would then wait for their full
    timeout instead of failing at once with ConnectionLost.
    """

    def _recv_loop(self):
        try:
            super()._recv_loop()
        except Exception:
            pass
        finally:
            self._stopped.set()


class Target:
    """One DevTools target (page, iframe or the browser itself)."""

    def __init__(self, ws_url: str, timeout: float = 10.0, target_id: str | None = None, kind: str = "page"):
        self.ws_url = ws_url
        self.timeout = timeout
        self.id = target_id
        self.kind = kind
        self._tab = _Tab(id=target_id, type=kind, webSocketDebuggerUrl=ws_url)
        self._handlers: dict[str, list[Callable[..., None]]] = {}
        try:
            self._start()
        except (websocket.WebSocketException, OSError) as exc:
            raise ConnectionLost(f"Cannot connect to the browser target: {exc}") from exc

    def _start(self) -> None:
        """pychrome's Tab.start(), but without websocket-client's pure-Python UTF-8
        check, which costs about half a second per megabyte of snapshot (Chrome
        sends valid UTF-8; json.loads still rejects anything malformed)."""
        tab = self._tab
        tab._ws = websocket.create_connection(self.ws_url, enable_multithread=True, suppress_origin=True,
                                              skip_utf8_validation=True, timeout=self.timeout)
        tab._started = True
        tab.status = tab.status_started
        tab._stopped.clear()
        tab._recv_th.start()
        tab._handle_event_th.start()

    # -- calls -------------------------------------------------------------
    def call(self, method: str, timeout: float | None = None, **params: Any) -> dict:
        """Call a protocol method; raise CDPError / CDPTimeout / ConnectionLost."""
        limit = self.timeout if timeout is None else timeout
        try:
            return self._tab.call_method(method, _timeout=limit, **params)
        except pexc.TimeoutException as exc:
            if self.kind != "browser" and method != "Runtime.terminateExecution":
                self._interrupt()
                raise CDPTimeout(f"The page did not answer within {limit:g} s ({method}). Any script it was running "
                                 "has been interrupted, so the session stays usable.", method=method) from exc
            raise CDPTimeout(f"{method} timed out after {limit:g} s.", method=method) from exc
        except pexc.CallMethodException as exc:
            text = str(exc)
            marker = " error: "
            detail = text.split(marker, 1)[1] if marker in text else text
            raise CDPError(f"{method} failed: {detail}", method=method, detail=detail) from exc
        except (pexc.UserAbortException, pexc.RuntimeException, websocket.WebSocketException, OSError) as exc:
            raise ConnectionLost(LOST) from exc

    def _interrupt(self) -> None:
        """Stop a runaway script in this target (handled off the page's main thread)."""
        try:
            self._tab.call_method("Runtime.terminateExecution", _timeout=2)
        except Exception:
            pass

    @property
    def alive(self) -> bool:
        return not self._tab._stopped.is_set()

    # -- events ------------------------------------------------------------
    def on(self, event: str, handler: Callable[..., None]) -> None:
        """Add a handler for a protocol event (several handlers per event)."""
        handlers = self._handlers.setdefault(event, [])
        handlers.append(handler)
        if len(handlers) == 1:
            def dispatch(**params: Any) -> None:
                for h in list(self._handlers.get(event, ())):
                    try:
                        h(**params)
                    except Exception:  # an event handler must never kill the event thread
                        logging.getLogger(__name__).debug("event handler failed", exc_info=True)
            self._tab.set_listener(event, dispatch)

    def drain_events(self, timeout: float = 0.5) -> None:
        """Wait (bounded) until the event thread has handled every event received so far.

        Events are queued before the reply of a later call, so after a call returns this makes
        the handlers' view of the events it caused complete."""
        q = self._tab.event_queue
        deadline = time.monotonic() + timeout
        while q.unfinished_tasks and time.monotonic() < deadline and self.alive:
            time.sleep(0.002)

    def close(self) -> None:
        try:
            self._tab.stop()
        except pexc.RuntimeException:
            pass
        except Exception:  # pragma: no cover - closing must never raise
            pass
