"""Resolve a ref against the live page in the contract's order of checks (invalid_ref -> context/page
mismatch -> unknown_ref -> navigated -> removed -> changed): refs/staleness.classify decides, this
module turns the verdict into the contract's errors."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base.errors import ErrorKind, RefError, VerdexError
from ..browser.frames import Frame
from ..browser.page import Page
from ..browser.session import Session
from ..refs.staleness import NAVIGATED, REMOVED, UNKNOWN, classify, is_changed
from ..refs import story
from ..refs.store import Ref, RefRecord, RefStore, describe, name_change, parse_ref, ref_number

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
    field: dict | None = None  # the field's facts just read (fields.is_password), for the action's own first look

    @property
    def label(self) -> str:
        return f"{describe(self.role, self.name)} ({self.text})"


def check_scope(session: Session, page: Page, ref: Ref, text: str) -> None:
    if ref.context != page.context:
        hint = {"open": f"Switch with 'context {ref.context}'.",
                "closed": f"Context {ref.context} has been closed. Take a new snapshot."}.get(
            session.context_state(ref.context), f"There is no context {ref.context}. Take a new snapshot.")
        raise RefError(f"Ref '{text}' is for context {ref.context}, but the current context is {page.context}. "
                       + hint, kind=ErrorKind.CONTEXT_MISMATCH)
    if ref.page != page.index:
        gone = {"closed": "which has been closed", "unknown": "which does not exist (any more)"}.get(
            session.tab_state(ref.context, ref.page))
        if gone:
            raise RefError(f"Ref '{text}' is for page {ref.page}, {gone}; the current page is {page.index}. "
                           "Take a new snapshot.", kind=ErrorKind.PAGE_MISMATCH)
        raise RefError(f"Ref '{text}' is for page {ref.page}, but the current page is {page.index}. "
                       f"Switch with 'tab {ref.page}'.", kind=ErrorKind.PAGE_MISMATCH)


def unknown(store: RefStore, ref: Ref) -> RefError:
    """`unknown_ref`: dropped by reset-refs, issued before a restart, or never issued in this tab."""
    text = str(ref)
    rec = store.gone.get(text)
    high = store.numbers.high
    if rec is not None and rec.status == "reset":
        why = f"was dropped by {rec.stale[1].label}" if rec.stale and rec.stale[1] else "was dropped by reset-refs"
    elif ref.n <= store.restarted.get(ref.frame, 0) and ref.n > high.get(ref.frame, 0):
        why = "was issued before reset-refs --restart, and not again since"
    elif ref.n <= high.get(ref.frame, 0):
        why = "is no longer known"
    else:  # nothing went stale: there is no snapshot to take anew
        top = max((f for f in high if high[f]), key=lambda f: (f == ref.frame, f == 0, high[f]), default=None)
        highest = f"the highest is {ref.prefix}f{top}e{high[top]}" if top is not None else "none yet"
        where = f"none in frame f{ref.frame}; " if top is not None and top != ref.frame else ""
        return RefError(f"Ref '{text}' was never issued in this tab ({where}{highest}). Get refs with 'snapshot' "
                        "or 'find'.", kind=ErrorKind.UNKNOWN_REF)
    return RefError(f"Ref '{text}' {why}. Take a new snapshot.", kind=ErrorKind.UNKNOWN_REF)


def came_from(store: RefStore, rec: RefRecord, now: str) -> str:
    """Where a navigated ref came from and what navigated since (refs/story.py); ``now``: the
    verdict's words, for when the tab's log does not know."""
    doc = store.numbers.document_of(rec.frame, ref_number(rec.ref))
    url = store.log.urls.get(rec.loader) or (doc[0].url if doc else "")
    came = (f"issued in snapshot #{rec.first_seen}" if rec.first_seen else "issued") + (f" at {url}" if url else "")
    cause = story.explain(store.log.since(rec.frame, rec.loader, rec.main or rec.retired), url)
    return f"{came}; {cause or now}"


def _removed(text: str, rec: RefRecord, successors: list[RefRecord] = (), frame: str = "") -> RefError:
    what = describe(rec.role, rec.name)
    msg = f"Element {what} (ref {text})" if what else f"Element (ref {text})"
    msg += f" no longer exists ({frame})." if frame else " no longer exists."
    if successors:
        rec.successor = successors[0].ref
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


def locate(session: Session, page: Page, store: RefStore, raw: str) -> tuple[Ref, str, RefRecord, Frame, dict]:
    """Checks up to `removed` (decided by `staleness.classify`); returns the live description from the
    bridge. A `changed` element is returned too: `resolve` refuses it, `inspect` shows it."""
    ref = parse_ref(raw)
    text = str(ref)
    check_scope(session, page, ref, raw.strip())
    rec = store.get(text)
    if rec is None or rec.status == "reset":
        raise unknown(store, ref)
    verdict = classify(page, store, [rec], detail=True).get(text)
    if verdict is None or verdict.status == UNKNOWN:
        raise unknown(store, ref)
    if verdict.status == NAVIGATED:
        raise RefError(f"Ref '{text}' is from a previous page ({came_from(store, rec, verdict.where)}). "
                       "Take a new snapshot.", kind=ErrorKind.NAVIGATED, earlier_visit=verdict.earlier_visit)
    if verdict.status == REMOVED:
        store.know(rec, verdict.live)
        fr = page.frames.get(ref.frame)
        successors = [] if verdict.frame_gone or fr is None else _successors(page, store, fr, ref, rec)
        gone = store.log.since(rec.frame, rec.loader)[-1:] if verdict.frame_gone else []
        raise _removed(text, rec, successors, gone[0].words() if gone else "")
    store.know(rec, verdict.live)
    return ref, text, rec, page.frames.get(ref.frame), verdict.live


def restarted_note(store: RefStore, rec: RefRecord) -> str | None:
    """A ref string issued again after reset-refs --restart: it names a new element now."""
    old = store.gone.get(rec.ref)
    if old is None or old is rec or store.restart is None or old.first_seen > store.restart[1]:
        return None
    by = store.restart[0].label if store.restart[0] is not None else "reset-refs --restart"
    return (f"Ref '{rec.ref}' was issued again after {by}: it now names "
            f"{describe(rec.role, rec.name)}; before, it named {describe(old.role, old.name)}.")


def resolve(session: Session, page: Page, store: RefStore, raw: str) -> Resolved:
    ref, text, rec, fr, live = locate(session, page, store, raw)
    role, name = live.get("role", ""), live.get("name", "")
    notes = []
    if is_changed(rec, role, name, live.get("idChange") or ""):
        raise changed_error(rec, role, name, live)
    if name != rec.name:
        notes.append(MINOR_NOTE)
    again = restarted_note(store, rec)
    if again:
        notes.append(again)
    return Resolved(ref, text, fr, rec, role, name, live, notes)

