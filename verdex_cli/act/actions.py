"""Trusted input on refs: CDP Input events only, never element.click() or .value.

Every pointer action prepares the element in its own frame (scroll, wait for
visible/enabled/stable, hit-test the click point), converts the point to
top-level coordinates, and arms a guard in the isolated world that stops any
mouse event that would reach another element.  Nothing here prints.
"""

from __future__ import annotations

import json
import time

from ..browser.frames import Frame
from ..browser.page import Page
from ..base.errors import (CDPError, CDPTimeout, ConnectionLost, ErrorKind, JSError, NotActionable, NotApplied,
                           UsageError)
from ..base.timing import phase, tell
from .focus import Focus
from .frame_points import Point, climb, owners
from .keys import parse_key
from .readback import FieldWatch, after_input, quoted, settle_page
from .resolve import Resolved


def _bridge(page: Page, fr: Frame, call: str, timeout: float | None = None):
    return page.frames.eval(fr, "__verdexBridge." + call, timeout=timeout)["value"]


STATE_GRACE = 0.5  # seconds a checkbox-like widget gets to show its new state
SLICE = 0.25  # seconds of in-page waiting per bridge call, so the wait can be reported from here


def prepare(page: Page, res: Resolved, pointer: bool = True, arm: bool = False) -> tuple[float, float]:
    """The click point of the ref's element once it is actionable. ``arm``: an element of the tab's own
    frame gets its guard armed in the same call (see _pointer_events); ``res.armed`` says so."""
    res.armed = False
    with phase("wait actionable"):
        return _prepare(page, res, pointer, arm and res.frame.parent is None)


def _prepare(page: Page, res: Resolved, pointer: bool, arm: bool = False) -> tuple[float, float]:
    for parent, owner in reversed(list(owners(page, res.frame, res.label))):  # outermost frame first
        try:
            parent.target.call("DOM.scrollIntoViewIfNeeded", backendNodeId=owner)
        except CDPError:
            pass
    deadline = time.monotonic() + page.timeout
    told: list = [None]
    while True:
        out = _wait_actionable(page, res, pointer, deadline, told, arm)
        res.armed = bool(out.get("armed"))
        if not pointer:
            return out["x"], out["y"]
        # the point climbs out through each frame; each iframe element on the way must get it
        point = climb(page, res.frame, Point(out["x"], out["y"], out["w"], out["h"]), res.label)
        if not isinstance(point, str):
            return point
        if time.monotonic() >= deadline:
            raise NotActionable(f"Element {res.label} is not actionable after {page.timeout:.1f} s: {point}.")
        _tell(page, res, point, told)
        time.sleep(min(SLICE, max(0.0, deadline - time.monotonic())))


def _tell(page: Page, res: Resolved, reason: str, told: list) -> None:
    """Report a new reason for waiting (timing.tell: the REPL shows it)."""
    if reason == told[0]:
        return
    told[0] = reason
    tell(f"waiting for {res.label}: {reason}")


def _wait_actionable(page: Page, res: Resolved, pointer: bool, deadline: float, told: list, arm: bool = False) -> dict:
    """Poll the bridge's `prepare` in short slices until the element is actionable or time is up.

    Each time the reason for waiting is new, the progress listener (timing.tell; the REPL shows it)
    hears "waiting for ...: reason". The box measured in
    one slice goes to the next, so stability is always judged on two measurements.
    """
    last = None
    live = res.live or {}
    seed = {"box": live["box"], "at": live["at"]} if live.get("box") and live.get("at") is not None else None
    while True:
        left = deadline - time.monotonic()
        opts = json.dumps({"pointer": pointer, "timeoutMs": int(max(0.1, min(SLICE, left)) * 1000), "last": last,
                           "arm": arm, "seed": seed})
        seed = None  # only the first call's first measurement
        out = _bridge(page, res.frame, f"prepare({res.ref.n}, {opts})", timeout=SLICE + 5)
        status = out.get("status")
        if status == "ok":
            return out
        if status == "removed":
            raise NotActionable(f"Element {res.label} was removed while waiting for it.", kind=ErrorKind.REMOVED)
        reason = out.get("reason", status)
        last = out.get("last")
        if time.monotonic() >= deadline:
            raise NotActionable(f"Element {res.label} is not actionable after {page.timeout:.1f} s: {reason}.")
        _tell(page, res, reason, told)


