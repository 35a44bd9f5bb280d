"""The project's own exception types.

Every failure a user can see is a :class:`VerdexError` with a ``kind`` (the
JSON error kind of one-shot mode) and a one-line human message.  The core
raises them; the command loop and one-shot runner turn them into output.
"""

from __future__ import annotations


class VerdexError(Exception):
    """A failure with a stable machine-readable kind and a human message."""

    kind = "error"

    def __init__(self, message: str, kind: str | None = None, **details):
        super().__init__(message)
        if kind is not None:
            self.kind = kind
        self.message = message
        self.details = details

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.message


class UsageError(VerdexError):
    kind = "usage"


class BrowserNotFound(VerdexError):
    kind = "browser_not_found"


class LaunchError(VerdexError):
    kind = "launch_failed"


class CDPError(VerdexError):
    """Chrome answered a protocol call with an error."""

    kind = "cdp_error"


class CDPTimeout(VerdexError):
    kind = "timeout"


class ConnectionLost(VerdexError):
    kind = "connection_lost"


class NavigationFailed(VerdexError):
    kind = "navigation_failed"


class JSError(VerdexError):
    """A script evaluated in the page threw."""

    kind = "js_error"


class RefError(VerdexError):
    """A ref could not be resolved; ``kind`` is one of the contract's kinds."""

    kind = "unknown_ref"


class NotActionable(VerdexError):
    kind = "not_actionable"


class NotApplied(VerdexError):
    """The action ran on the element, but its state did not become what was asked."""

    kind = "not_applied"


class Cancelled(VerdexError):
    kind = "cancelled"
