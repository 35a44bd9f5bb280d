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

import json
from dataclasses import dataclass
from typing import Any

from ..base.errors import VerdexError
from ..engine import loader
from . import closed_roots

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


WANT_CLOSED = '{"wantClosed":'  # how a capture answers that closed roots are to be resolved first


def _function(name: str, *values: Any, **params: Any) -> Call:
    """A call of the engine's page function ``name`` (engine/functions) given ``values``, by value."""
    return Call(CALL_FUNCTION, {"functionDeclaration": loader.function(name), "returnByValue": True,
                                "arguments": [{"value": v} for v in values], **params})


def adopt_closed(object_ids: list[str]) -> Call:
    """Hand the closed shadow roots ``object_ids`` (remote objects of a world: ``at``;
    browser/closed_roots.py) to the engine, which walks them from then on."""
    return _function("adopt_closed", arguments=[{"objectId": o} for o in object_ids])


def tag_owner(object_id: str, frame_id: str) -> Call:
    """Tell the bridge which frame the owner element ``object_id`` (a remote object of its world) shows,
    as :meth:`Bridge.tag_owners` does; its value: the element's slot among the last snapshot's owners
    (-1: not among them)."""
    return invocation_on(object_id, "bridge", "tagOwner", frame_id)


def page_script(name: str, *values) -> str:
    """A page script of the engine (engine/NAME.js) applied to ``values``: the source the demo server
    serves its pages, or a watcher's (``watch``)."""
    return loader.script(name, *values)


def engine_load() -> Call:
    """Load the in-page engine (engine/loader.py's source, the manifest's) into a world (``at``)."""
    return Call(EVALUATE, {"expression": loader.source(), "returnByValue": True})


def page_read(what: str) -> Call:
    """One of the page's own reads (engine/page_read.js: title, readyState, alive), in its main world."""
    return Call(EVALUATE, {"expression": loader.script("page_read", what), "returnByValue": True})


def user_expression(expression: str) -> Call:
    """The user's own ``eval`` line: evaluated like the DevTools console does (top-level await,
    re-declarable let), in the page's world, unchanged."""
    return Call(EVALUATE, {"expression": expression, "returnByValue": False, "awaitPromise": True,
                           "userGesture": True, "replMode": True, "allowUnsafeEvalBlockedByCSP": True,
                           "objectGroup": "verdex-eval", "generatePreview": True})


def by_value_of(object_id: str) -> Call:
    """The object ``object_id`` itself, by value."""
    return _function("by_value", objectId=object_id)


def has_text(text: str, key: str = "") -> Call:
    """Is ``text`` in the visible text of the world's (``at``) document? ('closed': ask :meth:`Bridge.has_text`;
    ``key``: the main world watcher's, timer_watch.py)"""
    return _function("has_text", text, key)


def guard_deny(ms: int) -> Call:
    """The guard of a guard world (``at``; browser/guard_world.py) stops every trusted press, release
    and click for ``ms`` (or until read); its value: true when it does."""
    return _function("guard_call", "deny", int(ms))


def guard_read() -> Call:
    """What the guard of a guard world (``at``) stopped (it stands down)."""
    return _function("guard_call", "read")


def document_script(name: str, *values: Any, world: str | None = None) -> Call:
    """Page script ``name`` (engine/NAME.js) given ``values``, run in every document of the target from
    now on and in the current ones (in ``world``, an isolated world, when given)."""
    params: dict = {"source": page_script(name, *values), "runImmediately": True}
    if world:
        params["worldName"] = world
    return Call(NEW_DOCUMENT, params)


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


