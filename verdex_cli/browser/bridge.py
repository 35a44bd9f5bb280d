"""The bridge client: the only module that sends JavaScript to a page.

The in-page engine (``snapshot/*.js``, loaded into verdex's isolated world of every frame) exports one
object, ``globalThis.__verdex``, with four namespaces: ``bridge`` (the walk, refs, acting), ``fields``
(text fields and focus), ``targets`` (targets by meaning) and ``structure`` (containers, siblings,
anchors). Python reaches it only through the typed methods of :class:`Bridge`: each names one engine
function, and its arguments travel as JSON values of ``Runtime.callFunctionOn``, never formatted into
source, so a name or a typed text from the page or the user cannot become code.

The few scripts of the page's own (main) world are constants here too: ``document.title``, the
navigation's HTTP status, the download and timer watchers (their values substituted as JSON literals
by :func:`with_values`), and the user's own ``eval`` expression, passed through unchanged.
``tests/test_bridge_only.py`` fails when another module sends JavaScript source.
"""

from __future__ import annotations

import json
from typing import Any

from ..base.errors import VerdexError
from . import closed_roots
from .bridge_fields import FieldCalls

# __verdex[space][fn](...args), or with an element: (this, ...args)
_CALL = "function (space, fn, args) { const api = globalThis.__verdex[space]; return api[fn].apply(api, args); }"
_CALL_ON = ("function (space, fn, args) { const api = globalThis.__verdex[space]; "
            "return api[fn].apply(api, [this].concat(args)); }")
_SELF = "function () { return this; }"

# main-world (page-owned) expressions: constants, read-only
TITLE = "document.title"
READY_STATE = "document.readyState"
SCROLL_Y_AFTER_FRAMES = "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(window.scrollY))))"
ALIVE = "0"

# `wait text`: is the text in one document's visible text, through open shadow roots? (a light world
# of its own, WAIT_WORLD, in every frame of every process: no engine needed)
WAIT_WORLD = "verdex-wait"
_HAS_TEXT = """function (text) {
  const want = text.replace(/\\s+/g, ' ').trim();
  const parts = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) {
        for (const c of el.shadowRoot.children) parts.push(c.innerText || c.textContent || '');
        walk(el.shadowRoot);
      }
    }
  };
  parts.push(document.body ? document.body.innerText : (document.documentElement || {}).textContent || '');
  walk(document);
  return parts.join(' ').replace(/\\s+/g, ' ').includes(want);
}"""


def invocation(space: str, fn: str, *args: Any, by_value: bool = True, group: str | None = None) -> dict:
    """``Runtime.callFunctionOn`` parameters (the context is added by the caller) calling
    ``__verdex[space][fn](...args)``; a returned promise is awaited. ``group``: the object group of
    a returned remote object (``by_value=False``)."""
    out = {"functionDeclaration": _CALL, "returnByValue": by_value, "awaitPromise": True,
           "arguments": [{"value": space}, {"value": fn}, {"value": list(args)}]}
    if group:
        out["objectGroup"] = group
    return out


def invocation_on(object_id: str, space: str, fn: str, *args: Any) -> dict:
    """Like :func:`invocation`, with the element ``object_id`` as the engine function's first argument."""
    return {"objectId": object_id, "functionDeclaration": _CALL_ON, "returnByValue": True, "awaitPromise": True,
            "arguments": [{"value": space}, {"value": fn}, {"value": list(args)}]}


def capture_call(what: tuple) -> dict:
    """:func:`invocation` of a capture (``what`` as for :meth:`Bridge.capture`), for a world not yet a frame's."""
    return invocation("bridge", *_capture(what))


# closed shadow roots resolved in a frame's world (browser/closed_roots.py): handed to the engine
_ADOPT_CLOSED = "function (...roots) { return globalThis.__verdex.bridge.adoptClosed(roots); }"
WANT_CLOSED = '{"wantClosed":'  # how a capture answers that closed roots are to be resolved first


def adopt_closed(ctx: int, object_ids: list[str]) -> dict:
    """``Runtime.callFunctionOn`` parameters handing the closed shadow roots ``object_ids`` (remote
    objects of world ``ctx``) to the engine, which walks them from then on."""
    return {"executionContextId": ctx, "functionDeclaration": _ADOPT_CLOSED, "returnByValue": True,
            "arguments": [{"objectId": o} for o in object_ids]}


def tag_owner(object_id: str, frame_id: str) -> dict:
    """``Runtime.callFunctionOn`` parameters telling the bridge which frame the owner element
    ``object_id`` (a remote object of its world) shows, as :meth:`Bridge.tag_owners` does; its value:
    the element's slot among the last snapshot's owners (-1: not among them)."""
    return invocation_on(object_id, "bridge", "tagOwner", frame_id)


