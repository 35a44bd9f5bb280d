"""Refs: parsing, and the per-page ref store with each ref's history (pure data: refs are resolved
against the live page in act/resolve.py, classified in staleness.py)."""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from ..base.errors import ErrorKind, RefError
from ..base.gc_pause import gc_paused
from ..browser.numbering import RefNumbers
from ..snapshot.model import RefInfo, Snapshot
from .story import TabLog

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
        return f"{self.prefix}f{self.frame}e{self.n}"

    @property
    def prefix(self) -> str:
        return f"c{self.context}p{self.page}"


def parse_ref(text: str) -> Ref:
    m = REF_RE.match(text.strip())
    if not m:
        raise RefError(f"Invalid ref '{text}'. Expected c{{context}}p{{page}}f{{frame}}e{{n}}, e.g. {EXAMPLE}.",
                       kind=ErrorKind.INVALID_REF)
    return Ref(*(int(g) for g in m.groups()))


def ref_number(ref: str) -> int:
    """The element number ``n`` of a ref (its ``e{n}``)."""
    return int(ref.rsplit("e", 1)[1])


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
    # its story (refs/story.py): the command that issued it, the main document then, the snapshot it was
    # last shown in, what verdex last saw of it live (tag, attributes, box, locator), what made it
    # stale (status, the command's label, the snapshot), the look-alike named in its place
    issued_by: int = 0
    main: str = ""
    shown_at: int = 0
    shown_by: int = 0  # the command that last showed it (0: never shown)
    known: dict | None = None
    stale: tuple = ()
    successor: str = ""

    def log(self, line: str) -> None:
        """Add to the history, keeping its first line and the most recent ones."""
        self.history.append(line)
        if len(self.history) > HISTORY:
            del self.history[1:len(self.history) - HISTORY + 1]


HISTORY = 30        # history lines kept per ref
GONE = 5000         # records kept whole after their element or document went (or reset-refs dropped them)