def _mouse(page: Page, kind: str, x: float, y: float, **extra) -> None:
    page.target.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, **extra)


def pointer(page: Page, res: Resolved, action: str) -> dict:
    """click, dblclick or hover on the ref's own element."""
    x, y = prepare(page, res, pointer=True, arm=action != "hover")
    nav_before = page.nav_count
    result = {"action": action, "ref": res.text, "role": res.role, "name": res.name, "x": round(x), "y": round(y)}
    with phase("input events"):
        guard = _pointer_events(page, res, action, x, y, nav_before)
    if guard is None:  # the click closed its own tab (window.close()): it did land
        return dict(result, notes=res.notes + ["The tab closed itself after the click."])
    notes = list(res.notes)
    if guard.get("navigated"):
        raise NotApplied(f"Element {res.label} was clicked once, then the page navigated or moved it away, so "
                         "the second click was not sent (it would have reached something else).")
    if guard["blocked"] or _unfinished(action, res, guard):
        raise _stopped(res, guard)
    if action == "hover":
        _check_hover(page, res)
    if guard["received"] == 0 and page.nav_count == nav_before:
        raise NotActionable(f"Element {res.label} did not receive the click (something else took the "
                            "mouse events); take a new snapshot.")
    try:
        notes += after_input(page, nav_before)
    except ConnectionLost:
        notes.append("The tab closed itself after the click.")
    return dict(result, notes=notes)


def _unfinished(action: str, res: Resolved, guard: dict) -> bool:
    """The target got part of the input but not the click (or double click) itself: the rest went to
    another document (a frame moved in under the pointer), where this guard cannot see it. A native
    select's own popup takes the release, so there the press is enough."""
    got = guard.get("got")
    if guard["received"] <= 0 or got is None or res.live.get("tag") == "select":
        return False
    return action in ("click", "dblclick") and action not in got


def _check_hover(page: Page, res: Resolved) -> None:
    """A hover is ok only when the browser puts the element under the pointer (its :hover state). An
    iframe is left out: the pointer is then in its document, whose owner's :hover the browser does not
    always keep for another process."""
    if res.live.get("tag") in ("iframe", "frame"):
        return
    try:
        under = _bridge(page, res.frame, f"hovered({res.ref.n})", timeout=2)
    except (CDPError, JSError, ConnectionLost, CDPTimeout):
        return  # its document went away after the move (a hover that navigates): nothing to read
    if under is False:
        raise NotApplied(f"Element {res.label} is not under the pointer after the move: the page moved or "
                         "covered it, or another frame took the pointer.")


def _stopped(res: Resolved, guard: dict) -> NotActionable | NotApplied:
    """The guard stopped events that would have reached another element. Nothing reached the target:
    it was not clicked. Part of the input did (the page moved, hid or replaced it on the press or after
    the first click): that part happened, the rest did not (`not_applied`, saying which)."""
    other = guard["blocked"][0].split(" on ", 1)[-1] if guard["blocked"] else "another frame's document"
    got = guard.get("got") or []
    if not got:
        return NotActionable(f"Element {res.label} was not clicked: the events would have reached {other} "
                             "instead, so they were stopped.")
    events = ", ".join(dict.fromkeys(got))
    part = ("was clicked once" if "click" in got else f"got the press ({events})" if "mousedown" in got
            else f"got only part of the click ({events})")
    return NotApplied(f"Element {res.label} {part}, then the page moved, hid or replaced it: the rest of the "
                      f"input would have reached {other}, so it was stopped.")