def engine_load(source: str) -> dict:
    """``Runtime.evaluate`` parameters loading the engine's source (the manifest's, unchanged)."""
    return {"expression": source, "returnByValue": True}


def constant(expression: str, **extra: Any) -> dict:
    """``Runtime.evaluate`` parameters for one of this module's constant expressions."""
    return {"expression": expression, "returnByValue": True, **extra}


def user_expression(expression: str) -> dict:
    """``Runtime.evaluate`` parameters for the user's own ``eval`` line: evaluated like the DevTools
    console does (top-level await, re-declarable let), in the page's world, unchanged."""
    return {"expression": expression, "returnByValue": False, "awaitPromise": True, "userGesture": True,
            "replMode": True, "allowUnsafeEvalBlockedByCSP": True, "objectGroup": "verdex-eval",
            "generatePreview": True}


def by_value_of(object_id: str) -> dict:
    """``Runtime.callFunctionOn`` parameters returning the object ``object_id`` itself, by value."""
    return {"objectId": object_id, "functionDeclaration": _SELF, "returnByValue": True}


def has_text(ctx: int, text: str) -> dict:
    """``Runtime.callFunctionOn`` parameters: is ``text`` in the visible text of world ``ctx``'s document?"""
    return {"executionContextId": ctx, "functionDeclaration": _HAS_TEXT, "returnByValue": True,
            "arguments": [{"value": text}]}


# the guard world's two calls (browser/guard_world.py): its guard told to stop for ``ms``, and read
_GUARD_DENY = "(ms) => globalThis.__verdexGuard ? globalThis.__verdexGuard.deny(ms) : false"
_GUARD_READ = "() => globalThis.__verdexGuard ? globalThis.__verdexGuard.read() : []"


def guard_deny(ctx: int, ms: int) -> dict:
    """``Runtime.callFunctionOn`` parameters: the guard of world ``ctx`` stops every trusted press,
    release and click for ``ms`` (or until read); its value: true when it does."""
    return {"executionContextId": ctx, "functionDeclaration": _GUARD_DENY, "returnByValue": True,
            "arguments": [{"value": int(ms)}]}


def guard_read(ctx: int) -> dict:
    """``Runtime.callFunctionOn`` parameters: what the guard of world ``ctx`` stopped (it stands down)."""
    return {"executionContextId": ctx, "functionDeclaration": _GUARD_READ, "returnByValue": True}


def new_document_script(source: str, world: str | None = None) -> dict:
    """``Page.addScriptToEvaluateOnNewDocument`` parameters: ``source`` runs in every document of the
    target from now on, and in the current ones (in ``world``, an isolated world, when given)."""
    out: dict = {"source": source, "runImmediately": True}
    if world:
        out["worldName"] = world
    return out


def with_values(template: str, **values: Any) -> str:
    """A main-world script with ``%(name)s`` placeholders filled with JSON literals of ``values``
    (numbers and strings only: never code)."""
    for v in values.values():
        if not isinstance(v, (int, float, str)) or isinstance(v, bool):
            raise TypeError("with_values takes numbers and strings only")
    return template % {k: json.dumps(v) for k, v in values.items()}


def _object_of(pending) -> dict | None:
    try:
        res = pending.result()
    except VerdexError:
        return None
    return res.get("result") if "exceptionDetails" not in res else None


