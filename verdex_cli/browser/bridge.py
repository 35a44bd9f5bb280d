"""The bridge client: the one door to the page -- the only module that sends anything to be evaluated
in one (``Runtime.evaluate``, ``Runtime.callFunctionOn``, ``Page.addScriptToEvaluateOnNewDocument``).

The in-page engine (``engine/*.js``, loaded into verdex's isolated world of every frame) exports one
object, ``globalThis.__verdex``, with the namespaces ``bridge`` (the walk, refs, acting), ``fields``
(text fields and focus), ``targets`` (targets by meaning), ``structure`` (containers, siblings,
anchors) and ``marks``. Python reaches it only through the typed methods of :class:`Bridge`: each
names one engine function, and its arguments travel as JSON values of ``Runtime.callFunctionOn``,
never formatted into source, so a name or a typed text from the page or the user cannot become code.

Every other evaluation is a :class:`Call` made here from a script of the engine's folder
(``engine/loader.py`` ``SCRIPTS``: the page's own reads, the watchers each document gets, the guard
world, ``wait text``) given values, or the user's own ``eval`` expression, passed through unchanged;
other modules send the calls they are handed with :func:`start`, :func:`ask` and :func:`post`.
``tests/test_bridge_only.py`` fails when another module names an evaluation method or holds
JavaScript.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base.errors import VerdexError
from ..engine import loader
from .bridge_fields import FieldCalls

EVALUATE = "Runtime.evaluate"
CALL_FUNCTION = "Runtime.callFunctionOn"
NEW_DOCUMENT = "Page.addScriptToEvaluateOnNewDocument"

_CALL = loader.function("call")  # __verdex[space][fn](...args), or with an element: (this, ...args)

# `wait text` runs in a light world of its own, WAIT_WORLD, in every frame of every process (no engine)
WAIT_WORLD = "verdex-wait"


@dataclass(frozen=True)
class Call:
    """One evaluation in a page, as the protocol takes it: made only here, sent by :func:`start`,
    :func:`ask` or :func:`post` (with ``at``: in a world)."""

    method: str
    params: dict

    def at(self, ctx: int) -> "Call":
        """The same call in the world (execution context) ``ctx``."""
        return Call(self.method, {**self.params, ("contextId" if self.method == EVALUATE else "executionContextId"): ctx})


def start(target: Any, call: Call, timeout: float | None = None, **how: Any):
    """Send ``call`` to ``target``; its ``Pending`` answer (cdp.py: ``how`` is ``kept``/``interrupt``)."""
    return target.start(call.method, timeout, **how, **call.params)


def ask(target: Any, call: Call, timeout: float | None = None, **how: Any) -> dict:
    """Send ``call`` and wait for the raw answer (``how``: ``interrupt``)."""
    return target.call(call.method, timeout=timeout, **how, **call.params)


def post(target: Any, call: Call) -> None:
    """Send ``call``; nobody waits for its answer."""
    target.send(call.method, **call.params)


def invocation(space: str, fn: str, *args: Any, by_value: bool = True, group: str | None = None) -> Call:
    """A call of ``__verdex[space][fn](...args)`` (the world is added with ``at``); a returned promise
    is awaited. ``group``: the object group of a returned remote object (``by_value=False``)."""
    params = {"functionDeclaration": _CALL, "returnByValue": by_value, "awaitPromise": True,
              "arguments": [{"value": space}, {"value": fn}, {"value": list(args)}]}
    if group:
        params["objectGroup"] = group
    return Call(CALL_FUNCTION, params)


def invocation_on(object_id: str, space: str, fn: str, *args: Any) -> Call:
    """Like :func:`invocation`, with the element ``object_id`` as the engine function's first argument."""
    return Call(CALL_FUNCTION, {"objectId": object_id, "functionDeclaration": _CALL, "returnByValue": True,
                                "awaitPromise": True, "arguments": [{"value": space}, {"value": fn},
                                                                    {"value": list(args)}, {"value": True}]})


def capture_call(what: tuple) -> Call:
    """:func:`invocation` of a capture (``what`` as for :meth:`Bridge.capture`), for a world not yet a frame's."""
    return invocation("bridge", *_capture(what))


