"""Hear, inside the tab, a click that asks for a download without navigating (a link with the
``download`` attribute: blob:, data: or a server's file).

The browser announces such a download only once the file answers, which may be after the command
that caused it (an ``eval``, a handler that clicks a script-made link) has returned. A listener
(engine/download_watch.js) in an isolated world of every document of the tab tells verdex at once,
through a binding, so the command waits for that download to begin (bounded by --timeout). The page
cannot see the world or the binding.
"""

from __future__ import annotations

from ..base.errors import CDPError, CDPTimeout
from . import bridge

WORLD = "verdex-downloads"
BINDING = "__verdexDownloadAsked"


def install(target) -> None:
    """Install the listener in the tab's documents, present and future (same-process frames included)."""
    try:
        target.call("Runtime.addBinding", name=BINDING, executionContextName=WORLD)
        bridge.ask(target, bridge.document_script("download_watch", BINDING, world=WORLD))
    except (CDPError, CDPTimeout):
        pass  # an older browser: such downloads are reported when they begin within the command
