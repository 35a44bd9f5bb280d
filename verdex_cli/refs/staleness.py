"""One decision of what a ref's element is now: `classify()`, asked by action resolution, `refs`, `inspect`
and `wait REF`; the ref store (`RefStore.set_status`) alone writes the answer down. The checks, in the
contract's order after the ref's scope:

- navigated: its frame (the main frame, for any frame's ref) shows another document, or the ref is of a
  document its frame already left (`RefRecord.retired`: navigated for good);
- removed: its frame is gone, or the page's registry says the element left the document;
- unknown: the page's registry never issued it (it was reset);
- changed: another role, a significantly changed name (`store.name_change`), or a changed identity
  attribute (id, data-*, href, value, name, keyed position): a recycled element;
- hidden / live: the element is there; hidden when it is not in the accessibility tree."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base.errors import ConnectionLost, VerdexError
from ..browser.frames import Trees, find_frame
from ..browser.page import Page
from .store import RefRecord, RefStore, name_change

LIVE, HIDDEN, CHANGED, REMOVED, NAVIGATED, UNKNOWN = "live", "hidden", "changed", "removed", "navigated", "unknown"


@dataclass
class Verdict:
    status: str
    where: str = ""           # navigated: "now at URL" or "the page was reloaded"
    live: dict = field(default_factory=dict)  # the bridge's description of the element (live/hidden/changed)
    id_change: str = ""       # changed: which identity attribute changed, in words
    frame_gone: bool = False  # removed because its frame no longer exists
    earlier_visit: bool = False  # navigated: issued in an earlier visit of the document the frame shows
    # again (back/forward cache), so its element may well be there, under a new ref


def is_changed(rec: RefRecord, role: str, name: str, id_change: str) -> bool:
    """The element the ref names is not the one the snapshot showed any more (the `changed` rule)."""
    return role != rec.role or name_change(rec.name, name) == "significant" or bool(id_change)


def _where(page: Page, old_loader: str, new_loader: str, url: str) -> str:
    return "the page was reloaded" if page.reloaded_since(old_loader, new_loader) else f"now at {url}"


def _retired_where(page: Page, rec: RefRecord, main_now: tuple[str, str] | None) -> str:
    if main_now is not None and (rec.frame == 0 or rec.retired != main_now[0]):
        return _where(page, rec.retired, *main_now)
    fr = page.frames.get(rec.frame)
    url = fr.url if fr is not None else page.frames.main.url
    return f"now at {url}"


def main_navigated(page: Page, store: RefStore) -> bool:
    """Has the tab shown a new main document since the store's last snapshot? From what the browser
    already told (no call into the page), for status lines; actions ask :func:`classify`."""
    then = store.frame_loaders.get(0)
    main = page.frames.main
    now = main.loader_id if main is not None else None
    # (restored from the back/forward cache: the same document, but its refs are of the earlier visit)
    docs = store.numbers.docs.get(0)
    again = main.renumber or bool(docs and store.main_visit and docs[-1].seq != store.main_visit)
    return then is not None and now is not None and (now != then or again)


def classify(page: Page, store: RefStore, recs: list[RefRecord], detail: bool = False) -> dict[str, Verdict]:
    """The verdict for each record (by ref), written into the store. ``detail``: the page's full description
    of each live element (tag, attributes, box, states: actions, `inspect`), else a brief one. A frame that
    cannot be asked now keeps its records' last status. One round trip: the frame trees (which document
    each frame shows) and each frame's bridge; an answer from a document no longer shown is not used."""
    frames = {rec.frame: page.frames.get(rec.frame) for rec in recs if not rec.retired}
    frames = {fi: fr for fi, fr in frames.items() if fr is not None and not fr.detached}
    trees = Trees([page.frames.main.target] + [fr.target for fr in frames.values()])
    asked: dict[int, tuple] = {}
    try:
        for fi, fr in frames.items():
            if not page.frames.ready(fr):
                continue
            ns = [_number(rec) for rec in recs if rec.frame == fi and not rec.retired]
            calls = [page.bridge.describe(fr, n, later=True) for n in ns] if detail else [page.bridge.brief(fr, ns, later=True)]
            asked[fi] = (fr.world_loader, ns, calls)
        return _classify(page, store, recs, detail, trees, asked)
    finally:
        trees.close()
        for _loader, _ns, calls in asked.values():
            for started in calls:
                started.drop()


def _asked(asked: tuple | None, loader: str, ns: list[int], detail: bool) -> list | None:
    """The answers asked ahead for ``ns`` in ``fr``, when they came from the document ``loader``."""
    if asked is None or asked[0] != loader or any(c.sent is None for c in asked[2]):
        return None
    world_loader, all_ns, calls = asked
    if detail:
        by_n = {n: started.value() for n, started in zip(all_ns, calls)}
    else:
        by_n = dict(zip(all_ns, calls[0].value() or []))
    if any(n not in by_n for n in ns):
        return None
    return [by_n[n] for n in ns]