def tag_owner(object_id: str, frame_id: str) -> Call:
    """Tell the bridge which frame the owner element ``object_id`` (a remote object of its world) shows,
    as :meth:`Bridge.tag_owners` does; its value: the element's slot among the last snapshot's owners
    (-1: not among them)."""
    return invocation_on(object_id, "bridge", "tagOwner", frame_id)


def engine_load(source: str) -> Call:
    """Load the engine's source (the manifest's, unchanged) into a world (``at``)."""
    return Call(EVALUATE, {"expression": source, "returnByValue": True})


def page_read(what: str) -> Call:
    """One of the page's own reads (engine/page_read.js: ``title``, ``readyState``, ``alive``,
    ``scrollY`` once the scroll was drawn), in its main world."""
    return Call(EVALUATE, {"expression": loader.script("page_read", what), "returnByValue": True,
                           "awaitPromise": True})


def user_expression(expression: str) -> Call:
    """The user's own ``eval`` line: evaluated like the DevTools console does (top-level await,
    re-declarable let), in the page's world, unchanged."""
    return Call(EVALUATE, {"expression": expression, "returnByValue": False, "awaitPromise": True,
                           "userGesture": True, "replMode": True, "allowUnsafeEvalBlockedByCSP": True,
                           "objectGroup": "verdex-eval", "generatePreview": True})


def by_value_of(object_id: str) -> Call:
    """The object ``object_id`` itself, by value."""
    return Call(CALL_FUNCTION, {"objectId": object_id, "functionDeclaration": loader.function("by_value"),
                                "returnByValue": True})


def has_text(text: str) -> Call:
    """Is ``text`` in the visible text of the world's (``at``) document?"""
    return Call(CALL_FUNCTION, {"functionDeclaration": loader.function("has_text"), "returnByValue": True,
                                "arguments": [{"value": text}]})


def guard_deny(ms: int) -> Call:
    """The guard of a guard world (``at``; browser/guard_world.py) stops every trusted press, release
    and click for ``ms`` (or until read); its value: true when it does."""
    return Call(CALL_FUNCTION, {"functionDeclaration": loader.function("guard_call"), "returnByValue": True,
                                "arguments": [{"value": "deny"}, {"value": int(ms)}]})


def guard_read() -> Call:
    """What the guard of a guard world (``at``) stopped (it stands down)."""
    return Call(CALL_FUNCTION, {"functionDeclaration": loader.function("guard_call"), "returnByValue": True,
                                "arguments": [{"value": "read"}]})


def document_script(name: str, *values: Any, world: str | None = None) -> Call:
    """Page script ``name`` (engine/NAME.js) given ``values``, run in every document of the target from
    now on and in the current ones (in ``world``, an isolated world, when given)."""
    params: dict = {"source": loader.script(name, *values), "runImmediately": True}
    if world:
        params["worldName"] = world
    return Call(NEW_DOCUMENT, params)


def _capture(what: tuple) -> tuple:
    if not what or what[0] not in ("snapshot", "check") or not all(isinstance(a, int) for a in what[1:]):
        raise ValueError(f"not a capture: {what!r}")
    return what