class Asked:
    """One engine call sent now and answered later, for many frames (or many questions) to share one
    round trip: what a typed call of :class:`Bridge` returns when asked ``later``. :meth:`value` takes
    the answer -- asking the usual way when the call could not be sent (``sent`` is None: the frame's
    world was not set up yet), or again in a new world when the document changed meanwhile; a ``kept``
    call (its answer awaited by nobody for a long time) is never asked again: None then. ``then``
    turns the answer into the typed method's result."""

    def __init__(self, frames: Any, fr: Any, call: Call, timeout: float | None = None, then=None,
                 kept: bool = False, sent: tuple | None = None):
        self.frames, self.fr, self.call, self.timeout, self.then, self.kept = frames, fr, call, timeout, then, kept
        self.sent = sent if sent is not None else frames.start(fr, call, timeout, kept=kept)  # (pending, document)

    @property
    def loader(self) -> str | None:
        """The document the call was sent to (None: not sent)."""
        return self.sent[1] if self.sent is not None else None

    def value(self) -> Any:
        if self.kept:
            try:
                res = self.sent[0].result() if self.sent is not None else {"exceptionDetails": "not sent"}
            except Exception:  # noqa: BLE001 - the world or the session ended: not asked again
                return None
            return None if "exceptionDetails" in res else res["result"].get("value")
        out = self.frames.run(self.fr, self.call, self.timeout, self.sent)["value"]
        return self.then(out) if self.then is not None else out

    def drop(self) -> None:
        """Let the answer go unread."""
        if self.sent is not None:
            self.sent[0].drop()


def _engine(space: str, fn: str, timeout: float | None = None, then=None):
    """A :class:`Bridge` method calling the engine's ``space.fn`` with the arguments it is given after
    the frame: its value (``then`` applied), or its :class:`Asked` with ``later=True``."""
    def method(self, fr, *args: Any, timeout: float | None = timeout, later: bool = False):
        return self._value(fr, space, fn, *args, timeout=timeout, later=later, then=then)
    return method


def _posted(space: str, fn: str):
    """A :class:`Bridge` method calling the engine's ``space.fn`` without waiting (the frame's next
    call finds it done)."""
    def method(self, fr, *args: Any) -> None:
        self.post(fr, space, fn, *args)
    return method


def _list(value) -> list:
    return value or []


