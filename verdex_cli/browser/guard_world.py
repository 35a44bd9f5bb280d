"""A click guard in every document of the tab from its first moment, for the clicks meant for another
document (act/frame_guard.py).

A small script (engine/guard_world.js) runs in an isolated world of its own ("verdex-guard") in every document of the tab and of
its out-of-process frames, before any page script: it listens for trusted presses, releases and clicks
on its window, first in line (so before the page's own listeners there), and does nothing until told.
Told to deny (for a bounded time: a guard that nobody takes down ends by itself), it stops every such
event and remembers what it would have reached; read, it tells that and stands down. The worlds' contexts
are known from the protocol's events (frame id -> context), so a guard is armed with one call, sent with
whatever else goes out, and no document needs verdex's engine or a capture first. The page cannot see
the world. Nothing here prints."""

from __future__ import annotations

import json
from contextlib import suppress

from ..base.errors import ConnectionLost
from . import bridge, worlds

WORLD = "verdex-guard"
LEFT = "__verdexGuardLeft"  # the element's own click guard (engine/guard.js), told as its document goes away

class GuardWorld:
    """The guard worlds of one tab: frame id -> (its session, the world's context id)."""

    def __init__(self) -> None:
        self.contexts: dict[str, tuple[object, int]] = {}
        self._watched: list = []  # the sessions followed
        self.left: dict[str, dict] = {}  # session id -> what an armed click guard saw before its document went

    def watch(self, target) -> None:
        """Follow ``target``'s guard worlds and put the script in its documents, present and future (once
        per session; before its Runtime domain is turned on, so the contexts it reports are heard)."""
        if any(t is target for t in self._watched):
            return
        self._watched.append(target)
        target.on("Runtime.executionContextCreated", lambda context=None, **_: self._created(target, context))
        target.on("Runtime.executionContextDestroyed",
                  lambda executionContextId=-1, **_: self._forget(target, executionContextId))
        target.on("Runtime.executionContextsCleared", lambda **_: self._forget(target))
        target.on("Runtime.bindingCalled", lambda name="", payload="", **_: self._left(target, name, payload))
        try:
            target.send("Runtime.addBinding", name=LEFT, executionContextName=worlds.WORLD_NAME)
            bridge.post(target, bridge.document_script("guard_world", world=WORLD))
        except ConnectionLost:
            pass

    def _created(self, target, context: dict | None) -> None:
        aux = (context or {}).get("auxData") or {}
        if context and context.get("name") == WORLD and aux.get("frameId"):
            self.contexts[aux["frameId"]] = (target, context["id"])

    def _left(self, target, name: str, payload: str) -> None:
        if name == LEFT:
            with suppress(ValueError):
                self.left[target.id or ""] = json.loads(payload)

    def _forget(self, target, ctx_id: int | None = None) -> None:
        """The world ``ctx_id`` of ``target`` is gone (None: all of its worlds)."""
        for fid, (t, ctx) in list(self.contexts.items()):
            if t is target and ctx_id in (None, ctx):
                del self.contexts[fid]

    def others(self, frame_id: str) -> list[tuple[str, object, int]]:
        """Every guarded document of the tab but frame ``frame_id``'s: (frame id, session, context)."""
        return [(fid, t, ctx) for fid, (t, ctx) in list(self.contexts.items())
                if fid != frame_id and t.alive]
