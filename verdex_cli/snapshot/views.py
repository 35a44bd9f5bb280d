"""A frame's snapshot text as the page rendered it (text.js), and the page's text stitched from them.

The page renders its text in a few milliseconds where rendering the tree here took many times that;
the tree, which the page keeps anyway, is fetched only when a command needs it (take.tree_of). A frame
that changed answers only the lines that differ from the render kept here (``FrameView.follow``). The
stitched text is the one render_text.py makes of the stitched tree (``take.CHECK_PATCHES`` checks it)."""

from __future__ import annotations

import json
from array import array
from dataclasses import dataclass

from .model import RefInfo
from .render_text import node_key

REF = "\x01"  # where the page wrote "{prefix}f{frame}" in a ref (text.js)
OWNER = "\x02"  # where a frame owner's " [frame=fN]" goes


class ViewMismatch(ValueError):
    """A frame's changed lines do not fit the render kept here (then the frame is captured whole)."""


@dataclass
class FrameView:
    index: int
    cap: int  # the capture this render belongs to (the page answers changes to it)
    compact: bool  # the page's choice, from this frame's refs alone
    refs: list[RefInfo]  # document order
    t2: list[tuple[int, str]]  # (line, ref) of every tier-2 ref
    ids: array  # per line: the node's identity (render_text.node_key)
    owners: list[dict]  # {"fo": slot, "line": k[, "fid": frame id]}; capture.py adds "fi", "sub" or "err"
    shape: int  # what a frame owner shows after its line: 0 nothing, 1 ``inline`` text, 2 the lines after line 0
    inline: str | None
    ref_lines: list[int] | None  # the line of each ref (only for frames with owners: for the order)
    long: dict[int, str]  # line -> the line with no text cut, for the lines a text was cut in (delta.py)
    _text: str | None = None
    _lines: list[str] | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = "\n".join(self._lines)
        return self._text

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self._text.split("\n")
        return self._lines

    @classmethod
    def whole(cls, v: dict, index: int, cap: int, prefix: str) -> "FrameView":
        spelled = f"{prefix}f{index}"
        text = v["text"].replace(REF, spelled)
        ids = _ids(v["ids"], v["frame"], index)
        refs = _refs(v["refs"], spelled, index, v["compact"])
        t2 = v["t2"]
        lines = text.split("\n") if v.get("long") else None  # (only then: a page's text is long)
        return cls(index, cap, v["compact"], refs, [(t2[i], f"{spelled}e{t2[i + 1]}") for i in range(0, len(t2), 2)],
                   ids, _owners(v), v["shape"], v["inline"], v.get("rl"), _long(v, 0, spelled, lines), _text=text,
                   _lines=lines)

    def follow(self, v: dict, cap: int, prefix: str) -> "FrameView":
        """This render with the lines that changed (the page's answer ``v``, a ``diff``), for capture ``cap``.
        This one stays as it was (an earlier snapshot may hold it)."""
        d = v["diff"]
        lines = self.lines
        at, gone, old = d["at"], d["del"], d["old"]
        if old != len(lines) or at + gone > old or d["ra"] + d["rb"] > len(self.refs) or d["ka"] + d["kb"] > len(self.t2):
            raise ViewMismatch(f"frame f{self.index}: changed lines do not fit the render held")
        spelled = f"{prefix}f{self.index}"
        mid = d["text"].replace(REF, spelled).split("\n") if d["lines"] else []
        delta = len(mid) - gone
        # the changed lines may start at the document line (line 0): its identity is the frame's own,
        # as in a whole answer (render_text.node_key(frame, 0)), also when the page did not know the index
        ids = self.ids[:at] + _ids(d["ids"], v["frame"], self.index, first=at == 0) + self.ids[at + gone:]
        rb, kb = d["rb"], d["kb"]
        refs = self.refs[:d["ra"]] + _refs(d["refs"], spelled, self.index, v["compact"]) + \
            (self.refs[len(self.refs) - rb:] if rb else [])
        t2 = d["t2"]
        after = self.t2[len(self.t2) - kb:] if kb else []
        if delta and after:
            after = [(line + delta, ref) for line, ref in after]
        t2s = self.t2[:d["ka"]] + [(t2[i], f"{spelled}e{t2[i + 1]}") for i in range(0, len(t2), 2)] + after
        long = {k: line for k, line in self.long.items() if k < at}
        long.update(_long(d, at, spelled, mid))
        long.update((k + delta, line) for k, line in self.long.items() if k >= at + gone)
        return FrameView(self.index, cap, v["compact"], refs, t2s, ids, _owners(v), v["shape"], v["inline"], v.get("rl"),
                         long, _lines=lines[:at] + mid + lines[at + gone:])


def _ids(raw: list, page_frame: int, index: int, first: bool = True) -> array:
    if page_frame == index:
        return array("q", raw)
    base = node_key(index, 0)  # the page did not know the frame's index: its numbers are without it
    out = array("q", [base | x if x else 0 for x in raw])
    if first and out:
        out[0] = base  # the frame's document line
    return out