class Bridge:
    """Typed calls of one tab's engine. ``frames`` is the tab's ``FrameRegistry``: it owns the isolated
    worlds (``run`` sends an invocation into a frame's world, setting the world up first when its
    document is new). Results are plain values unless said otherwise; a call asked ``later`` returns its
    :class:`Asked` (one shape for every pipelined call). Each plain call below takes the frame, then the
    engine function's arguments (named in its comment)."""

    def __init__(self, frames: Any):
        self.frames = frames

    def _value(self, fr, space: str, fn: str, *args: Any, timeout: float | None = None, later: bool = False,
               then=None, sent: tuple | None = None):
        call = invocation(space, fn, *args)
        if later or sent is not None:
            return Asked(self.frames, fr, call, timeout, then, sent=sent)
        out = self.frames.run(fr, call, timeout)["value"]
        return then(out) if then is not None else out

    def _object(self, fr, space: str, fn: str, *args: Any, group: str | None = None) -> dict:
        """The raw CDP remote object (``objectId`` when the function returned an element)."""
        return self.frames.run(fr, invocation(space, fn, *args, by_value=False, group=group), None)

    def _kept(self, fr, space: str, fn: str, *args: Any) -> Asked:
        """Send ``space.fn(...args)`` now, its answer kept for much later (nothing waits on it: left out
        of the round-trip counts); its value None when it could not be sent or answered."""
        return Asked(self.frames, fr, invocation(space, fn, *args), kept=True)

    def post(self, fr, space: str, fn: str, *args: Any) -> None:
        """Call without waiting for the answer at all (bookkeeping a later call finds done)."""
        post(fr.target, invocation(space, fn, *args).at(fr.world_id))

    # -- fields and focus (fields.js) ------------------------------------------------------------
    field_info = _engine("fields", "info")  # (n): kind, type, read-only, disabled, value: how fill/type may set it
    field_value = _engine("fields", "value")  # (n): the field's value and state now
    select_all = _engine("fields", "selectAll", then=bool)  # (n): typed text replaces it; False: no text
    caret_to_end = _engine("fields", "caretToEnd")  # (n): typing then appends
    check_picker = _engine("fields", "checkPicker")  # (n, text): a value the field's own picker could set?
    # (n, value, key): set as the field's picker does (value, input and change events); ``key`` names
    # the timer watcher, so what the page's handlers start is waited for
    set_picker = _engine("fields", "setPicker")
    files = _engine("fields", "files", then=_list)  # (n): the names of the files a file input holds
    watch_field = _posted("fields", "watchField")  # (n): record every state the browser gives it (unwatch: if it did)
    unwatch_field = _engine("fields", "unwatchField", timeout=5)  # (n): the states recorded
    options_now = _engine("fields", "optionsNow")  # (n): select n's options now, or its replacement's
    checked_now = _engine("fields", "checkedNow")  # (n): the checked state now, or its replacement's
    focused = _engine("fields", "focused")  # (): the document's deep focused element, described
    focus_state = _engine("fields", "focusState")  # (n): is n the deep focused element, or where is focus?
    focus = _engine("fields", "focus")  # (n)
    arm_keys = _engine("fields", "armKeys")  # (n): key events bound elsewhere than n are stopped
    disarm_keys = _engine("fields", "disarmKeys", timeout=2, then=_list)  # (): the key events stopped

    def focused_element(self, fr) -> dict:
        return self._object(fr, "fields", "focusedElement")

    def chooser_input(self, target, object_id: str) -> dict | None:
        """A ref for the file input ``object_id`` whose chooser the page opened, and what it is."""
        return ask(target, invocation_on(object_id, "fields", "chooser"))["result"].get("value")

    def holds_focus(self, target, object_id: str) -> Any:
        """True when the frame owner ``object_id`` is its document's focused element, else where focus is."""
        return ask(target, invocation_on(object_id, "fields", "holds"))["result"].get("value")

    # -- targets by meaning (targets.js) and structure (structure.js) ----------------------------
    issue = _engine("targets", "issue")  # (indices)
    facts = _engine("targets", "facts")  # (n)

    def search(self, fr, spec: dict) -> dict:
        again = lambda: self._value(fr, "targets", "search", spec)  # noqa: E731
        return self._closed_first(fr, again(), again)

    def has_text(self, fr, text: str, timeout: float) -> bool:
        """Is ``text`` in the frame's visible text, its closed shadow roots' included (``wait text``)?"""
        again = lambda: self.frames.run(fr, has_text(text), timeout)["value"]  # noqa: E731
        return self._closed_first(fr, again(), again) is True

    def locate(self, fr, n: int, kept: bool = False):
        """Element ``n``'s facts and stable-locator candidates, each checked in its own document
        (``{"facts": ..., "candidates": [{kind, value, role, name, scope, ok}]}``; None: gone).
        ``kept``: sent now (it runs before any later call to the frame), its Asked answered much later
        (None when its document went away before it ran: not asked again, the element is gone)."""
        return self._kept(fr, "targets", "locate", n) if kept else self._value(fr, "targets", "locate", n)

    def owner_attrs(self, fr, frame_id: str):
        """Sent now, a kept Asked: the owner element of child frame ``frame_id`` in ``fr`` as a test
        names it (``{tag, id, title, name}``, null when the last snapshot did not tag it)."""
        return self._kept(fr, "bridge", "ownerAttrs", frame_id)

    def structure(self, fr, fn: str, n: int, *args: Any) -> Any:
        """``text``, ``container``, ``siblings`` or ``anchors`` of ref number ``n``."""
        if fn not in ("text", "container", "siblings", "anchors"):
            raise ValueError(f"no structure function {fn!r}")
        return self._value(fr, "structure", fn, n, *args)

    # -- frame owners ----------------------------------------------------------------------------
    def owner_calls(self, ctx: int, slots: list[int]) -> list[tuple[str, dict]]:
        """``call_many`` items asking for the frame owner elements ``slots`` (remote objects)."""
        calls = [invocation("bridge", "owner", k, by_value=False, group="verdex-owners").at(ctx) for k in slots]
        return [(c.method, c.params) for c in calls]

    def owner(self, fr, slot: int, via: str = "owner") -> dict:
        """Frame owner ``slot`` as a remote object (group ``verdex-owners``): ``via`` ``owner`` (the
        last snapshot's owners), ``search`` (the last search's) or ``element`` (a ref number)."""
        space, fn = {"owner": ("bridge", "owner"), "search": ("targets", "owner"), "element": ("bridge", "element")}[via]
        return self._object(fr, space, fn, slot, group="verdex-owners")

    def owner_hit(self, target, object_id: str, q: list[float], quad: list[float] | None):
        """The frame owner ``object_id`` maps ``q`` into its viewport and is hit-tested there: sent now,
        its ``Pending`` answer read with ``.result()["result"].get("value")``."""
        return start(target, invocation_on(object_id, "bridge", "ownerHit", q, quad))

    # -- snapshots and refs (bookkeeping posted: no wait) ----------------------------------------
    tag_owners = _posted("bridge", "tagOwners")  # (found): which frame each owner showed, for the next snapshots
    show = _posted("bridge", "show")  # (ns): the user was shown refs ns as the last capture saw them
    show_now = _posted("bridge", "showNow")  # (n): the user was shown ref n as it is now (inspect)
    carry = _posted("bridge", "carry")  # (gone): the refs a capture whose answer was not used let go of
    # (cap): the tree of the frame's capture ``cap`` as JSON while its page holds it (None after
    # another capture, or when it kept none: see incremental.js)
    held_tree = _engine("bridge", "heldTree")
    describe = _engine("bridge", "describe")  # (n)
    brief = _engine("bridge", "brief")  # (ns)
    successors = _engine("bridge", "successors", then=_list)  # (n, role, name)
    reset = _engine("bridge", "reset")  # (keep_counter)
    title = _engine("bridge", "title")  # (): the document's title, read in the isolated world

    def settle_calls(self, frs: list, opts: dict, timeout: float, whats: dict | None = None,
                     caps: dict | None = None, hover: tuple | None = None) -> list:
        """Start ``settleThen(opts, what, cap)`` in every frame's world at once: (frame, its world's
        document, the pending call) for each frame that could be asked. ``whats``: frame index -> the
        capture (``("snapshot", 0, cap)`` or ``("snapshot",)``) to take in the same call once settled,
        when the frame changed since its capture ``caps[index]`` (see :meth:`dirty`); ``hover``: (frame
        index, ref number), whether that element is under the pointer once settled (``hovered``)."""
        out = []
        for fr in frs:
            what = (whats or {}).get(fr.index)
            args = list(_capture(what)[1:]) if what else None
            asked = dict(opts, hover=hover[1]) if hover and hover[0] == fr.index else opts
            try:
                ctx = self.frames.world(fr)
                call = invocation("bridge", "settleThen", asked, args, (caps or {}).get(fr.index, 0))
                out.append((fr, fr.world_loader, start(fr.target, call.at(ctx), timeout)))
            except Exception:  # noqa: BLE001 - a frame going away: the capture will say so
                continue
        return out

    def capture(self, fr, what: tuple, later: bool = False, sent: tuple | None = None):
        """A capture's JSON text: ``what`` is ``("snapshot",)``, ``("snapshot", n)`` (ref n's subtree),
        ``("snapshot", 0, cap)`` (patches to capture ``cap``), ``("snapshot", 0, cap, view, frame)`` (the
        frame's text instead of its tree: see snapshot/views.py) or ``("check",)``. ``sent``: the pending
        call and document of this capture, sent already (first.py) or answered ahead, as an Asked.
        An answer that wants closed shadow roots resolved first is asked again once they are."""
        again = lambda: self._value(fr, "bridge", *_capture(what))  # noqa: E731
        return self._value(fr, "bridge", *_capture(what), later=later, sent=sent,
                           then=lambda answer: self._closed_first(fr, answer, again))

    # (cap): has the frame changed since its capture ``cap`` (the frame's last capture, as the caller holds
    # it: a capture taken since, whose answer was lost, counts as a change; 0: not known, the change watcher
    # alone answers)?
    dirty = _engine("bridge", "dirty", then=bool)

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
        sent = [start(fr.target, invocation("bridge", *c, by_value=False, group=group).at(fr.world_id))
                for c in calls]
        return [_object_of(p) for p in sent]

    def hand_closed(self, fr, object_ids: list[str]) -> None:
        """Hand the closed roots ``object_ids`` (objects of the frame's world) to its engine."""
        ask(fr.target, adopt_closed(object_ids).at(fr.world_id))

    def element(self, fr, n: int) -> dict:
        """The element of ref number ``n`` as a remote object (``objectId``), or no object."""
        return self._object(fr, "bridge", "element", n)

    # -- acting (act.js) -------------------------------------------------------------------------
    prepare = _engine("bridge", "prepare")  # (n, opts): ready to act on n? (act.js)
    arm = _engine("bridge", "arm")  # (n)
    disarm = _engine("bridge", "disarm", timeout=2)  # (): what the click guard saw (it stops guarding)
    # (at): watch the trusted mouse events that reach the frame's document (an iframe element's click
    # lands there; ``at``: the point in its viewport, None: the centre): the document's URL, whether it
    # is blank, what is at the point and, an iframe there, the point in its viewport (``into``)
    watch_doc = _engine("bridge", "watchDoc", timeout=2)
    watch_state = _engine("bridge", "watchState", timeout=2)  # (): the pointer moved into the document, and stayed?
    # (settle): what reached the watched document (its watch ends; ``settle``: two animation frames later)
    unwatch_doc = _engine("bridge", "unwatchDoc", timeout=2)
    navigating = _engine("bridge", "navigating", timeout=2, then=bool)  # ()
    options = _engine("bridge", "options")  # (n)
    option_point = _engine("bridge", "optionPoint")  # (n, index)
    viewport = _engine("bridge", "viewport")  # (): the frame's viewport size ([width, height])
    nav_status = _engine("bridge", "navStatus", then=lambda v: v or 0)  # (): the document's HTTP status (0: unknown)
    visibility = _engine("bridge", "visibility")  # (): document.visibilityState (the tab's, from any frame)
    hovered = _engine("bridge", "hovered", timeout=2)  # (n, late): is n under the pointer (late: once settled)?

    def watched_frame(self, fr) -> dict:
        """The iframe at the watched point as a remote object (group ``verdex-owners``), or no object."""
        return self._object(fr, "bridge", "watchedFrame", group="verdex-owners")

    # -- refs drawn on a screenshot (marks.js) ----------------------------------------------------
    def ref_boxes(self, asks: list[tuple[Any, list[int], bool]]) -> list[dict | None]:
        """For each (frame, ref numbers, whole document): the boxes of those refs there (marks.boxes),
        every frame asked at once; None for a frame that could not answer (it went away meanwhile)."""
        asked = [self._value(fr, "marks", "boxes", ns, whole, later=True) for fr, ns, whole in asks]
        out: list[dict | None] = []
        for one in asked:
            try:
                out.append(one.value())
            except VerdexError:
                out.append(None)
        return out

    draw_marks = _engine("marks", "draw")  # (items, whole): outline and label [label, x, y, w, h] until erased
    erase_marks = _engine("marks", "erase")  # ()

    # -- the page scrolled with the wheel (wheel.js) ------------------------------------------------
    wheel_start = _engine("bridge", "wheelStart")  # (down): what the wheel may move, read; the viewport's size
    wheel_moved = _engine("bridge", "wheelMoved", timeout=5)  # (key): once the wheel's work is done, what moved
