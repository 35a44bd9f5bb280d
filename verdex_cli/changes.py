"""What an action changed: wait for the page to settle, capture what the change watchers say
changed (snapshot/cache.py), and compare with the page's last snapshot (snapshot/delta.py).

The capture counts as a snapshot: the refs it shows are usable at once, staleness compares against
it, and `diff` lists it. An action that changed nothing costs one small check per frame.
"""

from __future__ import annotations

import time

from .errors import VerdexError
from .page_state import PageState, Shot, compare
from .timing import phase

QUIET_MS = 80.0    # settled: no DOM change, input or focus move for this long (and this long since the input)
SETTLE_MAX = 2.0   # at most this long (or --timeout, if shorter) waiting for a page that keeps changing


NO_BASELINE = "Changes are not shown until you take a 'snapshot' of this page (there is none to compare with)."


def baseline(state: PageState, main_loader: str) -> Shot | None:
    """The tab's last whole-page snapshot, if it shows the document ``main_loader``."""
    last = state.latest("page")
    return last if last is not None and last.loaders.get(0) == main_loader else None


def after_action(state: PageState, page, main_before: str) -> tuple[dict | None, list[str]]:
    """(changes, notes) for the action just done on ``page``; changes is None when they could not be
    captured (the notes say why; the action itself stands)."""
    before = baseline(state, main_before)
    if before is None:  # said once per document (a replayed script would hear it after every step)
        told, state.told_no_baseline = state.told_no_baseline, main_before
        return None, [NO_BASELINE] if told != main_before else []
    if page.frames.main.loader_id != main_before:
        return {"added": [], "removed": [], "changed": [], "navigated": True}, []
    notes = []
    try:
        with phase("changes: settle"):
            settled = settle(page, min(SETTLE_MAX, page.timeout))
        if not settled:
            notes.append(f"The page was still changing after {min(SETTLE_MAX, page.timeout):g} s; "
                         "the changes are as of then.")
        with phase("changes: capture"):
            snap, cached = state.snapshot(page, all_refs=_all_refs(page), trust_observer=True)
    except VerdexError as exc:
        return None, notes + [f"Could not capture what changed: {exc.message}"]
    except KeyboardInterrupt:  # the action itself happened: its result stands
        return None, notes + ["Stopped before what changed was captured ('snapshot' shows the page)."]
    if page.frames.main.loader_id != main_before:  # navigated while settling
        return {"added": [], "removed": [], "changed": [], "navigated": True}, notes
    if cached:
        out = {"added": [], "removed": [], "changed": []}
    else:
        with phase("changes: compare"):
            out = compare(before, state.latest("page"))
        out.pop("from"), out.pop("to")
        if not out["navigated_frames"]:
            out.pop("navigated_frames")
    out["since"] = before.number
    out["snapshot"] = snap.number
    return out, notes


def settle(page, limit: float) -> bool:
    """Wait until no captured frame changed for QUIET_MS (and QUIET_MS have passed since the input);
    False when ``limit`` seconds ran out first."""
    deadline = time.monotonic() + limit
    while True:
        idle = _idle_ms(page)
        since_input = (time.monotonic() - page.acted_at) * 1000.0 if page.acted_at else 1e9
        quiet = min(idle, since_input)
        if quiet >= QUIET_MS:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(min(0.05, max(0.005, (QUIET_MS - quiet) / 1000.0)))


def _idle_ms(page) -> float:
    """Milliseconds since the last change in any frame of the last capture (large when none)."""
    entry = getattr(page, "snapshot_cache", None)
    indices = list(entry.facts) if entry is not None and entry.facts else [0]
    idle = 1e9
    for index in indices:
        fr = page.frames.get(index)
        if fr is None or fr.detached:
            continue
        try:
            q = page.frames.eval(fr, "__verdexBridge.quiet()", timeout=min(page.timeout, 5.0))["value"]
        except VerdexError:
            continue  # a frame going away: the capture will say so
        if isinstance(q, dict) and q.get("dirty"):
            idle = min(idle, float(q.get("idle", 0.0)))
    return idle


def _all_refs(page) -> bool:
    """Capture in the mode of the last whole-page snapshot (so the cache can answer)."""
    entry = getattr(page, "snapshot_cache", None)
    return entry is not None and entry.mode[0] == "all-refs"
