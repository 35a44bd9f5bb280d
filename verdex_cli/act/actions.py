"""focus, check/uncheck, select and scroll: trusted input on refs (CDP Input events only, never
element.click() or .value), each result read back from the element itself."""

from __future__ import annotations

import time

from ..base.errors import CDPError, ConnectionLost, JSError, NotActionable, NotApplied, UsageError
from ..browser import timer_watch
from ..browser.page import Page
from ..browser.session import Session
from .actionability import prepare
from .focus import Focus
from .frame_points import Point, climb
from .keys import parse_key
from .pointer import mouse, move_onto, pointer
from .readback import RERENDERED, FieldWatch, after_input, settle_page
from .resolve import Resolved
from .targets import quoted

STATE_GRACE = 0.5  # seconds a checkbox-like widget gets to show its new state


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


def set_checked(page: Page, res: Resolved, want: bool, session: Session) -> dict:
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
        out = pointer(page, res, "click", session)
    deadline = time.monotonic() + STATE_GRACE  # a widget may update its state a moment after the click
    while True:
        settle_page(page)  # read back once the page's own handlers (timers, animation frames) have run
        try:  # (of the control the page put in its place, when it re-rendered it)
            now = page.bridge.checked_now(res.frame, res.ref.n)
        except (CDPError, JSError, ConnectionLost):
            # the click navigated away: the state cannot be read back
            watch.close()
            raise NotApplied(f"Clicked {res.label}, but its state could not be read back (the page changed); "
                             f"it may not be {word}ed.")
        if now.get("status") != "live":
            watch.close()
            raise NotApplied(f"Clicked {res.label}, then the page removed it, and no control like it (same name, "
                             f"same row) took its place: its state could not be read back; it may be {word}ed.")
        after = now.get("checked")
        if (after is True) == want or time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    if now.get("replaced"):
        out["notes"] = out["notes"] + [RERENDERED]
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


def select(page: Page, res: Resolved, values: list[str], session: Session) -> dict:
    info = page.bridge.options(res.frame, res.ref.n)
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
            _select_single(page, res, wanted[0]["index"], f, opts)
    nav = after_input(page, nav_before, session=session)
    settle_page(page)  # read back once settled: a handler may have changed the selection back
    final = page.bridge.options_now(res.frame, res.ref.n)  # (of the select the page put in its place)
    back = watch.read(settled=False)
    if final is None:
        raise NotApplied(f"Element {res.label} changed while options were chosen; nothing can be read back.")
    if final.get("replaced"):
        nav = [RERENDERED] + nav
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
    opts = page.bridge.options(res.frame, res.ref.n)["options"]
    return next((o["index"] for o in opts if o["selected"]), -1)


def _select_single(page: Page, res: Resolved, target: int, f: Focus, opts: list[dict]) -> None:
    """Keyboard selection on the focused select (``opts``: its options as read just before): open the
    list (Alt+ArrowDown), move over the enabled options and commit with Enter (one input/change event);
    without the popup, arrows on the closed select."""
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
        box = page.bridge.option_point(res.frame, res.ref.n, opt["index"])
        if box is None:
            raise NotActionable(f"Option {opt['label']!r} of {res.label} is not visible.")
        x, y = climb(page, res.frame, Point(box["x"], box["y"], box["w"], box["h"]), res.label, check=False)
        mods = 0 if i == 0 else 2
        if res.frame.parent is not None:  # no press before the browser has the list under the pointer
            move_onto(page, res, "hover", {"type": "mouseMoved", "x": x, "y": y, "button": "none", "modifiers": mods})
        mouse(page, "mousePressed", x, y, button="left", clickCount=1, modifiers=mods)
        mouse(page, "mouseReleased", x, y, button="left", clickCount=1, modifiers=mods)


def scroll(page: Page, res: Resolved | None, direction: str | None) -> dict:
    if res is not None:
        prepare(page, res, pointer=False)
        return {"action": "scroll", "ref": res.text, "role": res.role, "name": res.name, "notes": res.notes}
    w, h = page.bridge.wheel_start(page.frames.main, direction == "down")
    mouse(page, "mouseWheel", w / 2, h / 2, deltaX=0, deltaY=h * 0.8 * (1 if direction == "down" else -1))
    got = page.bridge.wheel_moved(page.frames.main, timer_watch.KEY)
    if "moved" not in got:
        why = "the page takes the wheel itself, and moved nothing" if got["took"] else \
            f"the page is already at the {'bottom' if direction == 'down' else 'top'}" if got["room"] else \
            "the page cannot scroll (its content fits in the viewport, and nothing at its middle scrolls)"
        raise NotApplied(f"Nothing scrolled {direction}: {why}.")
    notes = ["The wheel went to the frame at the middle of the viewport; whether it scrolled there is not known "
             "(the page itself did not move)."] if got["moved"]["what"] == "frame" else []
    return {"action": "scroll", "direction": direction, "scroll_y": got["y"], "moved": got["moved"], "notes": notes}
