"""Targets by meaning: parse `testid=`, `label=`, `text=`, `id=`, `role=ROLE[name="..."]`, `ROLE:NAME`
(optionally `SCOPE >> TARGET`) or a ref, and resolve them in every frame (engine/targets.js). The best
match level wins (exact name, then equal ignoring case, then a substring; an id whole); several at it are
`ambiguous` (each gets a ref), none is `no_match`; a resolved target is the same :class:`Resolved` a ref gives.
"""

from __future__ import annotations

from contextlib import suppress
import json
import re
from dataclasses import dataclass

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, ErrorKind, JSError, RefError, UsageError, VerdexError
from ..base.words import scan
from ..browser.frames import Frame
from ..browser.page import Page
from ..browser.session import Session
from ..refs.store import RefRecord, RefStore, describe, parse_ref
from ..snapshot.capture import MAX_FRAME_DEPTH
from ..snapshot.owners import frame_for, owner_frame_id  # the same frame discovery as snapshots
from . import changes
from .resolve import Resolved, resolve

ROLES = frozenset("""alert alertdialog application article banner blockquote button caption cell checkbox code
columnheader combobox complementary contentinfo definition deletion dialog directory document emphasis feed
figure form generic grid gridcell group heading iframe img insertion link list listbox listitem log main mark
marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph
presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator
slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time timer
toolbar tooltip tree treegrid treeitem""".split())
PREFIXES = ("testid", "label", "text", "id")
MAX_LISTED = 20
# `role=document >> TARGET`: the main frame's document only (its frames are not searched)
_ROLE_EQ = re.compile(r"^role=([A-Za-z]+)\s*(?:\[(.*)\])?\s*$", re.S)
_ROLE_COLON = re.compile(r"^([A-Za-z]+):(.*)$", re.S)
_PASTED_REF = re.compile(r"^\[?ref=([^\]\s]*)\]?$")


@dataclass(frozen=True)
class Target:
    kind: str  # ref | testid | label | text | id | role
    value: str = ""  # the ref, test id, label, text or id
    role: str = ""
    name: str = ""  # '' = any name
    scope: "Target | None" = None

    def __str__(self) -> str:
        if self.kind == "ref":
            return self.value
        own = f"{self.role}:{self.name}" if self.kind == "role" and self.name else (
            f"role={self.role}" if self.kind == "role" else f"{self.kind}={self.value}")
        return f"{self.scope} >> {own}" if self.scope is not None else own

    def describe(self) -> str:
        """What was searched, for messages."""
        if self.kind == "role":
            own = f"role {self.role}" + (f" named {quoted(self.name)}" if self.name else "")
        else:
            own = {"testid": "test id"}.get(self.kind, self.kind) + " " + quoted(self.value)
        return own if self.scope is None else f"{own} inside {self.scope.describe()}"


def norm(text: str) -> str:
    return " ".join(text.split())


def quoted(text: str) -> str:
    """A value in double quotes, as in `The page changed the value to "12".` (also a Python string)."""
    return json.dumps(text, ensure_ascii=False)


def quote_word(target: str) -> str:
    """The target as one shell word for a script line (quoted when it has spaces or quotes)."""
    if target and not re.search(r"[\s'\"\\#]", target):
        return target
    return '"' + target.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _unquote(text: str, what: str) -> str:
    t = text.strip()
    if len(t) >= 2 and t[0] in "'\"" and t[-1] == t[0]:
        q, out, i = t[0], [], 1
        while i < len(t) - 1:
            ch = t[i]
            if ch == "\\" and i + 1 < len(t) - 1:
                out.append(t[i + 1])
                i += 2
                continue
            if ch == q:
                raise UsageError(f"Cannot parse the {what} {text!r}: a quote inside it needs a backslash.")
            out.append(ch)
            i += 1
        return "".join(out)
    if t[:1] in ("'", '"'):
        raise UsageError(f"Cannot parse the {what} {text!r}: the quote is not closed.")
    return t


def _split_chain(text: str) -> list[str]:
    parts, start = [], 0
    while True:
        end = scan(text, start, lambda t, j: t.startswith(">>", j))
        parts.append(text[start:end])
        if end >= len(text):
            return parts
        start = end + 2


def _role(role: str, raw: str) -> str:
    r = role.lower()
    if r not in ROLES:
        raise UsageError(f"Unknown role '{role}' in target {raw!r}. Roles are ARIA roles: button, link, "
                         "textbox, checkbox, heading, ...")
    return r


def parse_target(raw: str) -> Target:
    """Any string -> a Target, or a VerdexError (usage or invalid_ref) saying why not."""
    text = raw.strip()
    if len(text) >= 2 and text[0] in "'\"" and text[-1] == text[0]:
        text = _unquote(text, "target").strip()  # a whole target in quotes, as typed on a line
    if not text:
        raise UsageError("Empty target. Give a ref (c0p0f0e3) or a target such as button:Save.")
    parts = _split_chain(text)
    if len(parts) > 1:
        scope = None
        for part in parts:
            t = _parse_one(part.strip(), raw)
            if t.kind == "ref":
                raise UsageError(f"A ref cannot be part of a '>>' chain: {raw!r}.")
            scope = Target(t.kind, t.value, t.role, t.name, scope)
        return scope
    return _parse_one(text, raw)


