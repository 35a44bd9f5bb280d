"""What an action changed: wait for the page to settle, capture what the change watchers say
changed (snapshot/cache.py) and compare with the page's last snapshot (snapshot/delta.py). The
capture counts as a snapshot (its refs usable at once, `diff` lists it); an action that changed
nothing costs one small check per frame.

Settled: in every captured frame the work the input started is done (timers, requests, messages:
browser/timer_watch.py) and a hop went by with no change (act.js ``settle``; without the watcher:
QUIET_MS of quiet), no scroll is under way, and no request started since the action is loading
(LoadWatch). Bounded by SETTLE_MAX from the input (or --timeout); a note says when it was hit.
"""

from __future__ import annotations

import threading
import time
import weakref

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, VerdexError
from ..base.timing import phase
from ..browser import timer_watch
from ..browser.cdp import finish_all
from ..refs.page_state import PageState, Shot, compare
from ..refs.staleness import main_navigated
from ..snapshot import cache
from ..snapshot import delta
from ..snapshot.answers import drop_ahead
from ..snapshot.render_text import node_key

QUIET_MS = 80.0    # a document without the timer watcher: settled after this long with no change (and since the input)
SETTLE_MAX = 2.0   # at most this long (or --timeout, if shorter) waiting for a page that keeps changing
SCROLL_STALL_MS = 300.0  # a scroll with no scrollend that has not moved for this long counts as done
LATE_MS = 1000.0   # a request the page started during the action is waited for while younger than this
LOAD_GRACE_MS = 30.0  # ... and this long after one finished (its handler's DOM change then resets the quiet clock)
LATE_IGNORED = frozenset({"EventSource", "WebSocket", "Media", "Ping", "CSPViolationReport", "Preflight"})


NO_BASELINE = "Changes are not shown until you take a 'snapshot' of this page (there is none to compare with)."
MIXED = ("The page's own timers changed it too while the {verb} settled: the changes above may include "
         "theirs.")
UNSPLIT = "What changed before the action could not be told from what it changed: {why}"


def baseline(state: PageState, page, main_loader: str) -> Shot | None:
    """The whole-page snapshot the user last saw, if of document ``main_loader`` in this visit (one
    restored from the back/forward cache is the same document, but not what was seen)."""
    last = state.last_seen()
    if last is None or last.loaders.get(0) != main_loader or main_navigated(page, state.store):
        return None
    return last


class Look:
    """An action whose changes are shown, while it runs: its requests are watched (:class:`LoadWatch`:
    late content), and the page is looked at right before it in two halves, so that only the waiting
    moves: made, it sends the snapshot cache's check, and the target's first question, sent next, rides
    in its round trip; :func:`looked` reads it once the target is found, before any input. ``pre`` then:
    (the page as the action finds it, ``changes_before``: what changed since the user last saw it), the
    cache answering when nothing did; (None, None) without a snapshot to compare with."""

    def __init__(self, state: PageState, page):
        self.watch, self.asked = (state, page, page.frames.main.loader_id), None
        try:
            with phase("changes: watch loads"):
                self.loads = LoadWatch(page)
        except VerdexError:
            self.loads = None
        page.settle.want_changes(True)
        _LOOKS[page] = self
        self.seen = baseline(*self.watch)
        self.open = self.seen is not None  # (an action that never read it: its changes are not told apart)
        self.pre = (self.seen, {"unsplit": "it was not looked at before its input."} if self.open else None)
        if self.open:
            page.settle.watch_own()
            try:
                with phase("changes: ask"):
                    page.frames.ask_tree()  # for the target search: in this round trip too (used if nothing changed)
                    self.asked = cache.ask(page)
            except VerdexError as exc:
                self.open, self.pre = False, (self.seen, {"unsplit": exc.message})
                page.settle.own_untold()

    def end(self) -> None:
        """What was asked and not read is let go: the check (the action ended before its input), the frame
        tree (the target search did not read it, or a capture took time: its tree is the one to trust)."""
        page = self.watch[1]
        page.settle.want_changes(False)
        _LOOKS.pop(page, None)
        cache.drop(self.asked)
        page.frames.asked_tree(read=False)
        if self.loads is not None:
            self.loads.stop()


_LOOKS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # Page -> its action's Look, while it runs


def looked(page) -> None:
    """The action's target is found (or it has none), no input sent yet: its :class:`Look` is read."""
    look = _LOOKS.get(page)
    if look is not None and look.open:
        look.open = False
        look.pre = _before(*look.watch, look.seen, look.asked)


