"""The project's own exception types.

Every failure a user can see is a :class:`VerdexError` with a ``kind`` (the
JSON error kind of one-shot mode) and a one-line human message.  The core
raises them; the command loop and one-shot runner turn them into output.
"""

from __future__ import annotations


class ExitStatus:
    """The process exit codes of the contract (plain ints: `enum` would slow the light client's start)."""

    OK = 0
    FAILED = 1  # a command (or the start-up) failed
    USAGE = 2  # the command line itself is wrong, or there is no browser to run
    INTERRUPTED = 130  # stopped by Ctrl-C (128 + SIGINT), as a shell reports it


def exit_on_terminate() -> None:
    """SIGTERM and SIGHUP end verdex like an exit (so its browser is stopped): status 128 + the signal."""
    import signal

    def terminate(signum, _frame):
        raise SystemExit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, terminate)


class ErrorKind:
    """Every error kind a user can see (``error.kind`` in JSON mode)."""

    USAGE = "usage"
    NAVIGATION_FAILED = "navigation_failed"
    JS_ERROR = "js_error"
    TIMEOUT = "timeout"
    CONNECTION_LOST = "connection_lost"
    BROWSER_LOST = "browser_lost"
    PAGE_CRASHED = "page_crashed"
    CDP_ERROR = "cdp_error"
    BROWSER_NOT_FOUND = "browser_not_found"
    LAUNCH_FAILED = "launch_failed"
    CONNECT_FAILED = "connect_failed"
    INVALID_REF = "invalid_ref"
    CONTEXT_MISMATCH = "context_mismatch"
    PAGE_MISMATCH = "page_mismatch"
    UNKNOWN_REF = "unknown_ref"
    NAVIGATED = "navigated"
    REMOVED = "removed"
    CHANGED = "changed"
    NOT_ACTIONABLE = "not_actionable"
    NOT_APPLIED = "not_applied"
    AMBIGUOUS = "ambiguous"
    NO_MATCH = "no_match"
    CANCELLED = "cancelled"
    NO_SESSION = "no_session"
    INTERNAL = "internal"

    @classmethod
    def all(cls) -> set[str]:
        return {v for k, v in vars(cls).items() if k.isupper() and isinstance(v, str)}


# Kinds that say the command line (or the environment) is unusable, not that a command failed.
USAGE_KINDS = frozenset({ErrorKind.USAGE, ErrorKind.BROWSER_NOT_FOUND, ErrorKind.NO_SESSION})

def ok_json(line: str, result: dict, elapsed_ms: float = 0.0) -> dict:
    """The one shape of a successful command in JSON mode (the runner's outcomes, `session start|stop|list`)."""
    return {"command": line, "ok": True, "result": result, "elapsed_ms": round(elapsed_ms, 1)}


def error_json(line: str, kind: str, message: str, elapsed_ms: float = 0.0) -> dict:
    """The one shape of a failed command in JSON mode (the runner's outcomes, the command line's own
    usage errors and a session client's all use it)."""
    if kind not in ErrorKind.all():
        raise ValueError(f"unknown error kind {kind!r}")
    return {"command": line, "ok": False, "error": {"kind": kind, "message": message},
            "elapsed_ms": round(elapsed_ms, 1)}


PAGE_CRASHED_MESSAGE = "The page crashed. Use 'reload' or 'open URL'."
BROWSER_LOST_MESSAGE = "The browser is gone. Use 'relaunch'."


def exit_status(kind: str, ran: bool = False) -> int:
    """The exit code for a failure of this kind; ``ran``: it came from a command that parsed and ran, so
    a `usage` kind there is the page's or the session's state (`There is no tab 5`), not the command
    line: exit 1, as for any command that failed."""
    if ran and kind == ErrorKind.USAGE:
        return ExitStatus.FAILED
    return ExitStatus.USAGE if kind in USAGE_KINDS else ExitStatus.FAILED


class VerdexError(Exception):
    """A failure with a stable machine-readable kind and a human message."""

    kind = ErrorKind.INTERNAL
    done = 0  # a batch of calls that failed: how many were answered (or had their effect) first
    all_sent = False  # ... and whether every call of it had reached the browser

    def __init__(self, message: str, kind: str | None = None, **details):
        super().__init__(message)
        if kind is not None:
            self.kind = kind
        self.message = message
        self.details = details

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.message


class UsageError(VerdexError):
    kind = ErrorKind.USAGE


class BrowserNotFound(VerdexError):
    kind = ErrorKind.BROWSER_NOT_FOUND


class LaunchError(VerdexError):
    kind = ErrorKind.LAUNCH_FAILED


class ConnectFailed(VerdexError):
    """--connect URL: no DevTools browser socket could be opened (the message names what was tried)."""

    kind = ErrorKind.CONNECT_FAILED


class CDPError(VerdexError):
    """Chrome answered a protocol call with an error."""

    kind = ErrorKind.CDP_ERROR


class CDPTimeout(VerdexError):
    kind = ErrorKind.TIMEOUT


class ConnectionLost(VerdexError):
    kind = ErrorKind.CONNECTION_LOST


class NavigationFailed(VerdexError):
    kind = ErrorKind.NAVIGATION_FAILED


class JSError(VerdexError):
    """A script evaluated in the page threw."""

    kind = ErrorKind.JS_ERROR


class RefError(VerdexError):
    """A ref could not be resolved; ``kind`` is one of the contract's kinds."""

    kind = ErrorKind.UNKNOWN_REF


class NotActionable(VerdexError):
    kind = ErrorKind.NOT_ACTIONABLE


class NotApplied(VerdexError):
    """The action ran on the element, but its state did not become what was asked."""

    kind = ErrorKind.NOT_APPLIED


class PageCrashed(VerdexError):
    """The tab's renderer process crashed; 'reload' or 'open' recovers it."""

    kind = ErrorKind.PAGE_CRASHED

    def __init__(self, message: str = PAGE_CRASHED_MESSAGE, **details):
        super().__init__(message, **details)


class BrowserLost(VerdexError):
    """The browser process (or the --connect endpoint) is gone; 'relaunch' starts a new one."""

    kind = ErrorKind.BROWSER_LOST

    def __init__(self, message: str = BROWSER_LOST_MESSAGE, **details):
        super().__init__(message, **details)