def _parse_one(text: str, raw: str) -> Target:
    if not text:
        raise UsageError(f"Empty part in target {raw!r}.")
    m = _PASTED_REF.match(text)
    if m:
        return Target("ref", str(parse_ref(m.group(1))))
    for prefix in PREFIXES:
        if text.startswith(prefix + "="):
            value = norm(_unquote(text[len(prefix) + 1:], prefix))
            if not value:
                raise UsageError(f"Empty {prefix} in target {raw!r}.")
            return Target(prefix, value)
    if text.startswith("role="):
        m = _ROLE_EQ.match(text)
        if not m:
            raise UsageError(f"Cannot parse the target {raw!r}. Expected role=ROLE or role=ROLE[name=\"NAME\"].")
        role, attr = _role(m.group(1), raw), m.group(2)
        if attr is None:
            return Target("role", role=role)
        am = re.match(r"^\s*name\s*=\s*(.*?)\s*$", attr, re.S)
        if not am:
            raise UsageError(f"Cannot parse the target {raw!r}. Expected role=ROLE[name=\"NAME\"].")
        return Target("role", role=role, name=norm(_unquote(am.group(1), "name")))
    m = _ROLE_COLON.match(text)
    if m:
        return Target("role", role=_role(m.group(1), raw), name=norm(_unquote(m.group(2), "name")))
    return Target("ref", str(parse_ref(text)))


@dataclass
class Hit:
    frame: Frame
    i: int
    level: int
    role: str
    name: str
    tier: int


def _search_in(page: Page, fr: Frame, t: Target, hidden: bool, scope_n: int = 0) -> tuple[list[Hit], dict]:
    """(the candidates frame ``fr``'s bridge finds for ``t``, its whole answer)."""
    out = page.bridge.search(fr, {"kind": t.kind, "value": t.value, "role": t.role, "name": t.name,
                                  "hidden": hidden, "scope": scope_n})
    return [Hit(fr, c["i"], c["lv"], c["role"], c["name"], c["tier"]) for c in out.get("candidates", ())], out


def _child(page: Page, fr: Frame, n: int, tree: dict, via: str) -> Frame | None:
    """The frame the owner ``n`` of ``fr`` shows, its handles let go of."""
    try:
        frame_id = owner_frame_id(page, fr, n, via)
        return None if frame_id is None else frame_for(page, fr, frame_id, tree)
    finally:
        with suppress(VerdexError):
            fr.target.call("Runtime.releaseObjectGroup", objectGroup="verdex-owners")


def _frames_search(page: Page, t: Target, hidden: bool, notes: list[str],
                   start: Frame | None = None) -> tuple[list[Hit], int]:
    """Search every frame from `start` (the main frame) down (children found through each frame's bridge)."""
    hits: list[Hit] = []
    searched = 0

    def visit(fr: Frame, depth: int) -> None:  # depth first, like a snapshot: frames get the same indices
        nonlocal searched
        try:
            found, out = _search_in(page, fr, t, hidden)
        except (CDPError, CDPTimeout, JSError, ConnectionLost) as exc:
            if fr.index == 0:
                raise
            notes.append(f"Frame f{fr.index} could not be searched: {exc}")
            return
        searched += 1
        if depth == 0 and start is None:  # (asked with the look before an action, changes.py: the search went with it)
            page.frames.refresh(page.frames.asked_tree())
        # a document without a root element (emptied by script) answers {"status": "removed"}
        hits.extend(found)
        if not out.get("frames") or depth >= MAX_FRAME_DEPTH:
            return
        try:
            local_tree = fr.target.call("Page.getFrameTree")["frameTree"]
        except (CDPError, CDPTimeout, ConnectionLost) as exc:
            notes.append(f"Frames inside f{fr.index} could not be searched: {exc}")
            return
        for slot in range(out["frames"]):
            try:
                child = _child(page, fr, slot, local_tree, "search")
            except (CDPError, CDPTimeout, JSError, ConnectionLost) as exc:
                notes.append(f"A frame inside f{fr.index} could not be searched: {exc}")
                continue
            if child is not None:
                visit(child, depth + 1)

    visit(start or page.frames.main, 0)
    return hits, searched


def search(page: Page, t: Target, notes: list[str] | None = None) -> tuple[list[Hit], int]:
    """The winning candidates (best match level) of a target, visible ones first, then hidden ones."""
    notes = notes if notes is not None else []
    scope = t.scope
    for hidden in (False, True):
        if scope is None:
            hits, searched = _frames_search(page, t, hidden, notes)
        elif scope.kind == "role" and scope.role == "iframe":  # the frame's document (and its frames)
            hits, searched = _frames_search(page, t, hidden, notes, start=_frame_of(page, scope, notes))
        elif scope.kind == "role" and scope.role == "document" and scope.scope is None:
            hits, searched = _main_search(page, t, hidden)
        else:
            fr, n = _unique(page, scope, notes)
            hits, searched = _search_in(page, fr, t, hidden, n)[0], 1
        if hits:
            best = max(h.level for h in hits)
            if hidden:
                notes.append(f"Only hidden elements match '{t}'.")
            changes.looked(page)  # (before a ref is issued: a capture of a changed page numbers them as before)
            return [h for h in hits if h.level == best], searched
    return [], searched


