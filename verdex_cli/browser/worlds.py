"""The isolated world of each frame document, where the in-page engine lives, and the calls into it.

A frame's world is made when its document is first asked something (or ahead, for many frames at
once: ``prepare``) and made again when the frame's document changes (its loader id); its engine then
numbers refs on from the tab's numbering (numbering.py). The calls are the bridge client's
invocations (bridge.py), sent as values. A mixin of ``frames.FrameRegistry``, which owns the
``Frame`` fields it writes (``world_id``, ``world_loader``, ``renumber``)."""

from __future__ import annotations

from typing import Any

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, JSError, VerdexError
from . import bridge
from .bridge import Call, engine_load, invocation
from .cdp import Pending, Target, finish_all
from .js_values import describe_exception
from .timer_watch import KEY as WATCH_KEY

WORLD_NAME = "verdex"


def new_world(frame_id: str) -> dict:
    """``Page.createIsolatedWorld`` parameters: verdex's world in the frame."""
    return {"frameId": frame_id, "worldName": WORLD_NAME, "grantUniveralAccess": False}



def init_call(start: int, new_doc: bool) -> Call:
    """The engine's first call in a new world: its numbering, and the names of the main world watcher's
    events (a shadow root attached: the change watcher sees no mutation then; closed roots' hosts)."""
    return invocation("bridge", "init", start, new_doc, WATCH_KEY)

class Worlds:
    """Isolated worlds of a FrameRegistry's frames (``Any``: a frames.Frame)."""

    # -- isolated worlds -----------------------------------------------------------
    def world(self, fr: Any) -> int:
        return self._world(fr)[0]

    def ready(self, fr: Any) -> bool:
        """Its isolated world is set up for its current document."""
        return fr.world_id is not None and fr.world_loader == fr.loader_id

    def _world(self, fr: Any, then: tuple[Call, float | None] | None = None) -> tuple[int, Pending | None]:
        """(the frame's world, the pending answer of ``then`` -- a bridge invocation (bridge.py) and its
        time-out -- sent right after the engine's set-up in a new world, or None when the world was ready)."""
        if self.ready(fr):
            return fr.world_id, None
        made = self._made.pop(fr.frame_id, (None, None))  # created ahead (prepare), on this session
        made = made[0] if made[1] is fr.target else None
        ctx = made if made is not None else fr.target.call(
            "Page.createIsolatedWorld", **new_world(fr.frame_id))["executionContextId"]
        numbered = self.numbering(fr)
        # the engine's source, its numbering and the first call: one round trip (a target answers in order)
        setup = [bridge.start(fr.target, engine_load().at(ctx))]
        pending = None
        try:
            setup.append(bridge.start(fr.target, init_call(*numbered).at(ctx)))
            if then is not None:
                pending = bridge.start(fr.target, then[0].at(ctx), then[1])
            outs = [p.result() for p in setup]
        except BaseException as exc:
            for p in setup + ([pending] if pending is not None else []):
                p.drop()
            if made is None or not isinstance(exc, CDPError):
                raise
            return self._world(fr, then)  # the world made ahead is gone (the document changed): anew
        failed = next((o for o in outs if "exceptionDetails" in o), None)
        if failed is not None:
            if pending is not None:
                pending.drop()
            raise JSError("The snapshot bridge failed to load: " + describe_exception(failed["exceptionDetails"]))
        fr.world_id, fr.world_loader, fr.renumber = ctx, fr.loader_id, False
        return ctx, pending

    def numbering(self, fr: Any) -> tuple[int, bool]:
        """A bridge is being set up for the frame's current document: (the number it continues after,
        whether the document is new to the frame's numbering), as ``RefNumbers.start`` records it."""
        if fr.index == 0 and self.numbers.came_back(0, fr.loader_id):
            self._restored()  # in case the browser did not say so (see on_frame_navigated)
        main = fr.loader_id if fr.index == 0 else self.main.loader_id
        return self.numbers.start(fr.index, fr.loader_id, main, fr.url, again=fr.renumber)

    def adopt(self, fr: Any, ctx: int, loader: str, numbered: tuple[int, bool] | None = None) -> bool:
        """A world set up ahead for the frame's document ``loader`` (its engine loaded and numbered:
        ``numbered``, the arguments its init was given; None: numbered already) becomes the frame's.
        False when it is not the frame's document or was numbered otherwise (then it is not used)."""
        if fr.loader_id != loader or (numbered is not None and self.numbering(fr) != numbered):
            return False
        fr.world_id, fr.world_loader, fr.renumber = ctx, loader, False
        return True

    def prepare(self, items: list[tuple[str, Target, bool]]) -> dict[str, dict]:
        """Frames about to be captured for the first time (frame id, its session, out of process),
        made ready all at once, in one round trip: an out-of-process frame's session gets its
        domains and tells its frame; each frame gets its isolated world (taken by world()).
        Returns frame id -> the frame's dict from its own session's tree (out-of-process frames)."""
        calls = []
        for frame_id, target, oopif in items:
            methods = []
            if oopif:
                calls += [(frame_id, "enable", pending) for pending in self.start_enable(target)]
                methods.append(("Page.getFrameTree", {}))
            methods.append(("Page.createIsolatedWorld", new_world(frame_id)))
            for method, params in methods:
                try:
                    calls.append((frame_id, method, target.start(method, **params)))
                except (CDPError, CDPTimeout, ConnectionLost):
                    break
        trees: dict[str, dict] = {}
        for (frame_id, method, pending), res in zip(calls, finish_all([c[2] for c in calls])):
            if isinstance(res, VerdexError):
                continue  # (a frame going away: its capture says so)
            if method == "Page.getFrameTree":
                trees[frame_id] = res["frameTree"]["frame"]
            elif method == "Page.createIsolatedWorld":
                self._made[frame_id] = (res["executionContextId"], pending.target)
        return trees

    def forget_prepared(self) -> None:
        self._made.clear()

    def run(self, fr: Any, call: Call, timeout: float | None = None, sent: tuple[Pending, str] | None = None,
            again: bool = True) -> dict:
        """Send a bridge invocation (bridge.py) into the frame's isolated world, setting the world up
        first when its document is new (``sent``: the call as :meth:`start` sent it); returns the raw CDP
        result (its ``value``, or the remote object when the call asked for one). A world gone meanwhile
        (the document changed) is set up again and the call made there."""
        if sent is not None:
            answer = sent[0].result
        else:
            ctx, pending = self._world(fr, then=(call, timeout))
            answer = pending.result if pending is not None else lambda: bridge.ask(fr.target, call.at(ctx), timeout)
        try:
            res = answer()
        except CDPError as exc:
            if not again or "context" not in str(exc).lower():
                raise
            fr.world_id = None
            cur = self.current_loader(fr)
            if cur:
                fr.loader_id, fr.url = cur
            return self.run(fr, call, timeout, again=sent is not None)
        if "exceptionDetails" in res:
            raise JSError(describe_exception(res["exceptionDetails"]))
        return res["result"]

    def start(self, fr: Any, call: Call, timeout: float | None = None,
              kept: bool = False) -> tuple[Pending, str] | None:
        """Send an invocation into the frame's isolated world without waiting (answered by :meth:`run`):
        only when the world is already set up (None otherwise, or when the call cannot be sent).
        Returns (the pending call, the document the world was made for)."""
        if not self.ready(fr) or fr.detached or not fr.target.alive:
            return None
        try:
            return bridge.start(fr.target, call.at(fr.world_id), timeout, kept=kept), fr.loader_id
        except (CDPError, CDPTimeout, ConnectionLost):
            return None
