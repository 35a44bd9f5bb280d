"""Refs: parsing, the per-page ref store with history, and staleness classification.

The store is pure data; resolving a ref against the live page happens in
:mod:`verdex_cli.act.resolve`.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from ..base.errors import ErrorKind, RefError
from ..base.gc_pause import gc_paused
from ..browser.numbering import RefNumbers
from ..snapshot.model import RefInfo, Snapshot

_INDEX = r"(0|[1-9][0-9]*)"  # canonical numbers only: c00p0f0e1 is not a ref
REF_RE = re.compile(rf"^c{_INDEX}p{_INDEX}f{_INDEX}e([1-9][0-9]*)$")
EXAMPLE = "c0p0f0e3"


@dataclass(frozen=True)
class Ref:
    context: int
    page: int
    frame: int
    n: int

    def __str__(self) -> str:
        return f"c{self.context}p{self.page}f{self.frame}e{self.n}"


def parse_ref(text: str) -> Ref:
    m = REF_RE.match(text.strip())
    if not m:
        raise RefError(f"Invalid ref '{text}'. Expected c{{context}}p{{page}}f{{frame}}e{{n}}, e.g. {EXAMPLE}.",
                       kind=ErrorKind.INVALID_REF)
    return Ref(*(int(g) for g in m.groups()))


def describe(role: str, name: str) -> str:
    return f'{role} "{name}"' if name else role


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


_WORD = re.compile(r"\w+")


def name_change(old: str, new: str) -> str:
    """'same', 'minor' or 'significant'.

    Names are compared as sequences of words (letters and digits, case-folded). Minor: the same words
    (case, whitespace or punctuation changed), or the words of one name are a whole-word prefix or suffix
    of the other's (an added count "Add to cart" -> "Add to cart (2)", "Submit" -> "Submit order").
    Anything else -- a word or number changed ("Item 1" -> "Item 12", "Save" -> "Saving...") -- is
    significant: a recycled element showing another item must not be acted on.
    """
    if old == new:
        return "same"
    a, b = _WORD.findall(old.casefold()), _WORD.findall(new.casefold())
    if not a and not b:  # symbols only ("+", "×"): compare them as they are
        return "minor" if _norm(old) == _norm(new) else "significant"
    if a == b:
        return "minor"
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    k = len(short)
    if long_[:k] == short or long_[len(long_) - k:] == short:
        return "minor"
    return "significant"


@dataclass(slots=True)
class RefRecord:
    ref: str
    role: str
    name: str
    frame: int
    loader: str
    tier: int
    first_seen: int
    last_seen: int
    shown: bool = True
    status: str = "live"  # live | changed | removed | hidden | navigated
    history: list[str] = field(default_factory=list)
    retired: str = ""  # of an earlier document of its frame: the main frame's document when it was issued

    def log(self, line: str) -> None:
        """Add to the history, keeping its first line and the most recent ones."""
        self.history.append(line)
        if len(self.history) > HISTORY:
            del self.history[1:len(self.history) - HISTORY + 1]


HISTORY = 30        # history lines kept per ref
TOMB_NAMES = 5000   # tombstones that still know the role and name of their element
RETIRED_NAMES = 5000  # refs of earlier documents that still know the role and name of their element


class RefStore:
    """All refs of one page and their history (the snapshots themselves: page_state.py).

    Memory stays bounded on pages that re-render all the time: when the page's registry drops a
    long-gone element (see engine/registry.js) its record here becomes a tombstone -- one bit per
    frame and ref number, plus role and name for the most recent TOMB_NAMES -- so the ref still
    resolves to `removed`, never to `unknown_ref`.

    A frame's refs are let go of when it shows another document; since numbers only grow per frame
    index in a tab (``numbers``, shared with the tab's frame registry: browser/numbering.py), each
    such ref is still known to be of an earlier document and reports `navigated` for good.
    """

    def __init__(self, prefix: str, numbers: RefNumbers | None = None):
        self.prefix = prefix
        self.numbers = numbers if numbers is not None else RefNumbers()
        self.retired_names: OrderedDict[str, tuple[str, str]] = OrderedDict()
        self.records: dict[str, RefRecord] = {}
        self.tombs: dict[int, bytearray] = {}           # frame -> bitmap of dropped ref numbers
        self.tomb_names: OrderedDict[str, tuple[str, str]] = OrderedDict()
        self.tombstone_count = 0
        self.snapshot_no = 0
        self.last_snapshot_at: float | None = None
        self.frame_loaders: dict[int, str] = {}

    # -- recording ---------------------------------------------------------
    def next_number(self) -> int:
        return self.snapshot_no + 1

    def record(self, snap: Snapshot, loaders: dict[int, str], captured_frames: set[int], shown: bool = True) -> None:
        """Record a capture. ``shown``: its refs were shown to the user as they are now; else (an action's
        change capture) only refs new to the store take their role and name from it: what the others
        were last shown stays, until :meth:`show` says the user saw them (a change line)."""
        no = snap.number
        self.snapshot_no = no
        self.last_snapshot_at = time.monotonic()
        # a frame that now shows another document: its old refs are gone for good
        # (a new main document takes every frame's refs with it)
        old_main = self.frame_loaders.get(0)
        if 0 in captured_frames and old_main is not None and old_main != loaders.get(0):
            self._retire(list(self.records))
            self.frame_loaders.clear()
            self._clear_tombs(None)
        for fi in captured_frames:
            old = self.frame_loaders.get(fi)
            if old is not None and old != loaders.get(fi):
                self._retire([k for k, r in self.records.items() if r.frame == fi])
                self._clear_tombs(fi)
        self.frame_loaders.update({fi: loaders[fi] for fi in captured_frames})
        with gc_paused():  # thousands of new records would each time walk the snapshot just parsed
            new = self._record_refs(snap, loaders, no, shown)
        if new != len(self.records):  # some record was not seen now
            for rec in self.records.values():
                if rec.last_seen != no and rec.frame in captured_frames and rec.status in ("live", "changed"):
                    rec.status = "hidden"  # refined to 'removed' by the caller when the element is gone
        for f in snap.frames:
            if f.gone and f.index in captured_frames:
                self._bury(f.index, f.gone)

    def _record_refs(self, snap: Snapshot, loaders: dict[int, str], no: int, shown: bool = True) -> int:
        """Record every ref of the snapshot; returns how many records are new."""
        records = self.records
        tombs = self.tombs
        new = 0  # refs recorded for the first time (the common case of a fresh page): made here, inline
        for ref, info in snap.refs.items():
            rec = records.get(ref)
            if rec is None:
                role, name = info.role, info.name
                line = f'issued in snapshot #{no} as {role} "{name}"' if name else f"issued in snapshot #{no} as {role}"
                records[ref] = RefRecord(ref, role, name, info.frame, loaders.get(info.frame, ""), info.tier, no, no,
                                         info.shown, "live", [line])
                new += 1
                if tombs and info.frame in tombs:  # an element that came back after its ref was buried
                    self._unbury(info.frame, ref)
            else:
                self._seen(ref, info, loaders.get(info.frame, ""), no, shown)
        return new

    def show(self, refs: dict[str, RefInfo]) -> None:
        """The user was shown these refs (ref -> what a capture saw of it): that is what they saw."""
        no = self.snapshot_no
        for ref, info in refs.items():
            rec = self.records.get(ref)
            if rec is not None and rec.loader == self.frame_loaders.get(info.frame, rec.loader):
                self._saw(rec, info, no)

    def show_live(self, ref: str, role: str, name: str) -> None:
        """The user was shown ``ref`` as it is now (``inspect``): its role and name."""
        rec = self.records.get(ref)
        if rec is not None:
            self._saw(rec, RefInfo(ref, role, name, rec.frame, rec.tier), self.snapshot_no)

    def _seen(self, ref: str, info: RefInfo, loader: str, no: int, shown: bool = True) -> None:
        rec = self.records.get(ref)
        if rec is None:
            rec = RefRecord(ref, info.role, info.name, info.frame, loader, info.tier, no, no, info.shown)
            rec.history.append(f"issued in snapshot #{no} as {describe(info.role, info.name)}")
            self.records[ref] = rec
            if info.frame in self.tombs:  # an element that came back after its ref was buried
                self._unbury(info.frame, ref)
            return
        if shown:
            self._saw(rec, info, no)
        if rec.status in ("hidden", "removed"):
            rec.log(f"seen again in #{no}")
        rec.tier, rec.shown = info.tier, info.shown
        rec.last_seen, rec.status = no, "live"

    @staticmethod
    def _saw(rec: RefRecord, info: RefInfo, no: int) -> None:
        if rec.role != info.role:
            rec.log(f"role {rec.role} -> {info.role} in #{no}")
        if rec.name != info.name:
            rec.log(f"name {rec.name!r} -> {info.name!r} in #{no}")
        rec.role, rec.name = info.role, info.name

    def mark_removed(self, ref: str) -> None:
        self.set_status(ref, "removed")

    def set_status(self, ref: str, status: str) -> None:
        """Write down what `staleness.classify` decided (the one writer of a ref's status outside a
        snapshot). An element the page's registry no longer knows ('unknown') counts as removed."""
        rec = self.records.get(ref)
        if rec is None:
            return
        status = "removed" if status == "unknown" else status
        if rec.status == status:
            return
        if status in ("removed", "navigated", "changed"):
            rec.log(f"{status} (noticed after snapshot #{self.snapshot_no})")
        rec.status = status

    def adopt(self, ref: str, role: str, name: str, frame: int, tier: int, why: str,
              loader: str | None = None) -> RefRecord:
        """Record a ref issued outside a snapshot (a target's match, a successor of a removed element,
        a --within view): ``why`` ends its first history line. A record of an earlier document of the
        frame is replaced."""
        loader = self.frame_loaders.get(frame, "") if loader is None else loader
        rec = self.records.get(ref)
        if rec is None or rec.loader != loader:
            no = self.snapshot_no
            rec = RefRecord(ref, role, name, frame, loader, tier, no, no)
            rec.history.append(f"issued after snapshot #{no} as {describe(role, name)}, {why}")
            self.records[ref] = rec
            if frame in self.tombs:
                self._unbury(frame, ref)
        else:
            if rec.status != "live":
                rec.log(f"found again as {describe(role, name)}, {why}")
            rec.role, rec.name, rec.status, rec.shown = role, name, "live", True
        return rec

    # -- refs of earlier documents -------------------------------------------
    def _retire(self, refs: list[str]) -> None:
        """Let go of the records of a document its frame has left (they stay `navigated`: see `get`)."""
        names = self.retired_names
        for ref in refs:
            rec = self.records.pop(ref)
            names[ref] = (rec.role, rec.name)
        while len(names) > RETIRED_NAMES:
            names.popitem(last=False)

    def retired(self, ref: str) -> RefRecord | None:
        """A ref issued for an earlier document of its frame (by the tab's numbering) and no longer
        recorded, as a record of status 'navigated'; None for a number of the frame's latest document
        or one never issued."""
        m = REF_RE.match(ref)
        if m is None or not ref.startswith(self.prefix + "f"):
            return None
        frame, n = int(m.group(3)), int(m.group(4))
        found = self.numbers.document_of(frame, n)
        if found is None:
            return None
        doc, latest = found
        current_main = self.frame_loaders.get(0)
        if latest and (frame == 0 or not current_main or doc.main == current_main):
            return None  # of the document the frame shows now: never recorded, or let go of by reset-refs
        role, name = self.retired_names.get(ref, ("", ""))
        rec = RefRecord(ref, role, name, frame, doc.loader, 1, 0, 0, status="navigated", retired=doc.main or "-")
        where = f" ({doc.url})" if doc.url else ""
        rec.history.append(f"issued for an earlier document of frame f{frame}{where}; navigated")
        return rec

    # -- tombstones ---------------------------------------------------------
    def _bury(self, frame: int, numbers: list[int]) -> None:
        bits = self.tombs.setdefault(frame, bytearray())
        for n in numbers:
            ref = f"{self.prefix}f{frame}e{n}"
            rec = self.records.pop(ref, None)
            i = n >> 3
            if i >= len(bits):
                bits.extend(bytes(i - len(bits) + 1))
            if not bits[i] >> (n & 7) & 1:
                bits[i] |= 1 << (n & 7)
                self.tombstone_count += 1
            if rec is not None:
                self.tomb_names[ref] = (rec.role, rec.name)
                if len(self.tomb_names) > TOMB_NAMES:
                    self.tomb_names.popitem(last=False)

    def _unbury(self, frame: int, ref: str) -> None:
        n = int(ref.rsplit("e", 1)[1])
        bits = self.tombs[frame]
        i = n >> 3
        if i < len(bits) and bits[i] >> (n & 7) & 1:
            bits[i] &= ~(1 << (n & 7)) & 0xFF
            self.tombstone_count -= 1
        self.tomb_names.pop(ref, None)

    def _clear_tombs(self, frame: int | None) -> None:
        frames = list(self.tombs) if frame is None else [frame]
        for fi in frames:
            bits = self.tombs.pop(fi, None)
            if bits:
                self.tombstone_count -= sum(bin(b).count("1") for b in bits)
        prefix = None if frame is None else f"{self.prefix}f{frame}e"
        for ref in [r for r in self.tomb_names if prefix is None or r.startswith(prefix)]:
            del self.tomb_names[ref]

    def tombstone(self, ref: str) -> RefRecord | None:
        """A removed ref whose record was let go of, as a record of status 'removed' (else None)."""
        m = REF_RE.match(ref)
        if m is None or not ref.startswith(self.prefix + "f"):
            return None
        frame, n = int(m.group(3)), int(m.group(4))
        bits = self.tombs.get(frame)
        if not bits or (n >> 3) >= len(bits) or not bits[n >> 3] >> (n & 7) & 1:
            return None
        role, name = self.tomb_names.get(ref, ("", ""))
        rec = RefRecord(ref, role, name, frame, self.frame_loaders.get(frame, ""), 1, 0, 0, status="removed")
        rec.history.append("removed; only a tombstone is kept")
        return rec

    def reset(self) -> None:
        self._clear_tombs(None)
        self.records.clear()
        self.retired_names.clear()
        self.last_snapshot_at = None
        self.frame_loaders.clear()

    # -- queries ------------------------------------------------------------
    def get(self, ref: str) -> RefRecord | None:
        rec = self.records.get(ref)
        if rec is None and self.tombs:
            rec = self.tombstone(ref)
        if rec is None:
            rec = self.retired(ref)
        return rec

    def live_count(self) -> int:
        return sum(1 for r in self.records.values() if r.status == "live" and r.shown)

    def elements(self) -> list[tuple[str, str, str]]:
        """(ref, role, name) of every shown ref that is live or changed."""
        return [(r.ref, r.role, r.name) for r in self.records.values() if r.status in ("live", "changed") and r.shown]

    def completions(self) -> list[tuple[str, str]]:
        out = []
        for ref, rec in self.records.items():
            if rec.status in ("live", "changed") and rec.shown:
                out.append((ref, describe(rec.role, rec.name[:60])))
        return out