class Bridge(FieldCalls):
    """Typed calls of one tab's engine. ``frames`` is the tab's ``FrameRegistry`` (it owns the
    isolated worlds: ``run``/``start``/``finish`` send an invocation into a frame's world, setting the
    world up first when its document is new). Results are plain values unless said otherwise."""

    def __init__(self, frames: Any):
        self.frames = frames

    def _value(self, fr, space: str, fn: str, *args: Any, timeout: float | None = None):
        return self.frames.run(fr, invocation(space, fn, *args), timeout)["value"]

    def _object(self, fr, space: str, fn: str, *args: Any, group: str | None = None) -> dict:
        """The raw CDP remote object (``objectId`` when the function returned an element)."""
        return self.frames.run(fr, invocation(space, fn, *args, by_value=False, group=group), None)

    # -- pipelined calls (several frames, one round trip) ---------------------------------------
    def start(self, fr, space: str, fn: str, *args: Any, timeout: float | None = None):
        """Send ``space.fn(...args)`` without waiting (None when the frame's world is not set up yet);
        :meth:`finish` takes the answer."""
        return self.frames.start(fr, invocation(space, fn, *args), timeout)

    def finish(self, fr, started, space: str, fn: str, *args: Any):
        return self.frames.finish(fr, started, invocation(space, fn, *args))["value"]

    def _start_kept(self, fr, space: str, fn: str, *args: Any):
        """Send ``space.fn(...args)`` now, its answer kept for much later (nothing waits on it: left
        out of the round-trip counts); (the pending call, the document) or None when the frame's world
        is not set up or the call cannot be sent."""
        if not self.frames.ready(fr) or fr.detached or not fr.target.alive:
            return None
        try:
            return start(fr.target, invocation(space, fn, *args).at(fr.world_id), kept=True), fr.loader_id
        except Exception:  # noqa: BLE001 - not sent: the caller asks the usual way
            return None

    def post(self, fr, space: str, fn: str, *args: Any) -> None:
        """Call without waiting for the answer at all (bookkeeping a later call finds done)."""
        post(fr.target, invocation(space, fn, *args).at(fr.world_id))

    def owner_calls(self, ctx: int, slots: list[int]) -> list[tuple[str, dict]]:
        """``call_many`` items asking for the frame owner elements ``slots`` (remote objects)."""
        calls = [invocation("bridge", "owner", k, by_value=False, group="verdex-owners").at(ctx) for k in slots]
        return [(c.method, c.params) for c in calls]

    def owner(self, fr, slot: int, via: str = "owner") -> dict:
        """Frame owner ``slot`` as a remote object (group ``verdex-owners``): ``via`` ``owner`` (the
        last snapshot's owners), ``search`` (the last search's) or ``element`` (a ref number)."""
        space, fn = {"owner": ("bridge", "owner"), "search": ("targets", "owner"), "element": ("bridge", "element")}[via]
        return self._object(fr, space, fn, slot, group="verdex-owners")

    def tag_owners(self, fr, found: dict) -> None:
        """Tell the bridge which frame each owner showed (remembered for the next snapshots); no wait."""
        self.post(fr, "bridge", "tagOwners", found)

    def show(self, fr, ns: list[int]) -> None:
        """Tell the registry the user was shown refs ``ns`` as the last capture saw them; no wait (the
        frame's next call finds it done)."""
        self.post(fr, "bridge", "show", ns)

    def carry(self, fr, gone: list) -> None:
        """Hand back the refs a capture whose answer was not used let go of; no wait."""
        self.post(fr, "bridge", "carry", gone)

    def settle_calls(self, frs: list, opts: dict, timeout: float, whats: dict | None = None,
                     caps: dict | None = None) -> list:
        """Start ``settleThen(opts, what, cap)`` in every frame's world at once: (frame, its world's
        document, the pending call) for each frame that could be asked. ``whats``: frame index -> the
        capture (``("snapshot", 0, cap)`` or ``("snapshot",)``) to take in the same call once settled,
        when the frame changed since its capture ``caps[index]`` (see :meth:`dirty`)."""
        out = []
        for fr in frs:
            what = (whats or {}).get(fr.index)
            args = list(_capture(what)[1:]) if what else None
            try:
                ctx = self.frames.world(fr)
                call = invocation("bridge", "settleThen", opts, args, (caps or {}).get(fr.index, 0))
                out.append((fr, fr.world_loader, start(fr.target, call.at(ctx), timeout)))
            except Exception:  # noqa: BLE001 - a frame going away: the capture will say so
                continue
        return out

    # -- bridge: snapshots and refs -----------------------------------------------------------------
    def capture(self, fr, what: tuple) -> str:
        """A capture's JSON text: ``what`` is ``("snapshot",)``, ``("snapshot", n)`` (ref n's subtree),
        ``("snapshot", 0, cap)`` (patches to capture ``cap``), ``("snapshot", 0, cap, view, frame)`` (the
        frame's text instead of its tree: see snapshot/views.py) or ``("check",)``."""
        return self._value(fr, "bridge", *_capture(what))

    def start_capture(self, fr, what: tuple):
        return self.start(fr, "bridge", *_capture(what))

    def finish_capture(self, fr, started, what: tuple) -> str:
        return self.finish(fr, started, "bridge", *_capture(what))

    def start_held_tree(self, fr, cap: int):
        """Ask (without waiting) for the tree of the frame's capture ``cap`` (see finish_held_tree)."""
        return self.start(fr, "bridge", "heldTree", cap)

    def finish_held_tree(self, fr, started, cap: int) -> str | None:
        """That tree as JSON, while its page still holds it (None after another capture, or when it kept
        none: see incremental.js)."""
        return self.finish(fr, started, "bridge", "heldTree", cap)

    def start_dirty(self, fr, cap: int, timeout: float | None = None):
        """Ask (without waiting) whether the frame changed since its capture ``cap`` (the frame's last
        capture, as the caller holds it: a capture taken since, whose answer was lost, counts as a
        change; 0: not known, the change watcher alone answers)."""
        return self.start(fr, "bridge", "dirty", cap, timeout=timeout)

    def dirty(self, fr, cap: int, started=None, timeout: float | None = None) -> bool:
        if started is None:
            return bool(self._value(fr, "bridge", "dirty", cap, timeout=timeout))
        return bool(self.finish(fr, started, "bridge", "dirty", cap))

    def describe(self, fr, n: int) -> dict | None:
        return self._value(fr, "bridge", "describe", n)

    def brief(self, fr, ns: list[int]) -> list:
        return self._value(fr, "bridge", "brief", ns)

    def start_describe(self, fr, n: int):
        return self.start(fr, "bridge", "describe", n)

    def finish_describe(self, fr, started, n: int) -> dict | None:
        return self.finish(fr, started, "bridge", "describe", n)

    def start_brief(self, fr, ns: list[int]):
        return self.start(fr, "bridge", "brief", ns)

    def finish_brief(self, fr, started, ns: list[int]) -> list:
        return self.finish(fr, started, "bridge", "brief", ns)

    def successors(self, fr, n: int, role: str, name: str) -> list:
        return self._value(fr, "bridge", "successors", n, role, name) or []

    def element(self, fr, n: int) -> dict:
        """The element of ref number ``n`` as a remote object (``objectId``), or no object."""
        return self._object(fr, "bridge", "element", n)

    def reset(self, fr, keep_counter: bool) -> None:
        self._value(fr, "bridge", "reset", keep_counter)

    # -- bridge: acting ----------------------------------------------------------------------------
    def prepare(self, fr, n: int, opts: dict, timeout: float) -> dict:
        return self._value(fr, "bridge", "prepare", n, opts, timeout=timeout)

    def start_prepare(self, fr, n: int, opts: dict, timeout: float):
        return self.start(fr, "bridge", "prepare", n, opts, timeout=timeout)

    def finish_prepare(self, fr, started, n: int, opts: dict) -> dict:
        return self.finish(fr, started, "bridge", "prepare", n, opts)

    def arm(self, fr, n: int) -> Any:
        return self._value(fr, "bridge", "arm", n)

    def start_disarm(self, fr, timeout: float = 2):
        return self.start(fr, "bridge", "disarm", timeout=timeout)

    def disarm(self, fr, timeout: float = 2, started=None) -> Any:
        """What the click guard saw (it stops guarding); ``started``: asked already (start_disarm)."""
        if started is not None:
            return self.finish(fr, started, "bridge", "disarm")
        return self._value(fr, "bridge", "disarm", timeout=timeout)

    def start_watch_doc(self, fr, at: list | None, timeout: float = 2):
        """Start watching the trusted mouse events that reach the frame's document (an iframe element's
        click lands there; ``at``: the point in its viewport, None: the centre); None when its world is
        not set up."""
        return self.start(fr, "bridge", "watchDoc", at, timeout=timeout)

    def watch_doc(self, fr, at: list | None, started=None, timeout: float = 2) -> dict:
        """The document's URL, whether it is blank, what is at the point and, an iframe there, the point
        in its viewport (``into``); its watch begun (``started``: asked already)."""
        if started is not None:
            return self.finish(fr, started, "bridge", "watchDoc", at)
        return self._value(fr, "bridge", "watchDoc", at, timeout=timeout)

    def watched_frame(self, fr) -> dict:
        """The iframe at the watched point as a remote object (group ``verdex-owners``), or no object."""
        return self._object(fr, "bridge", "watchedFrame", group="verdex-owners")

    def start_watch_state(self, fr, timeout: float = 2):
        """Has the pointer moved into the watched document, and stayed? (answer by :meth:`finish_watch_state`)"""
        return self.start(fr, "bridge", "watchState", timeout=timeout)

    def finish_watch_state(self, fr, started) -> dict | None:
        return self.finish(fr, started, "bridge", "watchState")

    def start_unwatch_doc(self, fr, settle: bool = False, timeout: float = 2):
        return self.start(fr, "bridge", "unwatchDoc", settle, timeout=timeout)

    def unwatch_doc(self, fr, settle: bool = False, started=None, timeout: float = 2) -> dict:
        """What reached the watched document (its watch ends; ``settle``: two animation frames later)."""
        if started is not None:
            return self.finish(fr, started, "bridge", "unwatchDoc", settle)
        return self._value(fr, "bridge", "unwatchDoc", settle, timeout=timeout)

    def navigating(self, fr, timeout: float = 2) -> bool:
        return bool(self._value(fr, "bridge", "navigating", timeout=timeout))

    def hovered(self, fr, n: int, timeout: float = 2) -> Any:
        return self._value(fr, "bridge", "hovered", n, timeout=timeout)

    def options(self, fr, n: int) -> dict:
        return self._value(fr, "bridge", "options", n)

    def option_point(self, fr, n: int, index: int) -> dict:
        return self._value(fr, "bridge", "optionPoint", n, index)

    def owner_hit(self, target, object_id: str, q: list[float], quad: list[float] | None) -> dict | None:
        """The frame owner ``object_id`` maps ``q`` into its viewport and is hit-tested there."""
        res = ask(target, invocation_on(object_id, "bridge", "ownerHit", q, quad))
        return res["result"].get("value")

    def start_owner_hit(self, target, object_id: str, q: list[float], quad: list[float] | None):
        """:meth:`owner_hit` sent now; ``.result()["result"].get("value")`` later."""
        return start(target, invocation_on(object_id, "bridge", "ownerHit", q, quad))

    def start_viewport(self, fr):
        """The frame's viewport size ([width, height]), asked now (None when its world is not set up)."""
        return self.start(fr, "bridge", "viewport")

    def finish_viewport(self, fr, started) -> list[float]:
        return self.finish(fr, started, "bridge", "viewport")

    def nav_status(self, fr, timeout: float | None = None) -> int:
        """The HTTP status of the frame's document (0 when the browser does not know it)."""
        return self._value(fr, "bridge", "navStatus", timeout=timeout) or 0

    def chooser_input(self, target, object_id: str) -> dict | None:
        """A ref for the file input ``object_id`` whose chooser the page opened, and what it is."""
        return ask(target, invocation_on(object_id, "fields", "chooser"))["result"].get("value")

    def holds_focus(self, target, object_id: str) -> Any:
        """True when the frame owner ``object_id`` is its document's focused element, else where focus is."""
        return ask(target, invocation_on(object_id, "fields", "holds"))["result"].get("value")

    def visibility(self, fr) -> str:
        """``document.visibilityState`` (the tab's, from any of its frames)."""
        return self._value(fr, "bridge", "visibility")

    # -- refs drawn on a screenshot (marks.js) ----------------------------------------------------
    def ref_boxes(self, asks: list[tuple[Any, list[int], bool]]) -> list[dict | None]:
        """For each (frame, ref numbers, whole document): the boxes of those refs there (marks.boxes),
        every frame asked at once; None for a frame that could not answer (it went away meanwhile)."""
        started = [(fr, ns, whole, self.start(fr, "marks", "boxes", ns, whole)) for fr, ns, whole in asks]
        out: list[dict | None] = []
        for fr, ns, whole, pending in started:
            try:
                out.append(self.finish(fr, pending, "marks", "boxes", ns, whole) if pending is not None
                           else self._value(fr, "marks", "boxes", ns, whole))
            except VerdexError:
                out.append(None)
        return out

    def draw_marks(self, fr, items: list, whole: bool) -> int:
        """Outline and label ``items`` ([label, x, y, w, h]) over the frame's page until erase_marks."""
        return self._value(fr, "marks", "draw", items, whole)

    def erase_marks(self, fr) -> None:
        self._value(fr, "marks", "erase")