def _before(state: PageState, page, main_before: str, seen: Shot, asked: list | None) -> tuple[Shot, dict]:
    try:
        with phase("changes: before"):
            snap, _cached = state.snapshot(page, all_refs=_all_refs(page), trust_observer=True, asked=asked)
    except VerdexError as exc:
        page.settle.own_untold()
        return seen, {"unsplit": exc.message}
    now = next((s for s in reversed(state.history) if s.number == snap.number and s.scope == "page"), None)
    if now is None or now.loaders.get(0) != main_before:
        page.settle.own_untold()
        return seen, {"unsplit": "the page could not be captured before it."}
    if now is seen:  # (the cache answered: nothing changed since)
        return now, {"added": [], "removed": [], "changed": [], "since": seen.number, "snapshot": now.number}
    return now, _between(seen, now)


def after_action(state: PageState, page, main_before: str, pre: tuple[Shot | None, dict | None] = (None, None),
                 verb: str = "action") -> tuple[dict | None, dict | None, list[str]]:
    """(changes, changes_before, notes) for the action just done, ``pre`` from :class:`Look`;
    changes None when they could not be captured (the notes say why; the action stands)."""
    before, earlier = pre
    if before is None:  # said once per document (a replayed script would hear it after every step)
        told, state.told_no_baseline = state.told_no_baseline, main_before
        return None, None, [NO_BASELINE] if told != main_before else []
    notes = []
    if earlier is not None and "unsplit" in earlier:
        notes.append(UNSPLIT.format(why=earlier["unsplit"]))
        earlier = None
    if page.frames.main.loader_id != main_before:
        return {"added": [], "removed": [], "changed": [], "navigated": True}, earlier, notes
    try:
        with phase("changes: settle"):
            settled = settle(page, min(SETTLE_MAX, page.timeout))
        if not settled:
            notes.append(f"The page was still changing after {min(SETTLE_MAX, page.timeout):g} s; "
                         "the changes are as of then.")
        with phase("changes: capture"):
            snap, cached = state.snapshot(page, all_refs=_all_refs(page), trust_observer=True)
    except VerdexError as exc:
        return None, earlier, notes + [f"Could not capture what changed: {exc.message}"]
    except KeyboardInterrupt:  # the action itself happened: its result stands
        return None, earlier, notes + ["Stopped before what changed was captured ('snapshot' shows the page)."]
    if page.frames.main.loader_id != main_before:  # navigated while settling
        return {"added": [], "removed": [], "changed": [], "navigated": True}, earlier, notes
    out = {"added": [], "removed": [], "changed": []} if cached else _between(before, state.latest("page"), page)
    meanwhile = out.pop("aside", None)
    if meanwhile and delta.count(meanwhile):  # what the page's own timers did meanwhile: not the action's
        earlier = dict(earlier or {"added": [], "removed": [], "changed": [], "since": before.number,
                                   "snapshot": before.number}, meanwhile=meanwhile)
    if not cached:
        state.show(page, snap, _named(out, snap))
    if page.settle.mixed() and delta.count(out):
        out["mixed"] = True
        notes.append(MIXED.format(verb=verb))
    out["since"] = before.number
    out["snapshot"] = snap.number
    state.seen = snap.number
    return out, earlier, notes


def _between(a: Shot, b: Shot, page=None) -> dict:
    """What differs from snapshot ``a`` to ``b``. With ``page``: what lies where only the page's own
    timers changed it (observer.js ownOnly) is set aside (``aside``)."""
    places = page.settle.own_places if page is not None and page.settle.own_changed else None
    aside = None
    if places:
        (old, found), (new, found_too) = _within(a, places), _within(b, places)
        page.settle.own((), (found | found_too) == places)  # a place that is no line (a wrapper): its lines stay
        aside = (old, new)
    with phase("changes: compare"):
        out = compare(a, b, aside)
    out["since"], out["snapshot"] = out.pop("from"), out.pop("to")
    if not out["navigated_frames"]:
        out.pop("navigated_frames")
    return out


def _within(shot: Shot, places: set[int]) -> tuple[set[int], set[int]]:
    """(the lines of ``shot`` that are or lie inside one of ``places`` (line identities), the places found)."""
    out, found, depth = set(), set(), -1  # depth: the indent of the place being walked (-1: none)
    for i, line in enumerate(shot.text.split("\n")):
        indent = len(line) - len(line.lstrip(" "))
        if depth >= 0 and indent > depth:
            out.add(i)
            continue
        depth = -1
        if shot.ids is not None and i < len(shot.ids) and shot.ids[i] in places:
            out.add(i)
            found.add(shot.ids[i])
            depth = indent
    return out, found