def _pointer_events(page: Page, res: Resolved, action: str, x: float, y: float, nav_before: int) -> dict | None:
    """Send the mouse events, guarded: what the guard saw, or None when the click closed its tab.

    For an element the tab's own renderer draws, the events go out together (one round trip): sent
    one by one, the move alone waits for the next animation frame; Chrome dispatches them in the
    order sent either way."""
    if action != "hover" and not res.armed:
        _bridge(page, res.frame, f"arm({res.ref.n})")
    events = [("mouseMoved", {"button": "none"})]
    if action in ("click", "dblclick"):
        events += [("mousePressed", {"button": "left", "clickCount": 1}),
                   ("mouseReleased", {"button": "left", "clickCount": 1})]
    if action == "dblclick":
        events += [("mousePressed", {"button": "left", "clickCount": 2}),
                   ("mouseReleased", {"button": "left", "clickCount": 2})]
    calls = [("Input.dispatchMouseEvent", dict(extra, type=kind, x=x, y=y)) for kind, extra in events]
    try:
        if res.frame.parent is not None:  # in a frame: no button goes down before the element is
            _move_onto(page, res, action, calls[0][1])  # under the pointer (see _move_onto)
        first, second = (calls[:3], calls[3:]) if res.frame.parent is None else (calls[1:3], calls[3:])
        _send(page, first, 0 if res.frame.parent is None else 1, batch=res.frame.parent is None)
        if second and not _still_there(page, res, nav_before):  # the second click would reach a new
            try:                                                  # page or another element
                _bridge(page, res.frame, "disarm()", timeout=2)
            except (CDPError, JSError, CDPTimeout, ConnectionLost):
                pass
            return {"received": 1, "got": ["click"], "blocked": [], "navigated": True}
        if second:
            _send(page, second, 3, batch=res.frame.parent is None)
    except ConnectionLost as exc:
        if getattr(exc, "done", 0) < 2:  # gone before the button went down: the click did not land
            raise
        return None
    guard = {"received": -1, "blocked": []}
    if action != "hover":
        try:
            guard = _bridge(page, res.frame, "disarm()", timeout=2)
        except (CDPError, JSError, ConnectionLost):
            pass  # the document went away (navigation): the click did land
        except CDPTimeout:
            # Chrome holds calls into a frame whose navigation has not committed yet (a slow server):
            # the navigation the click started is the proof that it landed
            if page.nav_count == nav_before:
                raise
    return guard


def _still_there(page: Page, res: Resolved, nav_before: int) -> bool:
    """Between the two clicks of a double click: no navigation of the tab began, and an element in a
    frame is still under the pointer in its own document."""
    try:
        if _bridge(page, res.frame, "navigating()", timeout=2):
            return False
        if page.nav_count != nav_before:
            return False
        return res.frame.parent is None or _bridge(page, res.frame, f"hovered({res.ref.n})", timeout=2) is True
    except (CDPError, JSError, CDPTimeout):
        return False  # its document is gone or going


def _send(page: Page, calls: list, done: int, batch: bool) -> None:
    """Input events in order: together in one round trip (``batch``: the tab's own renderer draws the
    element), else one by one. A lost connection says how many events had gone (``exc.done``)."""
    if batch:
        try:
            page.target.call_many(calls)
        except ConnectionLost as exc:
            # the tab closed while the batch was handled (a click calling window.close()): the replies
            # of events already handled may never come, but every event had reached the browser
            exc.done = done + (len(calls) if getattr(exc, "all_sent", False) else getattr(exc, "done", 0))
            raise
        return
    for n, (method, params) in enumerate(calls, done):
        try:
            page.target.call(method, **params)
        except ConnectionLost as exc:
            exc.done = n
            raise


def _move_onto(page: Page, res: Resolved, action: str, move: dict) -> None:
    """Move the pointer onto an element in a frame and make sure the browser put it there (its
    :hover state) before any button goes down. The guard sees only the target's own document, and the
    browser routes input into frames by hit-test data that may be a frame old (frames still scrolling
    into place): a press sent then would land in another frame's document, unseen. The move is
    repeated (a later one is hit-tested anew); still elsewhere: nothing is pressed. (An iframe target
    is not checked: the pointer is then in its document; see _check_hover.)"""
    if res.live.get("tag") in ("iframe", "frame"):
        page.target.call("Input.dispatchMouseEvent", **move)
        return
    for _ in range(3):
        page.target.call("Input.dispatchMouseEvent", **move)
        try:
            under = _bridge(page, res.frame, f"hovered({res.ref.n})", timeout=2)
        except (CDPError, JSError, CDPTimeout):
            return  # its document went away or is busy: the guard and the result say what happened
        if under is not False:
            return
    if action != "hover":
        try:
            _bridge(page, res.frame, "disarm()", timeout=2)
        except (CDPError, JSError, CDPTimeout, ConnectionLost):
            pass
    raise NotActionable(f"Element {res.label} is not under the pointer at its click point: the browser puts "
                        "the pointer in another frame's content there, so nothing was pressed.")


