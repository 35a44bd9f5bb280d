"""click, dblclick and hover on a frame's owner element (iframe): the events land in the document the
frame shows, which the element's own guard never sees, so that document and every captured one nested
in it watch instead (frame_watch.js ``watchDoc``): ok only when the events reached one of them."""

from __future__ import annotations

from contextlib import suppress
from ..base.errors import CDPError, CDPTimeout, ConnectionLost, JSError, NotActionable, NotApplied, VerdexError
from ..browser.frames import Frame
from ..browser.page import Page
from ..snapshot.owners import frame_for
from .frame_points import above
from .resolve import Resolved

OWNER_TAGS = ("iframe", "frame")
MAX_DEPTH = 8  # frames followed down from the owner's click point
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

    def _ask(self, start) -> list[dict | None]:
        """_ask_all in the watched documents; None for one that went away (what it got is lost)."""
        return [None if fr.detached or fr.loader_id != self.loaders[fr.index] else got
                for fr, got in zip(self.frames, _ask_all(self.frames, start))]

    def _states(self) -> list[dict | None]:
        return self._ask(lambda fr: self.page.bridge.watch_state(fr, later=True))

    def pointer_in(self) -> bool:
        """After the move: the pointer came into one of the watched documents and stayed there."""
        return any(s and s.get("moved") and not s.get("left") for s in self._states())

    def moved_on(self) -> bool:
        """A watched document began navigating away, or went (between the two clicks of a double click)."""
        states = self._states()
        return any(s is None or s.get("nav") for s in states[:1]) or any(s and s.get("nav") for s in states)

    def read(self, settle: bool = False) -> list[tuple[Frame, dict | None]]:
        """What reached each watched document (None: it went away); every watch ends (``settle``: a
        hover's, two animation frames after the move)."""
        return list(zip(self.frames, self._ask(lambda fr: self.page.bridge.unwatch_doc(fr, settle, later=True))))

    def end(self) -> None:
        """Stop watching, nothing read (the action failed before its input was judged)."""
        with suppress(VerdexError):
            self.read()

    def verdict(self, action: str, reads: list[tuple[Frame, dict | None]], parent: dict) -> tuple[str, dict]:
        """(the result's note, ``inside``: the frame and element the input reached) when it reached the
        frame's documents as asked; else the refusal, saying what happened."""
        label, where = self.res.label, f"frame f{self.child.index}"
        if action == "hover":
            moved = [(fr, r) for fr, r in reads if r and any(t in MOVES for t in r["got"])]
            there = [(fr, r) for fr, r in moved if not r.get("left")]
            if there:
                fr, r = there[-1]
                return (f"The pointer is inside {self._in(fr)}, over {r.get('over') or 'its document'}.",
                        {"frame": fr.index, "reached": r.get("over") or ""})
            if moved:
                raise NotApplied(f"Element {label} is not under the pointer after the move: the pointer went into "
                                 f"{self._in(moved[-1][0])}, then left it (the page moved or covered it).")
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
    """The frame the owner shows and every captured frame nested in it, watching for the action's mouse
    events. Refused (nothing sent) when the element shows no document, or a blank one."""
    child = child_frame(page, res)
    chain, answers, at = [child], [], None
    while True:
        fr = chain[-1]
        try:
            answers.append(page.bridge.watch_doc(fr, at))
        except (CDPError, JSError, CDPTimeout):
            answers.append(None)
        into = answers[-1].get("into") if answers[-1] else None
        if not into or len(chain) >= MAX_DEPTH:
            break
        nested = _watched_frame(page, fr)
        if nested is None or nested in chain:
            break
        chain.append(nested)
        at = into
    others = [fr for fr in _nested(page, child) if fr not in chain]
    answers += _ask_all(others, lambda fr: page.bridge.watch_doc(fr, None, later=True))
    frames = chain + others
    inside = Inside(page, res, [fr for fr, a in zip(frames, answers) if a is not None])
    first = answers[0]
    if first is None or first.get("blank"):
        inside.end()
        why = ("shows an empty document (about:blank): nothing has loaded in it to click" if first
               else "has no document that answers (it is loading or going away)")
        raise NotActionable(f"Element {res.label} is not actionable: its frame (f{child.index}) {why}; "
                            "no mouse event was sent.")
    return inside


def _ask_all(frames: list[Frame], start) -> list[dict | None]:
    """``start(frame)`` in every frame at once (one round trip): each answer, or None."""
    started = []
    for fr in frames:
        try:
            started.append(start(fr))
        except VerdexError:
            started.append(None)
    out = []
    for st in started:
        got = None
        if st is not None and st.sent is not None:
            with suppress(CDPError, JSError, CDPTimeout, ConnectionLost):
                got = st.value()
        out.append(got)
    return out


def child_frame(page: Page, res: Resolved) -> Frame:
    """The frame the owner element shows (its frame id, from its DOM node)."""
    try:
        obj = page.bridge.owner(res.frame, res.ref.n, "element")
    except (CDPError, JSError, CDPTimeout):
        obj = {}
    fr, frame_id = _shown(page, res.frame, obj)
    if not frame_id:
        raise NotActionable(f"Element {res.label} is not actionable: it shows no document (its frame has not "
                            "loaded one); no mouse event was sent.")
    if fr is None:
        raise NotActionable(f"Element {res.label} is not actionable: the document of its frame cannot be reached "
                            "(not loaded yet); no mouse event was sent.")
    return fr


def _watched_frame(page: Page, fr: Frame) -> Frame | None:
    """The frame shown by the iframe at the watched point of ``fr``'s document (FrameWatch.watchedFrame)."""
    try:
        obj = page.bridge.watched_frame(fr)
    except (CDPError, JSError, CDPTimeout):
        return None
    return _shown(page, fr, obj)[0]


def _shown(page: Page, parent: Frame, obj: dict) -> tuple[Frame | None, str | None]:
    """(the frame, its id) an owner element (a remote object of ``parent``'s world, group
    ``verdex-owners``) shows: None when it shows none, or it cannot be reached."""
    node: dict = {}
    try:
        if "objectId" in obj:
            node = parent.target.call("DOM.describeNode", objectId=obj["objectId"])["node"]
    except (CDPError, CDPTimeout):
        node = {}
    finally:
        with suppress(ConnectionLost):
            parent.target.send("Runtime.releaseObjectGroup", objectGroup="verdex-owners")
    frame_id = node.get("frameId")
    if not frame_id:
        return None, None
    fr = page.frames.by_id.get(frame_id)
    if fr is None or fr.detached or fr.parent != parent.index:
        try:
            fr = frame_for(page, parent, frame_id, parent.target.call("Page.getFrameTree")["frameTree"])
        except (CDPError, CDPTimeout):
            fr = None
    if fr is not None and node.get("backendNodeId"):
        page.frames.remember_owner(fr, node["backendNodeId"])
    return fr, frame_id


def _nested(page: Page, child: Frame) -> list[Frame]:
    """Frames inside ``child`` (any depth) whose world is set up (captured), outermost first."""
    inside = [fr for fr in page.frames.all_frames() if child.index in above(page, fr) and page.frames.ready(fr)]
    return sorted(inside, key=lambda fr: (len(above(page, fr)), fr.index))