def _main_search(page: Page, t: Target, hidden: bool) -> tuple[list[Hit], int]:
    """`role=document >> TARGET` (or `document:TITLE >> TARGET`): the main frame's document alone."""
    page.frames.refresh()
    main = page.frames.main
    if t.scope.name and norm(page.bridge.title(main) or "").lower() != t.scope.name.lower():
        return [], 1
    return _search_in(page, main, t, hidden)[0], 1


def _frame_of(page: Page, scope: Target, notes: list[str]) -> Frame:
    """The frame an `iframe:NAME` scope names: its content is searched (nested frames included)."""
    fr, n = _unique(page, scope, notes)
    child = _child(page, fr, n, fr.target.call("Page.getFrameTree")["frameTree"], "element")
    if child is None:
        raise VerdexError(f"The frame '{scope}' has no content to search (not loaded yet, or blocked).",
                          kind=ErrorKind.NO_MATCH)
    return child


def _issue(page: Page, store: RefStore, hits: list[Hit], target: Target) -> list[RefRecord]:
    """Give each hit a ref in its frame's bridge and in the page's ref store (several: listed by an
    ambiguous target's refusal, without their rows: a ref issued before keeps what it was shown as)."""
    by_frame: dict[int, list[Hit]] = {}
    for h in hits:
        by_frame.setdefault(h.frame.index, []).append(h)
    records = {}
    for hs in by_frame.values():
        fr = hs[0].frame
        out = page.bridge.issue(fr, [h.i for h in hs], len(hits) > 1)
        page.frames.note_issued(fr, out["counter"])
        for h, n in zip(hs, out["numbers"]):
            records[id(h)] = adopt(store, fr, n, h.role, h.name, h.tier, f"for target {target}")
    return [records[id(h)] for h in hits]


def adopt(store: RefStore, fr: Frame, n: int, role: str, name: str, tier: int, why: str) -> RefRecord:
    """Record a ref issued outside a snapshot (the page's bridge already holds it)."""
    return store.adopt(f"{store.prefix}f{fr.index}e{n}", role, name, fr.index, tier, why, loader=fr.loader_id)


def _unique(page: Page, t: Target, notes: list[str]) -> tuple[Frame, int]:
    """The one element a target names: (frame, ref number) without touching the ref store."""
    hits, searched = search(page, t, notes=notes)
    if not hits:
        raise no_match(t, searched)
    if len(hits) > 1:
        raise VerdexError(f"Target '{t}' matches {len(hits)} elements; make it narrower.", kind=ErrorKind.AMBIGUOUS)
    fr = hits[0].frame
    out = page.bridge.issue(fr, [hits[0].i])
    page.frames.note_issued(fr, out["counter"])
    return fr, out["numbers"][0]


def no_match(t: Target, searched: int) -> VerdexError:
    where = "the page" if searched <= 1 else f"{searched} frames"
    return VerdexError(f"No element matches '{t}' (searched {where} for {t.describe()}).", kind=ErrorKind.NO_MATCH)


def resolve_target(session: Session, page: Page, store: RefStore, raw: str) -> Resolved:
    """A ref, or a target by meaning (testid=, label=, text=, role=, ROLE:NAME): the same Resolved (a
    ref gets the ref's checks, resolve.resolve; a target a unique live element)."""
    t = parse_target(raw)
    if t.kind == "ref":
        return resolve(session, page, store, t.value)
    notes: list[str] = []
    hits, searched = search(page, t, notes=notes)
    if not hits:
        raise no_match(t, searched)
    listed = hits[:MAX_LISTED]
    recs = _issue(page, store, listed, t)
    if len(hits) > 1:
        more = f", and {len(hits) - len(listed)} more" if len(hits) > len(listed) else ""
        items = ", ".join(f"{describe(r.role, r.name)} {r.ref}" for r in recs)
        raise VerdexError(f"Target '{t}' matches {len(hits)} elements: {items}{more}. Use a ref or a narrower "
                          "target.", kind=ErrorKind.AMBIGUOUS)
    rec = recs[0]
    fr = hits[0].frame
    ref = parse_ref(rec.ref)
    live = page.bridge.describe(fr, ref.n)
    if live.get("status") != "live":
        raise RefError(f"Element {describe(rec.role, rec.name)} for '{t}' went away while it was found. Try again.",
                       kind=ErrorKind.REMOVED)
    return Resolved(ref, rec.ref, fr, rec, live.get("role", rec.role), live.get("name", rec.name), live, notes)

