"""Plain data for snapshots.  Tree nodes stay the compact dicts the bridge returns:

``{"r": role, "n": name, "nc": 1 if the name came from content, "e": ref number,
"t": tier (left out for 1), "s": {states}, "v": value, "c": [children: nodes or text strings; a node
named from text-only content has no "c": its name is that text],
"fo": frame-owner slot}``; capture adds ``"fi"`` (frame index) to each frame's
root and ``"sub"`` (the child frame's root) or ``"err"`` to iframe nodes.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class FrameInfo:
    index: int
    url: str
    name: str
    cross_origin: bool
    parent: int | None = None
    gone: list[int] = field(default_factory=list)  # ref numbers the frame's registry dropped (see refs.py)
    tiers: tuple[int, int] | None = None  # refs issued by tier (1, 2) in this capture, counted by the bridge

    def as_json(self) -> dict:
        return {"index": self.index, "url": self.url, "name": self.name, "cross_origin": self.cross_origin}


@dataclass
class RefInfo:
    ref: str
    role: str
    name: str
    frame: int
    tier: int
    shown: bool = True


@dataclass
class Snapshot:
    number: int
    text: str
    root: dict | None  # None when the page rendered the text (``views``): see views.held_tree
    refs: dict[str, RefInfo]
    frames: list[FrameInfo]
    notes: list[str] = field(default_factory=list)
    compact: bool = False
    hidden: dict[int, str] = field(default_factory=dict)  # text line index -> ref not shown there (compact)
    loaders: dict[int, str] = field(default_factory=dict)  # frame index -> its document (loader id) at capture
    ids: object = None  # per text line: the node's identity (render_text.node_key), internal, never shown
    views: object = None  # the page-rendered frame texts it was stitched from (views.FrameView; root is None)
    long: dict[int, str] | None = None  # text line index -> that line with no text cut (None: not known)
    marked: frozenset = frozenset()  # frames whose capture marked their refs shown in the page (capture.py)

    def as_json(self) -> dict:
        return {
            "text": self.text,
            "refs": {r: {"role": i.role, "name": i.name, "frame": i.frame}
                     for r, i in self.refs.items() if i.shown},
            "frames": [f.as_json() for f in self.frames],
            "notes": list(self.notes),
            "snapshot": self.number,
        }


def collect_owners(node: dict, out: list) -> None:
    """The frame owners of ``node``'s frame tree (not of the frames stitched under them) added to
    ``out``, by slot."""
    stack = [node]
    while stack:
        n = stack.pop()
        if "fo" in n:
            out.append(n)
        kids = n.get("c")
        if kids:
            stack.extend(k for k in reversed(kids) if not isinstance(k, str))
    out.sort(key=lambda n: n["fo"])
