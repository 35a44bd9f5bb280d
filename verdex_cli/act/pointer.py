"""click, dblclick and hover: trusted mouse events on the ref's own element, guarded in its document
(events that would reach another element are stopped), the truth of what reached it told."""

from __future__ import annotations

from contextlib import suppress

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, JSError, NotActionable, NotApplied, VerdexError
from ..base.timing import phase
from ..browser.page import Page
from ..browser.session import Session
from .actionability import prepare
from .changes import SETTLE_MAX, release, start_settle
from .frame_click import Inside, shows_frame, watch_inside
from .frame_guard import Denial, deny_others
from .readback import after_input
from .resolve import Resolved


def mouse(page: Page, kind: str, x: float, y: float, **extra) -> None:
    page.target.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, **extra)


def pointer(page: Page, res: Resolved, action: str, session: Session) -> dict:
    """click, dblclick or hover on the ref's own element (a frame's owner: watched in the frame's
    documents, frame_click.py); a press is guarded in the tab's other frames too (frame_guard.py)."""
    denial, res.denial = res.denial, None
    if shows_frame(res):  # its click belongs in the frames it shows: none of them denied
        if denial is not None:
            denial.end()
        denial = None
    elif denial is None and action != "hover":
        denial = deny_others(page, res.frame)
    try:
        return _pointer(page, res, action, denial, session)
    finally:
        if denial is not None:
            denial.end()  # whatever is still up (the action stopped before its read-back)


def _pointer(page: Page, res: Resolved, action: str, denial: Denial | None, session: Session) -> dict:
    page.frames.guards.left.pop(res.frame.target.id or "", None)  # an earlier action's
    x, y = prepare(page, res, pointer=True, arm=action != "hover")
    inside = _watch_inside(page, res, action) if shows_frame(res) else None
    nav_before = page.nav_count
    result = {"action": action, "ref": res.text, "role": res.role, "name": res.name, "x": round(x), "y": round(y)}
    try:
        with phase("input events"):
            guard = _pointer_events(page, res, action, x, y, nav_before, inside, denial, session)
    except BaseException:
        if inside is not None:
            inside.end()
        raise
    guard, started = guard if guard is not None else (None, None)
    if guard is None:  # the click closed its own tab (window.close()): it did land
        return dict(result, notes=res.notes + ["The tab closed itself after the click."])
    notes = list(res.notes)
    late = action == "hover"  # a hover is judged where the pointer is once the page settled (_once_settled)
    reads = inside.read() if inside is not None and not late else None
    try:
        if guard.get("navigated"):
            _cut_short(res, guard, inside)
        if guard["blocked"] or inside is None and _unfinished(action, res, guard):
            raise _stopped(res, guard)
        if inside is not None and not late:
            note, result["inside"] = inside.verdict(action, reads, guard)
            notes.append(note)
        elif late and inside is None:
            _check_hover(page, res)
        unread = inside is None and (guard["received"] < 0 or not guard.get("armed", True))
        if inside is None and guard["received"] == 0 and page.nav_count == nav_before and not unread:
            raise NotActionable(f"Element {res.label} did not receive the click (something else took the "
                                "mouse events); take a new snapshot.")
        # the read-back found no armed guard, and the guard told nothing as its document went: its frame
        # navigated (or went) right after
        if unread and action == "dblclick":  # the second click may have gone to whatever came next there
            raise NotApplied(f"Element {res.label}: its frame's document was replaced during the double click "
                             "(it navigated), so the second click may have reached the new page there.")
        if unread and guard["received"] == 0 and page.nav_count == nav_before:
            notes.append("Its frame's document was replaced right after the click (it navigated), so what the "
                         "click reached could not be read back.")
        if guard.get("left"):
            notes.append("Its document went away right after the double click; both clicks had reached the "
                         "element before that.")
    except BaseException:
        release(page, started)  # the settle sent with the guard's read-back: unread
        if late and inside is not None:
            inside.end()
        raise
    return dict(result, notes=notes + _once_settled(page, res, action, inside, nav_before, started, session, result))