def _wanted(answer) -> dict | None:
    """What an engine answer asks for before it can be given (``WANT_CLOSED``), or None."""
    if isinstance(answer, str):
        return json.loads(answer)["wantClosed"] if answer.startswith(WANT_CLOSED) else None
    return answer.get("wantClosed") if isinstance(answer, dict) else None


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
            return fr.target.start("Runtime.callFunctionOn", kept=True, executionContextId=fr.world_id,
                                   **invocation(space, fn, *args)), fr.loader_id
        except Exception:  # noqa: BLE001 - not sent: the caller asks the usual way
            return None

    def post(self, fr, space: str, fn: str, *args: Any) -> None:
        """Call without waiting for the answer at all (bookkeeping a later call finds done)."""
        fr.target.send("Runtime.callFunctionOn", executionContextId=fr.world_id, **invocation(space, fn, *args))

    def owner_calls(self, ctx: int, slots: list[int]) -> list[tuple[str, dict]]:
        """``call_many`` items asking for the frame owner elements ``slots`` (remote objects)."""
        return [("Runtime.callFunctionOn", {"executionContextId": ctx,
                                            **invocation("bridge", "owner", k, by_value=False, group="verdex-owners")})
                for k in slots]

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

    def show_now(self, fr, n: int) -> None:
        """Tell the registry the user was shown ref ``n`` as it is now (inspect); no wait."""
        self.post(fr, "bridge", "showNow", n)

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
                out.append((fr, fr.world_loader, fr.target.start(
                    "Runtime.callFunctionOn", timeout=timeout, executionContextId=ctx,
                    **invocation("bridge", "settleThen", opts, args, (caps or {}).get(fr.index, 0)))))
            except Exception:  # noqa: BLE001 - a frame going away: the capture will say so
                continue
        return out

    # -- bridge: snapshots and refs -----------------------------------------------------------------
    def capture(self, fr, what: tuple) -> str:
        """A capture's JSON text: ``what`` is ``("snapshot",)``, ``("snapshot", n)`` (ref n's subtree),
        ``("snapshot", 0, cap)`` (patches to capture ``cap``), ``("snapshot", 0, cap, view, frame)`` (the
        frame's text instead of its tree: see snapshot/views.py) or ``("check",)``."""
        again = lambda: self._value(fr, "bridge", *_capture(what))  # noqa: E731
        return self._closed_first(fr, again(), again)

    def start_capture(self, fr, what: tuple):
        return self.start(fr, "bridge", *_capture(what))

    def finish_capture(self, fr, started, what: tuple) -> str:
        return self._closed_first(fr, self.finish(fr, started, "bridge", *_capture(what)),
                                  lambda: self._value(fr, "bridge", *_capture(what)))

    def _closed_first(self, fr, answer, again):
        """An answer (a capture's, a search's) saying that closed shadow roots are to be resolved
        first: resolved (closed_roots.py), and ``again()`` asked anew (a root inside another closed root
        is found once that one is held); after ROUNDS, asked once without resolving more."""
        for done in range(closed_roots.ROUNDS + 1):
            want = _wanted(answer)
            if want is None:
                break
            if done < closed_roots.ROUNDS:
                closed_roots.adopt(self, fr, want)
            else:  # a page that attaches closed roots all the time
                self._value(fr, "bridge", "closedLater")
            answer = again()
        return answer

    def closed_objects(self, fr, count: int, scan: bool, group: str) -> list:
        """Remote objects (group ``group``) of the engine's world: the hosts whose closed roots it wants
        (``count``), then, with ``scan``, its document; sent at once. Each is a dict or None."""
        calls = [("closedHost", i) for i in range(count)] + ([("doc",)] if scan else [])
        sent = [fr.target.start("Runtime.callFunctionOn", executionContextId=fr.world_id,
                                **invocation("bridge", *c, by_value=False, group=group)) for c in calls]
        return [_object_of(p) for p in sent]

    def hand_closed(self, fr, object_ids: list[str]) -> None:
        """Hand the closed roots ``object_ids`` (objects of the frame's world) to its engine."""
        fr.target.call("Runtime.callFunctionOn", **adopt_closed(fr.world_id, object_ids))

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

    def hovered(self, fr, n: int, timeout: float = 2, late: bool = False) -> Any:
        return self._value(fr, "bridge", "hovered", n, late, timeout=timeout)

    def options(self, fr, n: int) -> dict:
        return self._value(fr, "bridge", "options", n)

    def option_point(self, fr, n: int, index: int) -> dict:
        return self._value(fr, "bridge", "optionPoint", n, index)

    def owner_hit(self, target, object_id: str, q: list[float], quad: list[float] | None) -> dict | None:
        """The frame owner ``object_id`` maps ``q`` into its viewport and is hit-tested there."""
        res = target.call("Runtime.callFunctionOn", **invocation_on(object_id, "bridge", "ownerHit", q, quad))
        return res["result"].get("value")

    def start_owner_hit(self, target, object_id: str, q: list[float], quad: list[float] | None):
        """:meth:`owner_hit` sent now; ``.result()["result"].get("value")`` later."""
        return target.start("Runtime.callFunctionOn", **invocation_on(object_id, "bridge", "ownerHit", q, quad))

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
        return target.call("Runtime.callFunctionOn", **invocation_on(object_id, "fields", "chooser"))["result"].get("value")

    def holds_focus(self, target, object_id: str) -> Any:
        """True when the frame owner ``object_id`` is its document's focused element, else where focus is."""
        return target.call("Runtime.callFunctionOn", **invocation_on(object_id, "fields", "holds"))["result"].get("value")

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
