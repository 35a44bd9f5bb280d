"""Refs: parsing, the per-page ref store with history, and staleness classification.

The store is pure data; resolving a ref against the live page happens in
:mod:`verdex_cli.resolve`.
"""

from __future__ import annotations

import re
import time
from collections import deque
from dataclasses import dataclass, field

from .errors import RefError
from .snapshot.model import RefInfo, Snapshot

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
                       kind="invalid_ref")
    return Ref(*(int(g) for g in m.groups()))


def describe(role: str, name: str) -> str:
    return f'{role} "{name}"' if name else role


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def name_change(old: str, new: str) -> str:
    """'same', 'minor' (whitespace/case, or one contains the other) or 'significant'."""
    if old == new:
        return "same"
    a, b = _norm(old), _norm(new)
    if a == b or a in b or b in a:
        return "minor"
    return "significant"


@dataclass
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


class RefStore:
    """All refs of one page, plus the last two snapshots for diff/staleness."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.records: dict[str, RefRecord] = {}
        self.snapshot_no = 0
        self.last: deque[dict[str, tuple[str, str]]] = deque(maxlen=2)
        self.last_loaders: deque[dict[int, str]] = deque(maxlen=2)  # frame -> document, per snapshot
        self.last_snapshot_at: float | None = None
        self.frame_loaders: dict[int, str] = {}
        self.frame_urls: dict[int, str] = {}

    # -- recording ---------------------------------------------------------
    def next_number(self) -> int:
        return self.snapshot_no + 1

    def record(self, snap: Snapshot, loaders: dict[int, str], captured_frames: set[int]) -> None:
        no = snap.number
        self.snapshot_no = no
        self.last_snapshot_at = time.monotonic()
        # a frame that now shows another document: its old refs are gone for good
        # (a new main document takes every frame's refs with it)
        old_main = self.frame_loaders.get(0)
        if 0 in captured_frames and old_main is not None and old_main != loaders.get(0):
            self.records.clear()
            self.frame_loaders.clear()
        for fi in captured_frames:
            old = self.frame_loaders.get(fi)
            if old is not None and old != loaders.get(fi):
                for key in [k for k, r in self.records.items() if r.frame == fi]:
                    del self.records[key]
        self.frame_loaders.update({fi: loaders[fi] for fi in captured_frames})
        self.frame_urls.update({f.index: f.url for f in snap.frames})
        for ref, info in snap.refs.items():
            self._seen(ref, info, loaders.get(info.frame, ""), no)
        for ref, rec in self.records.items():
            if rec.last_seen != no and rec.frame in captured_frames and rec.status in ("live", "changed"):
                rec.status = "hidden"  # refined to 'removed' by the caller when the element is gone
        self.last.append({r: (i.role, i.name) for r, i in snap.refs.items()})
        self.last_loaders.append(dict(loaders))

    def _seen(self, ref: str, info: RefInfo, loader: str, no: int) -> None:
        rec = self.records.get(ref)
        if rec is None:
            rec = RefRecord(ref, info.role, info.name, info.frame, loader, info.tier, no, no, info.shown)
            rec.history.append(f"issued in snapshot #{no} as {describe(info.role, info.name)}")
            self.records[ref] = rec
            return
        if rec.role != info.role:
            rec.history.append(f"role {rec.role} -> {info.role} in #{no}")
        if rec.name != info.name:
            rec.history.append(f"name {rec.name!r} -> {info.name!r} in #{no}")
        if rec.status in ("hidden", "removed"):
            rec.history.append(f"seen again in #{no}")
        rec.role, rec.name, rec.tier, rec.shown = info.role, info.name, info.tier, info.shown
        rec.last_seen, rec.status = no, "live"

    def mark_removed(self, ref: str) -> None:
        rec = self.records.get(ref)
        if rec is not None and rec.status != "removed":
            rec.status = "removed"
            rec.history.append(f"removed (noticed after snapshot #{self.snapshot_no})")

    def reset(self) -> None:
        self.records.clear()
        self.last.clear()
        self.last_loaders.clear()
        self.last_snapshot_at = None
        self.frame_loaders.clear()

    # -- queries ------------------------------------------------------------
    def get(self, ref: str) -> RefRecord | None:
        return self.records.get(ref)

    def live_count(self) -> int:
        return sum(1 for r in self.records.values() if r.status == "live" and r.shown)

    def completions(self) -> list[tuple[str, str]]:
        out = []
        for ref, rec in self.records.items():
            if rec.status in ("live", "changed") and rec.shown:
                out.append((ref, describe(rec.role, rec.name[:60])))
        return out

    def diff(self) -> dict:
        if len(self.last) < 2:
            return {"from": None, "to": self.snapshot_no or None, "added": [], "removed": [], "changed": [],
                    "navigated_frames": []}
        before, after = self.last[0], self.last[1]
        docs_before, docs_after = self.last_loaders[0], self.last_loaders[1]
        # a frame that shows another document: the same ref string names another element
        navigated = sorted(f for f in docs_after if f in docs_before and docs_before[f] != docs_after[f])
        if 0 in navigated:
            navigated = sorted(set(docs_before) | set(docs_after))

        def same_doc(ref: str) -> bool:
            return _frame_of(ref) not in navigated

        added = [{"ref": r, "role": after[r][0], "name": after[r][1]}
                 for r in after if r not in before or not same_doc(r)]
        removed = [{"ref": r, "role": before[r][0], "name": before[r][1]}
                   for r in before if r not in after or not same_doc(r)]
        changed = []
        for r in after:
            if r in before and same_doc(r) and before[r] != after[r]:
                changed.append({"ref": r, "was": {"role": before[r][0], "name": before[r][1]},
                                "now": {"role": after[r][0], "name": after[r][1]}})
        return {"from": self.snapshot_no - 1, "to": self.snapshot_no, "added": added, "removed": removed,
                "changed": changed, "navigated_frames": navigated}


def _frame_of(ref: str) -> int:
    return int(ref.split("f", 1)[1].split("e", 1)[0])