def _once_settled(page: Page, res: Resolved, action: str, inside: Inside | None, nav_before: int,
                  started: list | None, session: Session, result: dict) -> list[str]:
    """The page settled after the input (the notes say what it started: a navigation, a closed tab); a
    hover is judged then: the element is still under the pointer, or a refusal (a page that moved or
    covered it a moment after the move took the hover away)."""
    late = action == "hover"
    page.settle.ask_hover((res.frame.index, res.ref.n) if late and inside is None else None)
    page.settle.hover_answer(None)
    try:
        notes = after_input(page, nav_before, started=started, acted=late, session=session)
    except ConnectionLost:
        notes = [f"The tab closed itself after the {action}."]
    except BaseException:
        if late and inside is not None:
            inside.end()
        raise
    finally:
        page.settle.ask_hover(None)
    if late and inside is None:
        _check_hover(page, res, settled=True)
    elif late:
        note, result["inside"] = inside.verdict("hover", inside.read(settle=True), {})
        notes.append(note)
    return notes


def _cut_short(res: Resolved, guard: dict, inside: Inside | None) -> None:
    """A double click whose second click was not sent (the page navigated, or moved the element away
    from the pointer, after the first): what the first one did, from the guards' read-back."""
    if guard["blocked"]:
        raise _stopped(res, guard)  # the first click's events went elsewhere: stopped there
    if inside is None and guard["received"] == 0 and guard.get("armed", True):  # (read from the first click's guard)
        raise NotActionable(f"Element {res.label} did not receive the first click of the double click (something "
                            "else took the mouse events), and then moved away from the pointer, so the second "
                            "click was not sent; take a new snapshot.")
    if guard.get("recycled"):
        raise NotApplied(f"Element {res.label} was clicked once, then the page put another record in its place "
                         f"({guard['recycled']}), so the second click was not sent (it would have acted on that "
                         "record); take a new snapshot.")
    raise NotApplied(f"Element {res.label} was clicked once, then the page navigated or moved it away, so "
                     "the second click was not sent (it would have reached something else).")


def _watch_inside(page: Page, res: Resolved, action: str) -> Inside:
    """The frame's documents watching (frame_click.watch_inside); refused: the guard armed in the
    element's own document taken down."""
    try:
        return watch_inside(page, res, action)
    except BaseException:
        if res.armed:
            with suppress(CDPError, JSError, CDPTimeout, ConnectionLost):
                page.bridge.disarm(res.frame)
        raise


def _unfinished(action: str, res: Resolved, guard: dict) -> bool:
    """The target got part of the input but not the click itself: the rest went to another document,
    unseen by this guard (a native select's popup takes the release: there the press is enough)."""
    got = guard.get("got")
    if guard["received"] <= 0 or got is None or res.live.get("tag") == "select":
        return False
    return action in ("click", "dblclick") and action not in got


def _check_hover(page: Page, res: Resolved, settled: bool = False) -> None:
    """A hover is ok only when the element is under the pointer (:hover) after the move and once the
    page settled; not for an iframe (its owner's :hover is not always kept for another process)."""
    if res.live.get("tag") in ("iframe", "frame"):
        return
    late = page.settle.take_hover() if settled else None  # (asked in the settle's call)
    try:
        under = late["under"] if late is not None else page.bridge.hovered(res.frame, res.ref.n, settled)
    except (CDPError, JSError, ConnectionLost, CDPTimeout):
        return  # its document went away after the move (a hover that navigates): nothing to read
    if under is False and settled:
        raise NotApplied(f"Element {res.label} was under the pointer after the move, but no longer once the page "
                         "settled: the page moved or covered it, or another frame took the pointer.")
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
    if "dblclick" in got:  # the first click's press went elsewhere (a frame swept under the pointer), not the second
        return NotApplied(f"Element {res.label} was clicked once (the second click of the double click, with its "
                          f"dblclick): the first click would have reached {other}, so it was stopped.")
    events = ", ".join(dict.fromkeys(got))
    if not {"pointerdown", "mousedown", "click"} & set(got):  # the press went elsewhere: no click on it
        return NotApplied(f"Element {res.label} got only the release of the click ({events}): the press went to "
                          f"{other}{' and was stopped there' if guard['blocked'] else ''}, so no click happened on "
                          "the element.")
    part = "was clicked once" if "click" in got else f"got the press ({events})"
    if guard.get("left") and not guard["blocked"]:  # told by the guard as its document went (_told_leaving)
        return NotApplied(f"Element {res.label} {part}, then its document went away (it navigated): the rest "
                          "of the input did not reach it (it may have reached the new page there).")
    return NotApplied(f"Element {res.label} {part}, then the page moved, hid or replaced it: the rest of the "
                      f"input would have reached {other}, so it was stopped.")