class RefStore:
    """All refs of one page and their history (the snapshots: page_state.py). Memory stays bounded on pages
    that re-render all the time: when the page's registry drops a long-gone element (engine/registry.js)
    its record becomes a tombstone (one bit per frame and number), so its ref still says `removed`, never
    `unknown_ref`; the last GONE records gone stale for good are kept whole in ``gone``, with their story.
    Numbers only grow per frame index in a tab (``numbers``: browser/numbering.py), so a ref of a document
    its frame left is still known as such: `navigated` for good."""

    def __init__(self, prefix: str, numbers: RefNumbers | None = None):
        self.prefix = prefix
        self.numbers = numbers if numbers is not None else RefNumbers()
        self.records: dict[str, RefRecord] = {}
        self.gone: OrderedDict[str, RefRecord] = OrderedDict()
        self.tombs: dict[int, bytearray] = {}           # frame -> bitmap of dropped ref numbers
        self.log = TabLog()
        self.restarted: dict[int, int] = {}             # frame -> its highest number before reset-refs --restart
        self.restart: tuple | None = None               # (the step, the snapshot number) of the last --restart
        self.main_visit = 0                             # the main frame's visit (numbering.Document.seq) recorded
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
            self.tombs.clear()
        for fi in captured_frames:
            old = self.frame_loaders.get(fi)
            if old is not None and old != loaders.get(fi):
                self._retire([k for k, r in self.records.items() if r.frame == fi])
                self.tombs.pop(fi, None)
        self.frame_loaders.update({fi: loaders[fi] for fi in captured_frames})
        if 0 in captured_frames:  # the main frame's numbered visit this capture saw (a restore is a new one)
            self.main_visit = self.numbers.docs[0][-1].seq if self.numbers.docs.get(0) else 0
        with gc_paused():  # thousands of new records would each time walk the snapshot just parsed
            self._record_refs(snap, loaders, no, shown)
        if len(snap.refs) != len(self.records):  # some record was not seen now (each of snap.refs is one)
            step = self.log.current
            missing = ("hidden", step, no)  # its story: missing since this capture, taken during ``step``
            for rec in self.records.values():
                if rec.last_seen != no and rec.frame in captured_frames and rec.status in ("live", "changed"):
                    rec.status = "hidden"  # refined to 'removed' by the caller when the element is gone
                    rec.stale = missing
                    if step is not None:
                        self.log.made_stale(rec.ref, step)
        for f in snap.frames:
            if f.gone and f.index in captured_frames:
                self._bury(f.index, f.gone)

    def _record_refs(self, snap: Snapshot, loaders: dict[int, str], no: int, shown: bool = True) -> None:
        """Record every ref of the snapshot: the common cases (new, and live as it was) inline."""
        records = self.records
        tombs = self.tombs
        by, main, at = self.issuer(), loaders.get(0) or self.frame_loaders.get(0, ""), no if shown else 0
        for ref, info in snap.refs.items():
            rec = records.get(ref)
            if rec is None:
                role, name = info.role, info.name
                line = f'issued in snapshot #{no} as {role} "{name}"' if name else f"issued in snapshot #{no} as {role}"
                records[ref] = RefRecord(ref, role, name, info.frame, loaders.get(info.frame, ""), info.tier, no, no,
                                         info.shown, "live", [line], "", by, main, at, by if shown else 0)
                if tombs and info.frame in tombs:  # an element that came back after its ref was buried
                    self._unbury(info.frame, ref)
            elif rec.status == "live" and rec.role == info.role and rec.name == info.name:  # (what _seen does then)
                rec.tier, rec.shown, rec.last_seen = info.tier, info.shown, no
                if shown:
                    rec.shown_at, rec.shown_by = no, by
            else:
                self._seen(rec, info, no, shown)

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

    def _seen(self, rec: RefRecord, info: RefInfo, no: int, shown: bool = True) -> None:
        if shown:
            self._saw(rec, info, no)
        if rec.status in ("hidden", "removed"):
            rec.log(f"seen again in #{no}")
        if rec.status != "live":
            rec.stale = ()
        rec.tier, rec.shown = info.tier, info.shown
        rec.last_seen, rec.status = no, "live"

    def _saw(self, rec: RefRecord, info: RefInfo, no: int) -> None:
        if rec.role != info.role:
            rec.log(f"role {rec.role} -> {info.role} in #{no}")
        if rec.name != info.name:
            rec.log(f"name {rec.name!r} -> {info.name!r} in #{no}")
        rec.role, rec.name, rec.shown_at, rec.shown_by = info.role, info.name, no, self.issuer()

    def issuer(self) -> int:
        """The number of the command running now in this tab (0: none)."""
        return self.log.current.n if self.log.current is not None else 0

    def set_status(self, ref: str, status: str) -> None:
        """Write down what `staleness.classify` decided (the one writer of a ref's status outside a
        snapshot). An element the page's registry no longer knows ('unknown') counts as removed."""
        rec = self.records.get(ref) or self.gone.get(ref)
        if rec is None or rec.status == "reset":
            return
        status = "removed" if status == "unknown" else status
        if rec.status == status:
            return
        if status in ("removed", "navigated", "changed"):
            self._went_stale(rec, status)
        else:
            rec.status = status

    def _went_stale(self, rec: RefRecord, status: str, how: str = "") -> None:
        """Its ``status`` now, and its story: what made it stale (``how``) and when (the command running,
        the last snapshot); the command lists it in the tab's log."""
        step, no = self.log.current, self.snapshot_no
        missing = rec.stale and rec.stale[0] == "hidden"
        if missing and how:  # missing from a capture, then its document went: both are its story
            prev = rec.stale[1]
            rec.log(f"missing from snapshot #{rec.stale[2]}" + (f", taken during {prev.label}" if prev else ""))
        missing = missing and not how
        if missing:  # missing since that capture (its command listed it): the command that took it
            step, no = rec.stale[1], rec.stale[2]
        during = f" during {step.label}" if step is not None else ""
        rec.stale, rec.status = (status, step, no), status
        rec.log(f"{status}: {how or 'missing' + during} (after snapshot #{no})")
        if not missing:
            self.log.made_stale(rec.ref, step)

    # -- the tab's log --------------------------------------------------------
    def begin_step(self, line: str, frames: dict, reads: bool = False) -> None:
        """A command begins (frames: story.documents): what the page did by itself since the last one first."""
        self._left(self.log.watch(frames, self.snapshot_no, None))
        self.log.begin(line, self.snapshot_no, reads)

    def end_step(self, outcome: str, frames: dict, reloaded=None) -> None:
        """The command ended: the refs of every document it made its frame leave are stale by it."""
        step = self.log.current
        if step is not None:
            step.outcome, step.after = outcome, self.snapshot_no
            self._left(self.log.watch(frames, self.snapshot_no, step, reloaded))
        self.log.current = None

    def _left(self, changes: list) -> None:
        for d in changes:
            status = "removed" if d.how == "removed" else "navigated"
            for rec in self.records.values():
                if rec.status in ("live", "hidden", "changed") and (
                        rec.loader == d.old if rec.frame == d.frame else d.frame == 0 and rec.main == d.old):
                    self._went_stale(rec, status, d.words())

    def know(self, rec: RefRecord, live: dict, locator: str | None = None) -> None:
        """What verdex saw of the element live (inspect, an action): its last-known element; or, of an
        element gone from its document, what the page's registry kept of it when it was last shown,
        unless verdex saw it live since."""
        gone = live.get("status") == "removed"
        if gone and (not live.get("tag") or (rec.known and rec.known["snapshot"] >= rec.shown_at)):
            return
        known = {k: live[k] for k in ("tag", "box", "record", "heading") if live.get(k)}
        known["attributes"] = {k: v for k, v in (live.get("attrs") or {}).items() if k != "value"}
        known["snapshot"] = rec.shown_at if gone else self.snapshot_no
        if locator is None and rec.known:
            locator = rec.known.get("locator")
        if locator:
            known["locator"] = locator
        rec.known = known

    def adopt(self, ref: str, role: str, name: str, frame: int, tier: int, why: str,
              loader: str | None = None) -> RefRecord:
        """Record a ref issued outside a snapshot (a target's match, a successor of a removed element,
        a --within view): ``why`` ends its first history line. A record of an earlier document of the
        frame is replaced."""
        loader = self.frame_loaders.get(frame, "") if loader is None else loader
        rec = self.records.get(ref)
        if rec is None or rec.loader != loader:
            no = self.snapshot_no
            rec = RefRecord(ref, role, name, frame, loader, tier, no, 0, issued_by=self.issuer(),  # in no snapshot
                            main=self.frame_loaders.get(0, loader), shown_at=no, shown_by=self.issuer())
            # (the command's line is known, redacted, once it ends: its name now)
            by = f"by command {rec.issued_by} ({self.log.current.line})" if rec.issued_by else f"after snapshot #{no}"
            rec.history.append(f"issued {by} as {describe(role, name)}, {why}")
            self.records[ref] = rec
            if frame in self.tombs:
                self._unbury(frame, ref)
        else:
            if rec.status != "live":
                rec.log(f"found again as {describe(role, name)}, {why}")
            rec.role, rec.name, rec.status, rec.shown, rec.stale = role, name, "live", True, ()
            rec.shown_by = self.issuer()
        return rec

    # -- refs of earlier documents -------------------------------------------
    def _retire(self, refs: list[str]) -> None:
        """Let go of the records of a document its frame has left (they stay `navigated`: see `get`)."""
        for ref in refs:
            rec = self.records.pop(ref)
            if rec.status != "navigated":
                self._went_stale(rec, "navigated", "its frame showed another document")
            rec.status, rec.retired = "navigated", rec.main or "-"
            self._keep(rec)

    def _keep(self, rec: RefRecord) -> None:
        gone = self.gone
        gone.pop(rec.ref, None)
        gone[rec.ref] = rec
        while len(gone) > GONE:
            gone.popitem(last=False)

    def retired(self, ref: str) -> RefRecord | None:
        """A ref issued for an earlier document of its frame (by the tab's numbering) and no longer
        recorded, as a record of status 'navigated'; None for a number of the frame's latest document
        or one never issued."""
        frame, n = self._number(ref)
        found = self.numbers.document_of(frame, n) if n else None
        if found is None:
            return None
        doc, latest = found
        current_main = self.frame_loaders.get(0)
        if latest and (frame == 0 or not current_main or doc.main == current_main):
            return None  # of the document the frame shows now: never recorded, or let go of by reset-refs
        rec = RefRecord(ref, "", "", frame, doc.loader, 1, 0, 0, status="navigated", retired=doc.main or "-",
                        main=doc.main)
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
            bits[i] |= 1 << (n & 7)
            if rec is not None:
                if rec.status != "removed":
                    self._went_stale(rec, "removed", "the page let go of its element")
                self._keep(rec)

    def _unbury(self, frame: int, ref: str) -> None:
        n = ref_number(ref)
        bits = self.tombs[frame]
        i = n >> 3
        if i < len(bits):
            bits[i] &= ~(1 << (n & 7)) & 0xFF
        self.gone.pop(ref, None)

    @property
    def tombstone_count(self) -> int:
        return sum(bin(b).count("1") for bits in self.tombs.values() for b in bits)

    def tombstone(self, ref: str) -> RefRecord | None:
        """A removed ref whose record was let go of, as a record of status 'removed' (else None)."""
        frame, n = self._number(ref)
        bits = self.tombs.get(frame)
        if not bits or (n >> 3) >= len(bits) or not bits[n >> 3] >> (n & 7) & 1:
            return None
        rec = RefRecord(ref, "", "", frame, self.frame_loaders.get(frame, ""), 1, 0, 0, status="removed")
        rec.history.append("removed; only a tombstone is kept")
        return rec

    def _number(self, ref: str) -> tuple[int, int]:
        """(frame, number) of a ref of this page; (0, 0) for another page's or a malformed one."""
        m = REF_RE.match(ref)
        return (int(m.group(3)), int(m.group(4))) if m and ref.startswith(self.prefix + "f") else (0, 0)

    def reset(self, restart: bool = False) -> None:
        """reset-refs: every record is dropped (kept in ``gone`` with status 'reset'); ``restart``:
        numbering starts again, so each frame's highest number so far is remembered."""
        if restart:
            for fi, high in self.numbers.high.items():
                self.restarted[fi] = max(high, self.restarted.get(fi, 0))
            self.restart = (self.log.current, self.snapshot_no)
        for rec in self.records.values():
            self._went_stale(rec, "reset", "dropped by reset-refs" + (" --restart" if restart else ""))
            self._keep(rec)
        self.tombs.clear()
        self.records.clear()
        self.last_snapshot_at = None
        self.frame_loaders.clear()

    # -- queries ------------------------------------------------------------
    def get(self, ref: str) -> RefRecord | None:
        rec = self.records.get(ref) or self.gone.get(ref)
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
        return [(ref, describe(role, name[:60])) for ref, role, name in self.elements()]
