"""Know when the work an action's input started is done, without a fixed quiet period.

A page reacts to a click from its handlers at once, and often a moment later: a timer
(``setTimeout(..., 30)`` that clears a field), an animation frame, a chain of them. Nothing in the
protocol lists a document's pending timers, so a small watcher runs in each document's main world
(engine/timer_watch.js, installed before the page's own scripts, and in documents already open): it counts the timers, intervals
(while they run, up to HORIZON_MS) and animation frames *caused by trusted input* -- set while a trusted event is dispatched, or from the
callback of one so caused (a chain), or while verdex's own script-made input events run (a
picker's value) -- until they have run or were cleared. Timers the page sets on
its own (a poll, a clock) are not counted, nor any due more than HORIZON_MS after it is set (a toast
that hides itself later), nor anything of a chain due more than CHAIN_MS after the input that started
it, nor string timers; it also counts the requests the input started (fetch, XMLHttpRequest) until
answered (a debounced search: a keystroke's timer, its fetch, the render), and the scrolls it asked.
CHAIN_MS is beyond the settle's own bound (changes.SETTLE_MAX): work still pending then is named by
the settle's note, never dropped here first. The page's functions are wrapped in proxies, so they keep
their names and their native source text.

The isolated world (act.js ``settle``) asks it through a DOM event with a name secret to this
process: the watcher cancels ``KEY + "?"`` (it is here) and ``KEY`` while work is pending. A page
cannot see the name; one that forged or hid an answer could only make verdex wait (bounded) or
not wait, as it always could with a longer timer. Nothing here prints.
"""

from __future__ import annotations

import secrets

from ..base.errors import ConnectionLost
from . import bridge

KEY = "verdex-pending-" + secrets.token_hex(8)
HORIZON_MS = 1000
CHAIN_MS = 2500
LOAD_GRACE_MS = 30  # as changes.LOAD_GRACE_MS


def follow(target) -> None:
    """Install the watcher in ``target`` and, as each out-of-process frame attaches to it (paused until
    then: connection.py), in that frame's session: there before the frame's document runs its scripts
    (closed shadow roots attached by them are then handed over, not looked for: closed_roots.py)."""
    install(target)
    if "timer_watch follows" in target.scripts:
        return
    target.scripts.add("timer_watch follows")
    target.on("Target.attachedToTarget", lambda targetInfo=None, **_: _attached(target, targetInfo or {}))


def _attached(parent, info: dict) -> None:
    if info.get("type") == "iframe":
        child = parent.child(info.get("targetId", ""))
        if child is not None:
            child.send("Page.enable")  # (else its next document misses the script)
            follow(child)


def install(target) -> None:
    """Install the watcher in the target's documents, present and future (its same-process frames
    included); once per target. Not waited for: the target handles its calls in order, so every later
    call into its documents (an action's checks, the settle) finds it there, and targets are set up
    together instead of one round trip each. A browser that refuses leaves settling to the quiet
    period (the settle finds no watcher)."""
    if "timer_watch" in target.scripts:
        return
    target.scripts.add("timer_watch")
    try:
        bridge.post(target, bridge.document_script("timer_watch", KEY, HORIZON_MS, CHAIN_MS, LOAD_GRACE_MS))
    except ConnectionLost:
        pass