def _pointer_events(page: Page, res: Resolved, action: str, x: float, y: float,
                    nav_before: int, inside: Inside | None, denial: Denial | None,
                    session: Session) -> tuple[dict, list | None] | None:
    """Send the mouse events, guarded: (what the guard saw, the settle asked with its read-back or None),
    or None when the click closed its tab. Drawn by the tab's renderer: all together (one by one, the
    move alone waits for an animation frame). In a frame: the move first, then whether the element is
    under the pointer (input may be routed otherwise than the layout says), then press and release,
    together when every frame above was still and in view, else one at a time."""
    if action != "hover" and not res.armed:
        page.bridge.arm(res.frame, res.ref.n)
    if denial is not None:
        denial.ready()  # the other frames' guards are up before any input goes out
    calls = _mouse_calls(action, x, y)
    framed = res.frame.parent is not None or inside is not None
    batch = not framed or res.still or inside is not None
    cut_short, recycled = False, ""
    if action == "hover":  # settling (changes.py) follows what the move starts (a timer, a fetch)
        page.settle.acted()
    try:
        if framed:
            move_onto(page, res, action, calls[0][1], inside)
        first, second = (calls[1:3], calls[3:]) if framed else (calls[:3], calls[3:])
        _send(page, first, 1 if framed else 0, batch=batch)
        # the second click would reach a new page or another element: not sent; what the first one
        # reached is read back below, as for any click (the result says it only from that)
        cut_short = bool(second) and not _still_there(page, res, nav_before, inside)
        recycled = _recycled(page, res) if second and not cut_short and inside is None else ""
        cut_short = cut_short or bool(recycled)
        if second and not cut_short:
            _send(page, second, 3, batch=batch)
    except ConnectionLost as exc:
        if exc.done < 2:  # gone before the button went down: the click did not land
            raise
        return None
    hover = ({"received": -1, "blocked": []}, None)
    guard, started = hover if action == "hover" else _read_guard(page, res, nav_before, denial, session)
    if action == "dblclick":  # (a click whose document went: its navigation is the proof that it landed)
        guard = _told_leaving(page, res, guard)
    if cut_short:
        guard["navigated"] = True
        if recycled:
            guard["recycled"] = recycled
    return guard, started


def _mouse_calls(action: str, x: float, y: float) -> list[tuple[str, dict]]:
    """The mouse events of ``action`` at (x, y): the move, then a click's or a double click's buttons."""
    events = [("mouseMoved", {"button": "none"})]
    if action in ("click", "dblclick"):
        events += [("mousePressed", {"button": "left", "clickCount": 1}),
                   ("mouseReleased", {"button": "left", "clickCount": 1})]
    if action == "dblclick":
        events += [("mousePressed", {"button": "left", "clickCount": 2}),
                   ("mouseReleased", {"button": "left", "clickCount": 2})]
    return [("Input.dispatchMouseEvent", dict(extra, type=kind, x=x, y=y)) for kind, extra in events]


def _read_guard(page: Page, res: Resolved, nav_before: int, denial: Denial | None,
                session: Session) -> tuple[dict, list | None]:
    """Once a press went out: what the click guard (and the other frames' guards) saw, and the page's
    settle asked in the same round trip (None when it could not be)."""
    guard = {"received": -1, "blocked": []}
    started = None
    page.settle.acted()  # the input is sent: settling (changes.py) counts from here
    try:
        reading = page.bridge.disarm(res.frame, later=True)
        if denial is not None:
            denial.start_read()
        try:  # the settle (and the session's after-command question) go with the guard's read-back:
            started = start_settle(page, min(SETTLE_MAX, page.timeout))  # one round trip for all
        except VerdexError:
            started = None
        session.ask_targets()
        guard = reading.value()
        if denial is not None:  # what the other frames stopped: a frame moved under the point
            guard["blocked"] = list(guard.get("blocked") or []) + denial.blocked()
    except (CDPError, JSError, ConnectionLost):
        pass  # the document went away (navigation): the click did land
    except CDPTimeout:
        # Chrome holds calls into a frame whose navigation has not committed yet (a slow server):
        # the navigation the click started is the proof that it landed
        if page.nav_count == nav_before:
            release(page, started)
            raise
    return guard, started