def _classify(page: Page, store: RefStore, recs: list[RefRecord], detail: bool, trees: Trees,
              asked: dict[int, tuple]) -> dict[str, Verdict]:
    verdicts: dict[str, Verdict] = {}
    main_now = page.frames.current_loader(page.frames.main, trees)
    main_then = store.frame_loaders.get(0)
    new_main = main_now is not None and main_then is not None and main_now[0] != main_then
    by_frame: dict[int, list[RefRecord]] = {}
    for rec in recs:
        if rec.retired:  # of a document its frame left: whatever the frame shows now (the same
            # document again, back from the back/forward cache: an earlier visit's ref)
            verdicts[rec.ref] = Verdict(NAVIGATED, _retired_where(page, rec, main_now),
                                        earlier_visit=_back(page, rec, main_now, trees))
        elif new_main and rec.frame != 0:  # a new main document takes every child frame's refs with it
            verdicts[rec.ref] = Verdict(NAVIGATED, _where(page, main_then, *main_now))
        else:
            by_frame.setdefault(rec.frame, []).append(rec)
    for fi, group in by_frame.items():
        _classify_frame(page, store, fi, group, detail, trees, asked.get(fi), verdicts)
    for ref, verdict in verdicts.items():
        store.set_status(ref, verdict.status)
    return verdicts


def _classify_frame(page: Page, store: RefStore, fi: int, group: list[RefRecord], detail: bool, trees: Trees,
                    asked: tuple | None, verdicts: dict[str, Verdict]) -> None:
    """The verdicts of the records of frame ``fi`` (added to ``verdicts``)."""
    fr = page.frames.get(fi)
    current = page.frames.current_loader(fr, trees) if fr is not None and not fr.detached else None
    if current is None:
        for rec in group:  # its frame went away: with the page it was in (an earlier visit), or alone
            if store.numbers.main_left_since(rec.frame, _number(rec)):
                verdicts[rec.ref] = Verdict(NAVIGATED, f"now at {page.frames.main.url}", earlier_visit=True)
            else:
                verdicts[rec.ref] = Verdict(REMOVED, frame_gone=True)
        return
    loader, url = current
    stale = [rec for rec in group if rec.loader != loader]
    if stale:
        page.frames.note_document(fr, loader, url)
        for rec in stale:
            where = _where(page, rec.loader, loader, url) if fi == 0 else f"now at {url}"
            verdicts[rec.ref] = Verdict(NAVIGATED, where)
        group = [rec for rec in group if rec.loader == loader]
    if not group:
        return
    ns = [_number(rec) for rec in group]
    try:
        found = _asked(asked, loader, ns, detail)
        if found is None:
            found = [page.bridge.describe(fr, n) for n in ns] if detail else page.bridge.brief(fr, ns)
    except ConnectionLost:
        if not ((fr.oopif or fr.target is not page.target) and page.target.alive):
            if detail:
                raise
            return
        # its frame's process went away while we asked (the frame navigated or was removed): the
        # element is gone with its document; say which when the frame tree tells
        now = page.frames.current_loader(fr)
        navigated = now is not None and now[0] != loader
        verdicts.update((rec.ref, Verdict(NAVIGATED, f"now at {now[1]}") if navigated
                         else Verdict(REMOVED, frame_gone=True)) for rec in group)
        return
    except VerdexError:
        if detail:
            raise
        return
    for rec, live in zip(group, found):
        verdict = _judge(rec, live or {})
        if verdict.status == UNKNOWN and _earlier_visit(store, rec):
            # the same document came back (back/forward cache): its bridge numbered anew, so a
            # ref of the earlier visit is of a page the frame left
            verdict = Verdict(NAVIGATED, f"now at {url}", earlier_visit=True)
        verdicts[rec.ref] = verdict


def _back(page: Page, rec: RefRecord, main_now: tuple[str, str] | None, trees: Trees) -> bool:
    """A retired ref's document is shown again (the back/forward cache brought it back, with the page
    around it): its element may well be there, under a new ref -- the main frame's, or a child
    frame's whose page came back with it."""
    if main_now is None:
        return False
    if rec.frame == 0:
        return main_now[0] == rec.loader
    fr = page.frames.get(rec.frame)
    if fr is None or fr.detached:
        return False
    try:
        if not fr.target.alive:  # its process's session ended: the page came back in new ones
            return _shown_anew(page, fr) == rec.loader
        now = page.frames.current_loader(fr, trees)
    except VerdexError:
        return False
    return now is not None and now[0] == rec.loader


def _shown_anew(page: Page, fr) -> str | None:
    """The loader of the document ``fr`` shows now, read through the session Chrome attached anew for
    the out-of-process frame that hosts it (itself or an ancestor), or None."""
    host = fr
    while host is not None and not host.oopif:
        host = page.frames.get(host.parent) if host.parent is not None else None
    target = page.frames.oopif_target(host.frame_id, wait=0) if host is not None else None
    found = find_frame(target.call("Page.getFrameTree")["frameTree"], fr.frame_id) if target is not None else None
    return found.get("loaderId") if found else None


def _earlier_visit(store: RefStore, rec: RefRecord) -> bool:
    """Was the ref issued before its frame's latest numbered visit of a document?"""
    found = store.numbers.document_of(rec.frame, _number(rec))
    return found is not None and not found[1]


def _number(rec: RefRecord) -> int:
    return int(rec.ref.rsplit("e", 1)[1])


def _judge(rec: RefRecord, live: dict) -> Verdict:
    status = live.get("status")
    if status == REMOVED:
        return Verdict(REMOVED, live=live)  # what it was when last shown, while the page holds it
    if status not in (LIVE, HIDDEN):
        return Verdict(UNKNOWN)
    id_change = live.get("idChange") or ""
    if is_changed(rec, live.get("role", ""), live.get("name", ""), id_change):
        return Verdict(CHANGED, live=live, id_change=id_change)
    hidden = status == HIDDEN or bool(live.get("hidden"))
    return Verdict(HIDDEN if hidden else LIVE, live=live)
