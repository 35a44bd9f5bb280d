"""click, dblclick and hover on a frame's owner element (iframe, frame): the mouse events land in the
document the frame shows, not on the element, so the element's own guard (act.js ``arm``, in its
document) sees none of them. The frame's document, and every captured document nested in it, watches
instead (act.js ``watchDoc``): the action is ok only when the events really reached one of them, and
the result names the element they reached there. Nothing here prints."""

from __future__ import annotations

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, JSError, NotActionable, NotApplied, VerdexError
from ..browser.frames import Frame
from ..browser.page import Page
from ..snapshot.owners import frame_for
from .resolve import Resolved

OWNER_TAGS = ("iframe", "frame")
MOVES = ("pointermove", "mousemove", "mouseover")


def shows_frame(res: Resolved) -> bool:
    """Is the ref's element a frame's owner (its clicks land in the frame's document)?"""
    return (res.live or {}).get("tag") in OWNER_TAGS


class Inside:
    """The documents of the frame an owner element shows (the frame first, then those nested in it),
    watched while the input is sent."""

    def __init__(self, page: Page, res: Resolved, frames: list[Frame]):
        self.page, self.res, self.frames = page, res, frames
        self.child = frames[0]
        self.loaders = {fr.index: fr.loader_id for fr in frames}

    def moved_on(self) -> bool:
        """The frame's document began navigating away (between the two clicks of a double click)."""
        try:
            return self.page.bridge.navigating(self.child) or self.child.loader_id != self.loaders[self.child.index]
        except (CDPError, JSError, CDPTimeout):
            return True

    def read(self) -> list[tuple[Frame, dict | None]]:
        """What reached each watched document (None: it went away, unread); every watch ends. One
        round trip for all."""
        started = []
        for fr in self.frames:
            try:
                started.append(self.page.bridge.start_unwatch_doc(fr))
            except VerdexError:
                started.append(None)
        out: list[tuple[Frame, dict | None]] = []
        for fr, st in zip(self.frames, started):
            got = None
            if st is not None:
                try:
                    got = self.page.bridge.unwatch_doc(fr, started=st)
                except (CDPError, JSError, CDPTimeout, ConnectionLost):
                    got = None
            if fr.detached or fr.loader_id != self.loaders[fr.index]:
                got = None  # another document now: the watched one went away (what it got is lost)
            out.append((fr, got))
        return out

    def end(self) -> None:
        """Stop watching, nothing read (the action failed before its input was judged)."""
        try:
            self.read()
        except VerdexError:
            pass

    def verdict(self, action: str, reads: list[tuple[Frame, dict | None]], parent: dict) -> tuple[str, dict]:
        """(the result's note, its ``inside``: the frame whose document got the input and the element it
        reached there) when the input reached the frame's documents as asked; else the refusal, saying
        what happened."""
        label, where = self.res.label, f"frame f{self.child.index}"
        if action == "hover":
            moved = [(fr, r) for fr, r in reads if r and any(t in MOVES for t in r["got"])]
            if moved:
                fr, r = moved[-1]
                return (f"The pointer is inside {self._in(fr)}, over {r.get('over') or 'its document'}.",
                        {"frame": fr.index, "reached": r.get("over") or ""})
            raise NotApplied(f"Element {label} is not under the pointer after the move: no pointer event reached "
                             f"the document of {where} (the page moved or covered it, or another frame took the "
                             "pointer).")
        need = action  # 'click' or 'dblclick': the event that says the whole input was delivered
        done = [(fr, r) for fr, r in reads if r and need in r["got"]]
        if done:
            fr, r = done[-1]
            what = "double click" if action == "dblclick" else "click"
            on = f": the press reached {r['press']} there" if r.get("press") else ""
            return (f"The {what} landed inside {self._in(fr)} (not on the {self.res.live.get('tag')} element "
                    f"itself){on}.", {"frame": fr.index, "reached": r.get("press") or ""})
        part = [(fr, r) for fr, r in reads if r and r["got"]]
        if part:
            fr, r = part[-1]
            events = ", ".join(dict.fromkeys(r["got"]))
            raise NotApplied(f"Element {label}: the document of {self._in(fr)} got only part of the {action} "
                             f"({events}); the rest went elsewhere (the page moved, covered or replaced it).")
        if reads and reads[0][1] is None:
            # the frame's document went away before its watch was read: a click that navigated it
            return (f"The {action} went into {where}, whose document then navigated away (what it reached "
                    "there could not be read).", {"frame": self.child.index, "reached": None})
        if parent.get("received", 0) > 0:
            raise NotActionable(f"Element {label} was not clicked inside its frame: the events reached the "
                                f"{self.res.live.get('tag')} element's own border or padding, not the document "
                                f"of {where}.")
        raise NotActionable(f"Element {label} was not clicked: no mouse event reached the document of {where} "
                            "(something else took them); take a new snapshot.")

    def _in(self, fr: Frame) -> str:
        if fr is self.child:
            return f"frame f{fr.index}'s document"
        return f"frame f{fr.index}'s document (nested in frame f{self.child.index})"


