"""Resolve a ref against the live page, in the contract's order of checks.

invalid_ref -> context/page mismatch -> unknown_ref -> navigated -> removed -> changed.
What the element is now is decided by :func:`verdex_cli.refs.staleness.classify`; this module turns the
verdict into the contract's errors. (not_actionable is decided when acting, in :mod:`verdex_cli.act.actions`.)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base.errors import ErrorKind, RefError, VerdexError
from ..browser.frames import Frame
from ..browser.page import Page
from ..refs.staleness import NAVIGATED, REMOVED, UNKNOWN, classify, is_changed
from ..refs.store import Ref, RefRecord, RefStore, describe, name_change, parse_ref

MINOR_NOTE = "Element may have changed. Using current state."


@dataclass
class Resolved:
    ref: Ref
    text: str
    frame: Frame
    record: RefRecord
    role: str
    name: str
    live: dict
    notes: list[str] = field(default_factory=list)
    armed: bool = False  # the click guard was armed with the actionability check (actionability.prepare)
    prepared: dict | None = None  # the actionability check sent with the resolution (actionability.Ahead)
    above: tuple | None = None  # in a frame: the frames above and their owners' measurement, started with it
    still: bool = False  # in a frame: it and every frame above were still and in view (no scroll was needed)
    denial: object = None  # the other frames' guards, sent with the check (frame_guard.Denial)

    @property
    def label(self) -> str:
        return f"{describe(self.role, self.name)} ({self.text})"


def check_scope(page: Page, ref: Ref, text: str) -> None:
    if ref.context != page.context:
        state = page.context_state(ref.context) if page.context_state is not None else "open"
        if state == "open":
            hint = f"Switch with 'context {ref.context}'."
        elif state == "closed":
            hint = f"Context {ref.context} has been closed. Take a new snapshot."
        else:
            hint = f"There is no context {ref.context}. Take a new snapshot."
        raise RefError(f"Ref '{text}' is for context {ref.context}, but the current context is {page.context}. "
                       + hint, kind=ErrorKind.CONTEXT_MISMATCH)
    if ref.page != page.index:
        if page.tab_closed is not None and page.tab_closed(ref.page):
            raise RefError(f"Ref '{text}' is for page {ref.page}, which has been closed; the current page is "
                           f"{page.index}. Take a new snapshot.", kind=ErrorKind.PAGE_MISMATCH)
        if page.tab_exists is not None and not page.tab_exists(ref.page):
            raise RefError(f"Ref '{text}' is for page {ref.page}, which does not exist (any more); the current "
                           f"page is {page.index}. Take a new snapshot.", kind=ErrorKind.PAGE_MISMATCH)
        raise RefError(f"Ref '{text}' is for page {ref.page}, but the current page is {page.index}. "
                       f"Switch with 'tab {ref.page}'.", kind=ErrorKind.PAGE_MISMATCH)


def _unknown(text: str) -> RefError:
    return RefError(f"Ref '{text}' not found. Take a new snapshot.", kind=ErrorKind.UNKNOWN_REF)


def _removed(text: str, rec: RefRecord, successors: list[RefRecord] = ()) -> RefError:
    what = describe(rec.role, rec.name)
    msg = f"Element {what} (ref {text}) no longer exists." if what else f"Element (ref {text}) no longer exists."
    if len(successors) == 1:
        s = successors[0]
        msg += f" A new {describe(s.role, s.name)} is in its place: {s.ref}."
    elif successors:
        msg += " New elements like it are in its place: " + ", ".join(
            f"{describe(s.role, s.name)} {s.ref}" for s in successors) + "."
    return RefError(msg + " Take a new snapshot.", kind=ErrorKind.REMOVED)


def _successors(page: Page, store: RefStore, fr: Frame, ref: Ref, rec: RefRecord) -> list[RefRecord]:
    """Look-alikes of a removed element in its place (a re-render): each gets a ref, none is acted on."""
    try:
        found = page.bridge.successors(fr, ref.n, rec.role, rec.name)
    except VerdexError:
        return []  # only a hint: never let it change the verdict
    return [store.adopt(f"{store.prefix}f{ref.frame}e{s['n']}", s["role"], s["name"], ref.frame, s["tier"],
                        f"in the place of removed {ref}")
            for s in found]


def changed_error(rec: RefRecord, role: str, name: str, live: dict) -> RefError:
    """The `changed` refusal: what changed first (its record, the page's address and its heading, an
    identity attribute, its role or name), then what the user saw and what is there now."""
    what = live.get("idChange") or ""
    kind = live.get("idKind") or ""
    if not what:
        what = (f"its role changed from {rec.role} to {role}" if role != rec.role
                else f'its name changed from "{rec.name}" to "{name}"')
    where = (f" in another {kind[7:]}" if kind.startswith("record:") else
             " under another heading" if kind == "route" else "")
    same = role == rec.role and name_change(rec.name, name) != "significant"
    now = f"the same {role}{where}" if same else describe(role, name) + where
    return RefError(f"Element changed since you saw it: {what}. Was: {describe(rec.role, rec.name)}; now {now}. "
                    "Take a new snapshot.", kind=ErrorKind.CHANGED)


def locate(page: Page, store: RefStore | None, raw: str) -> tuple[Ref, str, RefRecord, Frame, dict]:
    """Checks up to `removed` (decided by `staleness.classify`); returns the live description from the
    bridge. A `changed` element is returned too: `resolve` refuses it, `inspect` shows it."""
    ref = parse_ref(raw)
    text = str(ref)
    check_scope(page, ref, raw.strip())
    rec = store.get(text) if store is not None else None
    if rec is None:
        raise _unknown(text)
    verdict = classify(page, store, [rec], detail=True).get(text)
    if verdict is None:
        raise _unknown(text)
    if verdict.status == NAVIGATED:
        raise RefError(f"Ref '{text}' is from a previous page ({verdict.where}). Take a new snapshot.",
                       kind=ErrorKind.NAVIGATED, earlier_visit=verdict.earlier_visit)
    if verdict.status == REMOVED:
        fr = page.frames.get(ref.frame)
        successors = [] if verdict.frame_gone or fr is None else _successors(page, store, fr, ref, rec)
        raise _removed(text, rec, successors)
    if verdict.status == UNKNOWN:
        raise _unknown(text)
    return ref, text, rec, page.frames.get(ref.frame), verdict.live


def resolve(page: Page, store: RefStore | None, raw: str) -> Resolved:
    ref, text, rec, fr, live = locate(page, store, raw)
    role, name = live.get("role", ""), live.get("name", "")
    notes = []
    if is_changed(rec, role, name, live.get("idChange") or ""):
        raise changed_error(rec, role, name, live)
    if name != rec.name:
        notes.append(MINOR_NOTE)
    return Resolved(ref, text, fr, rec, role, name, live, notes)