def _long(v: dict, at: int, spelled: str, lines: list[str]) -> dict[int, str]:
    """The page's whole lines from line ``at`` on (``lines``: the text's, from there): ``long`` [line, p, ...],
    each the line's first p characters (no ref among them) followed by its rest in ``whole``, one a line."""
    flat = v.get("long")
    if not flat:
        return {}
    rests = v["whole"].replace(REF, spelled).split("\n")
    return {at + flat[i]: lines[flat[i]][:flat[i + 1]] + rests[i // 2] for i in range(0, len(flat), 2)}


def _refs(raw: list, spelled: str, index: int, compact: bool) -> list[RefInfo]:
    """The refs the page listed flat: number, role, name, tier of each, one after the other."""
    it = iter(raw)
    return [RefInfo(f"{spelled}e{n}", role, name, index, tier, not (compact and tier == 2))
            for n, role, name, tier in zip(it, it, it, it)]


def _owners(v: dict) -> list[dict]:
    out = []
    for line, slot, fid in v["owners"]:
        o = {"fo": slot, "line": line}
        if fid:
            o["fid"] = fid
        out.append(o)
    return out


class Stitched:
    """The page's text, ids, refs and hidden lines from a frame view and the frames inside it."""

    def __init__(self, compact: bool):
        self.compact = compact
        self.lines: list[str] = []
        self.ids = array("q")
        self.refs: dict[str, RefInfo] = {}
        self.hidden: dict[int, str] = {}
        self.long: dict[int, str] = {}
        self.text: str | None = None

    def build(self, root: FrameView) -> "Stitched":
        if not root.owners and not self._strip(root):
            # one frame as the page rendered it: nothing to copy line by line
            self.text, self.ids, self.long = root.text, root.ids, root.long
            self.refs = {r.ref: r for r in root.refs}
            if root.compact:
                self.hidden = dict(root.t2)
            return self
        self._frame(root, "", 0)
        self.text = "\n".join(self.lines)
        return self

    def _strip(self, v: FrameView) -> bool:
        """The page shows refs the whole page's compact mode hides (this frame alone had few)."""
        return self.compact and not v.compact and bool(v.t2)

    def _frame(self, v: FrameView, indent: str, skip: int) -> None:
        """Lines ``skip``.. of frame view ``v`` (a child frame's document line is its owner's), each
        frame owner's line followed by what its frame shows."""
        lines, refs, ids = v.lines, v.refs, v.ids
        strip = self._strip(v)
        hide = dict(v.t2) if (v.compact or strip) else {}
        owners = sorted(v.owners, key=lambda o: o["line"])
        marks = {o["line"]: f" [frame=f{o['fi']}]" if "fi" in o else "" for o in owners}
        # the line of each ref, to keep document order across frames (sent for frames with owners)
        ref_at = v.ref_lines if v.ref_lines is not None and len(v.ref_lines) == len(refs) else None
        at = [0, skip]  # the next ref, the next line

        def copy(upto: int) -> None:  # this frame's lines up to ``upto``, and the refs on them
            out = self.lines
            for k in range(at[1], upto):
                line = lines[k]
                whole = v.long.get(k)
                if k in hide:
                    ref = hide[k]
                    if strip:
                        line = _unshow(line, ref)
                        whole = whole and _unshow(whole, ref)
                    self.hidden[len(out)] = ref
                if k in marks:
                    line = line.replace(OWNER, marks[k])
                    whole = whole and whole.replace(OWNER, marks[k])
                if whole:
                    self.long[len(out)] = indent + whole
                out.append(indent + line if indent else line)
            self.ids.extend(ids[at[1]:upto])
            at[1] = upto
            if ref_at is None and upto < len(lines):
                return  # (no lines given: every ref after the frame's last line)
            ri = at[0]
            while ri < len(refs) and (ref_at is None or ref_at[ri] < upto):
                self._ref(refs[ri], strip)
                ri += 1
            at[0] = ri

        for o in owners:
            copy(o["line"] + 1)  # up to and with the owner's own line
            line = self.lines[-1]
            own_indent = line[:len(line) - len(line.lstrip(" "))]
            sub = o.get("sub")
            if "err" in o:
                self._end_owner(":")
                self.lines.append(f"{own_indent}  - note: {o['err']}")
                self.ids.append(0)
            elif sub is None or sub.shape == 0:
                continue
            elif sub.shape == 1:
                if sub.inline:
                    self._end_owner(": " + sub.inline)
                for r in sub.refs:
                    self._ref(r, self._strip(sub))
            else:
                self._end_owner(":")
                self._frame(sub, own_indent, 1)
        copy(len(lines))

    def _end_owner(self, end: str) -> None:
        """A frame owner's line (the last one) followed by what its frame shows."""
        k = len(self.lines) - 1
        self.lines[k] += end
        if k in self.long:
            self.long[k] += end

    def _ref(self, r: RefInfo, strip: bool) -> None:
        if strip and r.tier == 2 and r.shown:
            r = RefInfo(r.ref, r.role, r.name, r.frame, r.tier, False)
        self.refs[r.ref] = r


_STRING = json.JSONDecoder().raw_decode


def _unshow(line: str, ref: str) -> str:
    """A line without its ``[ref=...]`` (compact mode): the one after the name, which is a JSON string
    that may hold anything, and before the value, which may too."""
    dash = line.index("- ") + 2
    end = line.find(" ", dash)
    if end < 0:
        return line
    if line.startswith(' "', end):
        _name, end = _STRING(line, end + 1)
    at = line.find(f" [ref={ref}]", end)
    return line if at < 0 else line[:at] + line[at + len(ref) + 7:]


def frames_of(root: FrameView) -> list[FrameView]:
    """The frame views stitched into ``root``, itself first (document order)."""
    out, stack = [], [root]
    while stack:
        v = stack.pop()
        out.append(v)
        stack.extend(o["sub"] for o in reversed(sorted(v.owners, key=lambda o: o["line"])) if o.get("sub") is not None)
    return out