def focus(page: Page, res: Resolved, verb: str = "done") -> Focus:
    """Make the element the deep focused element, verified; the caller closes the Focus."""
    prepare(page, res, pointer=False)
    f = Focus(page, res)
    try:
        f.take(verb)
    except BaseException:
        f.close()
        raise
    return f


def set_checked(page: Page, res: Resolved, want: bool) -> dict:
    state = (res.live.get("states") or {}).get("checked")
    word = "check" if want else "uncheck"
    if res.role not in ("checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"):
        raise NotActionable(f"Element {res.label} is not a checkbox, radio or switch.")
    if (state is True) == want:
        return {"action": word, "ref": res.text, "role": res.role, "name": res.name, "checked": want,
                "notes": res.notes + [f"Already {'checked' if want else 'unchecked'}; nothing to do."]}
    if not want and res.role in ("radio", "menuitemradio"):
        raise NotActionable(f"Element {res.label} is a radio button; check another option instead.")
    with FieldWatch(page, res) as watch:
        out = pointer(page, res, "click")
    deadline = time.monotonic() + STATE_GRACE  # a widget may update its state a moment after the click
    while True:
        settle_page(page)  # read back once the page's own handlers (timers, animation frames) have run
        try:
            after = (_bridge(page, res.frame, f"describe({res.ref.n})").get("states") or {}).get("checked")
        except (CDPError, JSError, ConnectionLost):
            # the click navigated away: the state cannot be read back
            watch.close()
            raise NotApplied(f"Clicked {res.label}, but its state could not be read back (the page changed); "
                             f"it may not be {word}ed.")
        if (after is True) == want or time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    back = watch.read(settled=False)
    # the browser did apply the state asked for (seen at its own input/change event) before the page's handlers ran
    became = bool(back) and any(isinstance(v, bool) and v == want for v in back["seen"])
    if (after is True) != want:
        now = "mixed" if after == "mixed" else ("checked" if after is True else "unchecked")
        if became:
            raise NotApplied(f"Clicked {res.label}, but it is {now}: the page undid the {word}.")
        raise NotApplied(f"Clicked {res.label}, but it is still {now}: the page did not let it be {word}ed "
                         "(the click was cancelled or the widget ignored it).")
    out.update(action=word, checked=after is True)
    return out


def select(page: Page, res: Resolved, values: list[str]) -> dict:
    info = _bridge(page, res.frame, f"options({res.ref.n})")
    if info is None:
        raise NotActionable(f"Element {res.label} is not a select element.")
    opts = info["options"]
    wanted = []
    for v in values:
        hit = next((o for o in opts if o["value"] == v), None) or next((o for o in opts if o["label"] == v), None) \
            or next((o for o in opts if o["label"].casefold() == v.casefold()), None)
        if hit is None:
            choices = ", ".join(repr(o["label"]) for o in opts[:15])
            raise UsageError(f"No option {v!r} in {res.label}. Options: {choices}.")
        if hit["disabled"]:
            raise NotActionable(f"Option {hit['label']!r} of {res.label} is disabled.")
        wanted.append(hit)
    if len(wanted) > 1 and not info["multiple"]:
        raise UsageError(f"Element {res.label} takes one value, not {len(wanted)}.")
    with FieldWatch(page, res) as watch, focus(page, res, "selected") as f:
        nav_before = page.nav_count
        if info["multiple"]:
            _select_multiple(page, res, wanted)
        else:
            _select_single(page, res, wanted[0]["index"], f)
    nav = after_input(page, nav_before)
    back = watch.read()  # after the page settled: a handler may have changed the selection back
    final = _bridge(page, res.frame, f"options({res.ref.n})")
    if final is None:
        raise NotApplied(f"Element {res.label} changed while options were chosen; nothing can be read back.")
    opts = final["options"]
    chosen = [o["label"] for o in opts if o["selected"]]
    values = [o["value"] for o in opts if o["selected"]]
    asked = sorted(w["index"] for w in wanted)
    if sorted(o["index"] for o in opts if o["selected"]) != asked:
        head = f"Could not select {', '.join(map(repr, [w['label'] for w in wanted]))} in {res.label}"
        if back and asked in [sorted(v) for v in back["seen"] if isinstance(v, list)]:  # the browser chose them
            shown = ", ".join(map(quoted, chosen)) or "nothing"
            back_to = " back" if chosen == [o["label"] for o in info["options"] if o["selected"]] else ""
            raise NotApplied(f"{head}: the page changed the selection{back_to} to {shown}.")
        raise NotApplied(f"{head}: it now has {', '.join(map(repr, chosen)) or 'nothing'} selected.")
    return {"action": "select", "ref": res.text, "role": res.role, "name": res.name, "selected": chosen,
            "value": values if final["multiple"] else (values[0] if values else None),
            "notes": list(res.notes) + nav}