def _named(changes: dict, snap) -> dict:
    """ref -> its RefInfo, for the refs the change lines name (the ones the user is shown)."""
    named = (item.get("ref") for item in changes["added"] + changes["changed"])
    return {ref: snap.refs[ref] for ref in named if ref in snap.refs}


def settle(page, limit: float, stop=None, mark: bool = True, started: list | None = None) -> bool:
    """Wait until the page settled after the last input (``page.settle.acted_at``; see the module's doc).
    False when ``limit`` ran out or ``stop()`` (polled between slices) became true. Once settled for
    an input, later calls only check late requests; once a wait ran out (``mark``), later ones look
    once, so a page that never settles costs the limit once per action. ``started``: the first
    question, sent already (:func:`start_settle`)."""
    try:
        return _settle(page, limit, stop, mark, started)
    finally:
        release(page, started)


def release(page, started: list | None) -> None:
    """Let settle questions sent ahead go unread (a capture one took reset its frame's watcher: the
    snapshot cache cannot vouch any more)."""
    unread = [p for _fr, _loader, p in started or () if p.open]
    for p in unread:
        p.drop()
    if unread:
        cache.forget(page)
        page.settle.own_untold()


def _settle(page, limit: float, stop, mark: bool, started: list | None) -> bool:
    deadline = time.monotonic() + limit
    acted = page.settle.acted_at
    if acted:  # counted from the input: before the page's watcher lets go of what it started
        deadline = min(deadline, acted + limit)  # (timer_watch.CHAIN_MS), so the bound is said
    if acted and page.settle.gave_up_at == acted:
        deadline = 0.0
    loads: LoadWatch | None = _WATCHES.get(id(page))
    known = bool(acted) and page.settle.settled_at == acted
    while True:
        if stop is not None and stop():
            return False
        now = time.monotonic()
        late = False
        if loads is not None:
            young, since_load = loads.busy(now)
            late = young or since_load < LOAD_GRACE_MS
        if not late:
            if known:
                return True
            verdict = _settle_frames(page, max(0.0, deadline - now), started)
            started = None
            if verdict == "navigating":
                return False
            if verdict == "settled":
                if loads is not None:
                    page.target.drain_events()  # a request the input started, heard by now
                    young, since_load = loads.busy(time.monotonic())
                    if young or since_load < LOAD_GRACE_MS:
                        page.settle.hover_answer(None)  # asked anew once what the request brings is in
                        continue
                page.settle.settled()
                return True
        now = time.monotonic()
        if now >= deadline:
            if mark:
                page.settle.gave_up()
            return False
        if late:
            known = False  # what the request brings is waited for anew
            time.sleep(min(0.01, max(0.0, deadline - now)))


SLICE_S = 1.0  # longest in-page wait per call (stop() is polled between calls)


def start_settle(page, left: float) -> list:
    """Ask every captured frame to settle without waiting (:func:`settle` takes the calls as
    ``started``), sharing a round trip with what is sent next; with ``page.settle.changes_wanted``, each frame
    that changed is captured in the same call once settled (cache.Ahead)."""
    entry = cache.entry_of(page)
    indices = list(entry.facts) if entry is not None and entry.facts else [0]
    rest = max(0.0, min(SLICE_S, left))
    since = (time.monotonic() - page.settle.acted_at) * 1000.0 if page.settle.acted_at else 1e9
    opts = {"key": timer_watch.KEY, "maxMs": int(rest * 1000), "sinceMs": round(since, 1), "quietMs": QUIET_MS,
            "stallMs": SCROLL_STALL_MS}
    frs = [fr for fr in map(page.frames.get, indices) if fr is not None and not fr.detached]
    whats = cache.ahead_captures(page) if page.settle.changes_wanted and page.settle.acted_at else None
    return page.bridge.settle_calls(frs, opts, timeout=min(page.timeout, 5.0) + rest, whats=whats,
                                    caps=cache.caps(page), hover=page.settle.hover_probe)