def watch_inside(page: Page, res: Resolved, action: str) -> Inside:
    """The frame the owner element shows, and every captured frame nested in it, watching for the
    action's mouse events. Refused (nothing sent) when the element shows no document, or a blank one."""
    child = child_frame(page, res)
    frames = [child] + _nested(page, child)
    moves = action == "hover"
    started = []
    for fr in frames:
        try:
            started.append(page.bridge.start_watch_doc(fr, moves))
        except VerdexError:
            started.append(None)
    answers: list[dict | None] = []
    for fr, st in zip(frames, started):
        try:  # a frame whose world is not set up yet: set up now (one round trip each)
            answers.append(page.bridge.watch_doc(fr, moves, started=st) if st is not None or fr is child else None)
        except (CDPError, JSError, CDPTimeout):
            answers.append(None)
    inside = Inside(page, res, [fr for fr, a in zip(frames, answers) if a is not None])
    first = answers[0]
    if first is None or first.get("blank"):
        inside.end()
        why = ("shows an empty document (about:blank): nothing has loaded in it to click" if first
               else "has no document that answers (it is loading or going away)")
        raise NotActionable(f"Element {res.label} is not actionable: its frame (f{child.index}) {why}; "
                            "no mouse event was sent.")
    return inside


def child_frame(page: Page, res: Resolved) -> Frame:
    """The frame the owner element shows (its frame id, from its DOM node)."""
    node: dict = {}
    try:
        obj = page.bridge.owner(res.frame, res.ref.n, "element")
        if "objectId" in obj:
            node = res.frame.target.call("DOM.describeNode", objectId=obj["objectId"])["node"]
    except (CDPError, JSError, CDPTimeout):
        node = {}
    finally:
        try:
            res.frame.target.send("Runtime.releaseObjectGroup", objectGroup="verdex-owners")
        except ConnectionLost:
            pass
    frame_id = node.get("frameId")
    if not frame_id:
        raise NotActionable(f"Element {res.label} is not actionable: it shows no document (its frame has not "
                            "loaded one); no mouse event was sent.")
    fr = page.frames.by_id.get(frame_id)
    if fr is None or fr.detached or fr.parent != res.frame.index:
        try:
            fr = frame_for(page, res.frame, frame_id, res.frame.target.call("Page.getFrameTree")["frameTree"])
        except (CDPError, CDPTimeout):
            fr = None
    if fr is None:
        raise NotActionable(f"Element {res.label} is not actionable: the document of its frame cannot be reached "
                            "(not loaded yet); no mouse event was sent.")
    if node.get("backendNodeId"):
        page.frames.remember_owner(fr, node["backendNodeId"])
    return fr


def _nested(page: Page, child: Frame) -> list[Frame]:
    """Frames inside ``child`` (any depth) whose world is set up (captured), outermost first."""
    out = []
    for fr in page.frames.all_frames():
        depth, up = 0, fr
        while up is not None and up.parent is not None and up is not child:
            depth += 1
            up = page.frames.get(up.parent)
        if up is child and fr is not child and page.frames.ready(fr):
            out.append((depth, fr.index, fr))
    return [fr for _d, _i, fr in sorted(out, key=lambda t: (t[0], t[1]))]