def _told_leaving(page: Page, res: Resolved, guard: dict) -> dict:
    """The read-back found no armed guard (its document went away: a handler navigated the frame): what
    the guard told as its document went (engine/guard.js, on pagehide), when it told anything."""
    told = page.frames.guards.left
    if guard.get("armed", True) and guard["received"] >= 0:
        return guard
    res.frame.target.drain_events(0.2)  # the binding's event came before the read-back's answer
    left = told.pop(res.frame.target.id or "", None)
    if not left or left.get("n") != res.ref.n:
        return guard
    return dict(guard, received=left["received"], got=left["got"], blocked=guard["blocked"] + left["blocked"],
                armed=True, left=True)


def _still_there(page: Page, res: Resolved, nav_before: int, inside: Inside | None = None) -> bool:
    """Between the two clicks of a double click: no navigation began, and an element in a frame is still
    under the pointer (a frame's owner: its frame's document is not navigating away)."""
    try:
        if page.bridge.navigating(res.frame):
            return False
        if page.nav_count != nav_before:
            return False
        if inside is not None:
            return not inside.moved_on()
        return res.frame.parent is None or page.bridge.hovered(res.frame, res.ref.n) is True
    except (CDPError, JSError, CDPTimeout):
        return False  # its document is gone or going


def _recycled(page: Page, res: Resolved) -> str:
    """Between the two clicks of a double click: what says the element now stands for another record
    (the first click re-rendered the rows into the same nodes), or ''."""
    try:
        now = page.bridge.brief(res.frame, [res.ref.n])[0] or {}
    except (CDPError, JSError, CDPTimeout):
        return ""
    return now.get("idChange") or ""


def _send(page: Page, calls: list, done: int, batch: bool) -> None:
    """Input events in order: together in one round trip (``batch``: the tab's own renderer draws the
    element), else one by one. A lost connection says how many events had gone (``exc.done``)."""
    if batch:
        try:
            page.target.call_many(calls)
        except ConnectionLost as exc:
            # the tab closed while the batch was handled (a click calling window.close()): the replies
            # of events already handled may never come, but every event had reached the browser
            exc.done = done + (len(calls) if exc.all_sent else exc.done)
            raise
        return
    for n, (method, params) in enumerate(calls, done):
        try:
            page.target.call(method, **params)
        except ConnectionLost as exc:
            exc.done = n
            raise


def move_onto(page: Page, res: Resolved, action: str, move: dict, inside: Inside | None = None) -> None:
    """Move the pointer onto an element in a frame and make sure the browser put it there (:hover)
    before any button goes down: input is routed into frames by hit-test data that may be a frame old,
    and a press landing in another frame's document is unseen. The move is repeated; still elsewhere:
    nothing is pressed. (An iframe target: the pointer must come into one of its frame's documents.)"""
    if inside is None and res.live.get("tag") in ("iframe", "frame"):
        page.target.call("Input.dispatchMouseEvent", **move)
        return
    for _ in range(3):
        page.target.call("Input.dispatchMouseEvent", **move)
        if inside is not None:
            if inside.pointer_in():
                return
            continue
        try:
            under = page.bridge.hovered(res.frame, res.ref.n)
        except (CDPError, JSError, CDPTimeout):
            return  # its document went away or is busy: the guard and the result say what happened
        if under is not False:
            return
    if action != "hover":
        with suppress(CDPError, JSError, CDPTimeout, ConnectionLost):
            page.bridge.disarm(res.frame)
    so = "it was not hovered" if action == "hover" else "nothing was pressed"
    if inside is not None:
        raise NotActionable(f"Element {res.label} is not under the pointer where it was aimed: the pointer did not "
                            f"get into the document of its frame (f{inside.child.index}) there (the browser puts it "
                            f"in another frame's content or on something else), so {so}.")
    raise NotActionable(f"Element {res.label} is not under the pointer where it was aimed: the browser puts "
                        f"the pointer in another frame's content there, so {so}.")