def _settle_frames(page, left: float, started: list | None = None) -> str:
    """'settled' when every captured frame settled within ``left`` seconds (all in one round trip),
    'navigating' when one began navigating away, else 'busy'."""
    calls = started if started is not None else start_settle(page, left)
    answers = finish_all([p for _fr, _loader, p in calls])
    verdict = "settled"
    page.settle.hover_answer(None)  # (only this round's answer stands)
    frames: dict[int, tuple] = {}
    whats = cache.ahead_captures(page) or {}
    for (fr, loader, _p), res in zip(calls, answers):
        q = res.get("result", {}).get("value") if isinstance(res, dict) and "exceptionDetails" not in res else None
        if not isinstance(q, dict):
            continue  # a frame going away (or a document the bridge is not in yet): the capture says so
        if "hovered" in q:
            page.settle.hover_answer({"under": q["hovered"]})
        if q.get("own"):  # the page's own timers changed it (since the capture before the action): where only they did
            only = q.get("ownOnly") or {}
            page.settle.own((node_key(fr.index, i * 1024) for i in only.get("ids") or ()), bool(only.get("all")))
        if "dirty" in q:
            frames[fr.index] = (loader, whats.get(fr.index, ("snapshot",)), bool(q["dirty"]), q.get("capture"))
        if q.get("navigating"):
            verdict = "navigating"
        elif not q.get("settled") and verdict == "settled":
            verdict = "busy"
    if frames:
        earlier = cache.take_ahead(page)  # an earlier round's (a late request made the wait go on)
        if earlier is not None:
            drop_ahead(page, earlier.frames)  # its captures reset their watchers: the cache cannot vouch
            page.settle.own_untold()  # ... nor can they say any more whose doing a change was
        ahead = cache.Ahead(page.settle.acted_at, frames)
        # only a round in which every frame settled stands for the page; else the cache is dropped (those
        # captures reset the frames' watchers)
        if verdict != "settled" or len(frames) != len(calls) or not cache.keep_ahead(page, ahead):
            drop_ahead(page, frames)
            page.settle.own_untold()
    return verdict


class LoadWatch:
    """Requests the page starts while an action runs and settles, through the Network domain of its
    targets (on for that time only). Streams and requests older than LATE_MS (a long poll) are not
    waited for; a page that polls often still settles between two of its requests."""

    def __init__(self, page):
        self.page = page
        self.lock = threading.Lock()
        self.pending: dict[tuple, float] = {}  # (target, request id) -> monotonic start
        self.finished_at = 0.0
        self.targets = []
        seen = set()
        for fr in [page.frames.main, *page.frames.by_index.values()]:
            t = fr.target
            if fr.detached or id(t) in seen or t.crashed or not t.alive:
                continue
            seen.add(id(t))
            _hook(t)
            timer_watch.install(t)  # an out-of-process frame's documents (the tab's has it already)
            _WATCHES[id(t)] = self
            try:
                # not waited for: the target handles its calls in order, so it is on before the input
                t.hold_network()
                self.targets.append(t)
            except (CDPError, CDPTimeout, ConnectionLost):
                _WATCHES.pop(id(t), None)
        _WATCHES[id(page)] = self

    def sent(self, target, requestId: str = "", type: str = "", **_) -> None:
        if type in LATE_IGNORED:
            return
        with self.lock:
            self.pending.setdefault((id(target), requestId), time.monotonic())

    def done(self, target, requestId: str = "", **_) -> None:
        with self.lock:
            if self.pending.pop((id(target), requestId), None) is not None:
                self.finished_at = time.monotonic()

    def busy(self, now: float) -> tuple[bool, float]:
        """(a request younger than LATE_MS is loading, milliseconds since the last one finished)."""
        with self.lock:
            young = any((now - at) * 1000.0 < LATE_MS for at in self.pending.values())
            since = (now - self.finished_at) * 1000.0 if self.finished_at else 1e9
        return young, since

    def stop(self) -> None:
        for key in [id(self.page), *(id(t) for t in self.targets)]:
            if _WATCHES.get(key) is self:
                del _WATCHES[key]
        with phase("changes: watch loads"):
            for t in self.targets:
                t.release_network()


# the LoadWatch of each page and target watched (by id, until stop()), and the targets routed to them
_WATCHES: dict[int, "LoadWatch"] = {}
_HOOKED: "weakref.WeakSet" = weakref.WeakSet()


def _hook(target) -> None:
    """Route the target's network events to its current LoadWatch (handlers cannot be removed)."""
    if target in _HOOKED:
        return
    _HOOKED.add(target)

    def route(kind):
        def handler(**kw):
            w = _WATCHES.get(id(target))
            if w is not None:
                getattr(w, kind)(target, **kw)
        return handler

    target.on("Network.requestWillBeSent", route("sent"))
    target.on("Network.loadingFinished", route("done"))
    target.on("Network.loadingFailed", route("done"))


def _all_refs(page) -> bool:
    """Capture in the mode of the last whole-page snapshot (so the cache can answer)."""
    entry = cache.entry_of(page)
    return entry is not None and entry.mode[0] == "all-refs"
