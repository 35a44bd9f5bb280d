"""A tab's story: the commands run on it, what each did to its documents, and the refs it made stale.

The runner opens a :class:`Step` before each command and closes it after (commands/runner.py).
Each frame's document (loader id) is read from what the browser already told (no round trip) at both
ends: a document that changed during the command is put down to that command; one that changed
between commands, to the page itself. A ref of a document its frame left is then explained by
:meth:`TabLog.since`: what its frame (or the page around it) did after the ref was issued. Bounded:
the last STEPS commands and DOCS document changes.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field

STEPS = 200     # commands kept per tab
DOCS = 500      # document changes kept per tab
LISTED = 50     # refs listed per command (the rest counted)
_IFRAME = re.compile(r'- (?:iframe|frame) "((?:[^"\\]|\\.)*)" \[frame=f(\d+)\]')


@dataclass(slots=True)
class Step:
    """One command of the tab's log."""

    n: int
    line: str
    before: int                 # the tab's snapshot number when it began
    after: int = 0              # ... and when it ended
    outcome: str = ""           # "ok", or the error kind
    message: str = ""           # the error's message
    stale: list[str] = field(default_factory=list)  # refs it made stale (or first found stale)
    more: int = 0               # stale refs beyond LISTED
    reads: bool = False         # it only reads the page (snapshot, inspect, find...)

    @property
    def label(self) -> str:
        return f"'{self.line}' (command {self.n})"

    def as_json(self) -> dict:
        return {"n": self.n, "command": self.line, "snapshot_before": self.before, "snapshot_after": self.after,
                "outcome": self.outcome, "message": self.message, "stale": list(self.stale), "stale_count": len(self.stale) + self.more}


@dataclass(slots=True)
class DocChange:
    """A frame that showed another document (or went away), and who did it."""

    frame: int
    name: str
    old: str                    # loader ids
    new: str
    url_after: str
    how: str                    # navigated | reloaded | restored | removed
    step: Step | None           # the command during which it happened; None: the page, between commands
    snapshot: int

    def words(self) -> str:
        """E.g. `'back' (command 4) restored URL from the back/forward cache`, `frame f2 "Pay" reloaded`."""
        by = self.step.label if self.step is not None else ""
        if self.frame:
            who = f'frame f{self.frame} "{self.name}"' if self.name else f"frame f{self.frame}"
            what = {"reloaded": "reloaded", "removed": "removed", "navigated": f"navigated to {self.url_after}",
                    "restored": f"was restored to {self.url_after} from the back/forward cache"}[self.how]
            return f"{who} {what}" + (f" during {by}" if by else "")
        if self.how == "reloaded":
            return f"the page was reloaded by {by}" if by else "the page reloaded itself"
        if self.how == "restored":
            return f"{by or 'the page'} restored {self.url_after} from the back/forward cache"
        return f"{by} navigated to {self.url_after}" if by else f"the page went to {self.url_after} by itself"


class TabLog:
    def __init__(self) -> None:
        self.steps: deque[Step] = deque(maxlen=STEPS)
        self.count = 0
        self.current: Step | None = None
        self.docs: deque[DocChange] = deque(maxlen=DOCS)
        self.shown: dict[int, tuple[str, str, str]] = {}  # frame -> (loader, url, name) last read
        self.visited: dict[int, set[str]] = {}            # frame -> loaders it showed (restores)
        self.urls: dict[str, str] = {}                    # loader -> its URL (bounded with docs)
        self.titles: dict[int, str] = {}                  # frame -> its iframe's name in the last snapshot

    def begin(self, line: str, snapshot: int, reads: bool = False) -> Step:
        self.count += 1
        self.current = Step(self.count, line, snapshot, reads=reads)
        self.steps.append(self.current)
        return self.current

    def watch(self, frames: dict[int, tuple[str, str, str]], snapshot: int, step: Step | None,
              reloaded=None) -> list[DocChange]:
        """Note every frame whose document changed since it was last read (``reloaded(old, new)``:
        the main document came from reloading the old one); returns those changes."""
        out = []
        for fi, (old, url, name) in list(self.shown.items()):
            now = frames.get(fi)
            if now is None:
                if fi:
                    out.append(DocChange(fi, self.titles.get(fi, name), old, "", "", "removed", step, snapshot))
                del self.shown[fi]
            elif now[0] != old and now[0]:
                out.append(DocChange(fi, self.titles.get(fi) or now[2] or name, old, now[0], now[1],
                                     self._how(fi, old, now, url, reloaded), step, snapshot))
        self.docs.extend(out)
        for fi, now in frames.items():
            if now[0]:
                self.shown[fi] = now
                self.visited.setdefault(fi, set()).add(now[0])
                self.urls[now[0]] = now[1]
        if len(self.urls) > 4 * DOCS:
            for loader in list(self.urls)[:DOCS]:
                del self.urls[loader]
        return out

    def _how(self, fi: int, old: str, now: tuple[str, str, str], url: str, reloaded) -> str:
        if now[0] in self.visited.get(fi, ()):
            return "restored"
        if (fi == 0 and reloaded is not None and reloaded(old, now[0])) or (
                fi and now[1].split("#")[0] == url.split("#")[0]):
            return "reloaded"
        return "navigated"

    def name_frames(self, text: str) -> None:
        """Each iframe's name as a snapshot's text shows it (`- iframe "Pay" [frame=f2]`)."""
        if "[frame=f" in text:
            self.titles.update((int(m[2]), m[1]) for m in _IFRAME.finditer(text))

    @staticmethod
    def made_stale(ref: str, step: Step | None) -> None:
        if step is None:
            return
        if len(step.stale) >= LISTED:
            step.more += 1
        elif ref not in step.stale:
            step.stale.append(ref)

    def step(self, n: int) -> Step | None:
        return next((s for s in self.steps if s.n == n), None)

    def since(self, frame: int, loader: str, main: str = "") -> list[DocChange]:
        """What made a document stale, in order: its frame's changes from ``loader`` on, or the main
        frame's from ``main`` (the page it was in), whichever began first."""
        starts = {0: main, frame: loader}
        found: dict[int, list[DocChange]] = {}
        for d in self.docs:
            if d.frame in starts and (d.frame in found or (d.old and d.old == starts[d.frame])):
                found.setdefault(d.frame, []).append(d)
        return next(iter(found.values()), [])  # (the frame whose first change came first: found in order)


def documents(page) -> dict[int, tuple[str, str, str]]:
    """Each frame of the tab: (its document's loader id, URL, name), as the browser last told (no call)."""
    return {fi: (fr.loader_id, fr.url, fr.name) for fi, fr in page.frames.by_index.items() if not fr.detached}


def explain(changes: list[DocChange], home: str = "") -> str:
    """The cause in words: the first change, and the last when there were more (``home``: the URL
    the ref was issued at; coming back to it is not going elsewhere)."""
    if not changes:
        return ""
    last = changes[-1]
    if len(changes) == 1:
        return last.words()
    if last.url_after == home and last.how == "navigated" and last.step is not None:
        back = f"{last.step.label} loaded {home} again, a new document"
    elif last.url_after == home and last.how == "restored":
        back = f"{last.words()}; its refs are of the earlier visit"
    else:
        back = last.words()
    return f"{changes[0].words()}; then {back}"