NOT_SELECTED = "Selection stopped"


def _selected_index(page: Page, res: Resolved) -> int:
    opts = _bridge(page, res.frame, f"options({res.ref.n})")["options"]
    return next((o["index"] for o in opts if o["selected"]), -1)


def _select_single(page: Page, res: Resolved, target: int, f: Focus) -> None:
    """Keyboard selection on the focused select, trusted input only.

    The option list is opened (Alt+ArrowDown), the highlight moved over the
    enabled options, and Enter commits: the page sees one input/change event.
    If that did not land (a platform without the popup), step with arrows on
    the closed select instead.
    """
    opts = _bridge(page, res.frame, f"options({res.ref.n})")["options"]
    current = next((o["index"] for o in opts if o["selected"]), -1)
    if current == target:
        return
    lo, hi = sorted((max(current, 0), target))
    steps = sum(1 for o in opts[lo:hi + 1] if not o["disabled"] and o["index"] != current)
    if current < 0:
        steps = sum(1 for o in opts[:target + 1] if not o["disabled"])
    arrow = "ArrowDown" if current < target else "ArrowUp"
    f.keys(parse_key("Alt+ArrowDown").events(), NOT_SELECTED)
    for _ in range(steps):
        f.keys(parse_key(arrow).events(), NOT_SELECTED)
    f.keys(parse_key("Enter").events(), NOT_SELECTED)
    current = _selected_index(page, res)
    guard = 0
    while current != target and guard < 2000:
        f.keys(parse_key("ArrowDown" if current < target else "ArrowUp").events(), NOT_SELECTED)
        new = _selected_index(page, res)
        if new == current:
            break
        current, guard = new, guard + 1


def _select_multiple(page: Page, res: Resolved, wanted: list[dict]) -> None:
    for i, opt in enumerate(wanted):
        box = _bridge(page, res.frame, f"optionPoint({res.ref.n}, {opt['index']})")
        if box is None:
            raise NotActionable(f"Option {opt['label']!r} of {res.label} is not visible.")
        x, y = climb(page, res.frame, Point(box["x"], box["y"], box["w"], box["h"]), res.label, check=False)
        mods = 0 if i == 0 else 2
        if res.frame.parent is not None:  # no press before the browser has the list under the pointer
            _move_onto(page, res, "hover", {"type": "mouseMoved", "x": x, "y": y, "button": "none", "modifiers": mods})
        _mouse(page, "mousePressed", x, y, button="left", clickCount=1, modifiers=mods)
        _mouse(page, "mouseReleased", x, y, button="left", clickCount=1, modifiers=mods)


# wait two frames so the wheel scroll has been applied, then read the position
SCROLL_Y = "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(window.scrollY))))"


def scroll(page: Page, res: Resolved | None, direction: str | None) -> dict:
    if res is not None:
        prepare(page, res, pointer=False)
        return {"action": "scroll", "ref": res.text, "role": res.role, "name": res.name, "notes": res.notes}
    metrics = page.target.call("Page.getLayoutMetrics")["cssLayoutViewport"]
    w, h = metrics["clientWidth"], metrics["clientHeight"]
    delta = h * 0.8 * (1 if direction == "down" else -1)
    _mouse(page, "mouseWheel", w / 2, h / 2, deltaX=0, deltaY=delta)
    y = page.target.call("Runtime.evaluate", expression=SCROLL_Y, awaitPromise=True,
                         returnByValue=True)["result"].get("value")
    return {"action": "scroll", "direction": direction, "scroll_y": y, "notes": []}
