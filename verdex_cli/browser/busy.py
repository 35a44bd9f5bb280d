"""A call that timed out in a user's command: was the page busy (a script that did not return)?

Every document of the tab (the page and its out-of-process frames) is asked a trivial question; the
ones that do not answer are running a script that holds their main thread, and that script is
stopped (``Runtime.terminateExecution``, handled off the main thread). The time-out's message says
which happened, in words, never naming a protocol method.
"""

from __future__ import annotations

from typing import Any

from ..base.errors import VerdexError
from . import bridge

# How long an idle document takes at most to answer the trivial question (a loaded machine included).
PROBE = 1.0

# What a call that timed out on a document that was not busy was waiting for, in words.
_WAITED = {"Runtime.awaitPromise": "The script's promise did not settle",
           bridge.EVALUATE: "The script's promise did not settle",  # (an idle page: it awaits)
           "Page.navigate": "The page did not start loading",
           "Page.reload": "The page did not start loading"}


def stop_busy_scripts(target: Any) -> bool:
    """Stop the script holding any document of ``target``'s tab; True when one was busy."""
    asked = []
    for t in target.tab_targets():
        try:
            asked.append((t, bridge.start(t, bridge.page_read("alive"), PROBE, kept=True, interrupt=False)))
        except VerdexError:  # a document going away is not busy
            continue
    busy = False
    for t, pending in asked:
        try:
            pending.result()
        except VerdexError as exc:
            if exc.kind == "timeout":
                busy = True
                t.interrupt_script()
    return busy


def timeout_message(method: str, limit: float, busy: bool | None, browser: bool = False) -> str:
    """The words for a call unanswered within ``limit`` s: ``busy`` True (its script was stopped),
    False (the page was idle), None (not asked)."""
    if busy:
        return f"The page was busy for {limit:g} s (a script that did not return); it was stopped."
    waited = _WAITED.get(method) if busy is False else None
    return f"{waited or ('The browser' if browser else 'The page') + ' did not answer'} within {limit:g} s."
