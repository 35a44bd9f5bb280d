"""Staleness you can see: refs, inspect, diff, reset-refs."""

from __future__ import annotations

from ..act.fields import MASK
from ..act.locators import stable_locator, unchecked
from ..act.resolve import changed_error, check_scope, locate, restarted_note, unknown
from ..act.targets import parse_target, resolve_target
from ..base.errors import RefError
from ..refs import story
from ..refs.staleness import classify
from ..refs.store import RefStore, describe, parse_ref
from .registry import Result, command


def _by(step) -> dict | None:
    """A command of the tab's log, as inspect and refs name it (what made a ref stale, or found it so;
    what last showed it)."""
    return {"n": step.n, "command": step.line} if step is not None else None


def _since(store: RefStore, rec) -> list[dict]:
    """The commands that could change the page after the ref was last shown (and last captured), before
    the one that found it stale: one of them, or the page itself, made it stale."""
    step, shown = rec.stale[1], max(rec.shown_by, rec.issued_by)
    return [_by(s) for s in store.log.steps
            if step is not None and s.before >= rec.last_seen and shown < s.n < step.n and not s.reads]


def _row(r) -> dict:
    return {"ref": r.ref, "role": r.role, "name": r.name, "status": r.status, "first_seen": r.first_seen,
            "last_seen": r.last_seen, "frame": r.frame}


@command("refs", group="refs", options=("--stale: only stale refs, of every frame and earlier document",),
         help="List every ref of the current page with its status (--stale: the stale ones, every frame).",
         effect="read")
def refs_cmd(ctx, args, flags):
    page = ctx.page
    store = ctx.page_state().store
    classify(page, store, list(store.records.values()))  # every status up to date, in one round trip
    if "--stale" in flags:
        recs = [r for r in store.records.values() if r.status not in ("live", "hidden")] + list(store.gone.values())
        rows = [dict(_row(r), made_stale_by=_by(r.stale[1] if r.stale else None)) for r in recs]
    else:
        rows = [_row(r) for r in store.records.values()]
    notes = [] if rows else ["No stale refs." if "--stale" in flags else "No refs yet. Take a snapshot."]
    return Result("refs", {"refs": rows, "snapshot": store.snapshot_no}, notes)


@command("inspect", group="refs", params="REF|TARGET",
         help="Show a ref's whole story: its element, status, where it was issued and last shown, what made "
              "it stale, its stable locator.", effect="read")
def inspect_cmd(ctx, args, flags):
    page = ctx.page
    store = ctx.page_state().store
    target = parse_target(args[0])  # a ref (also pasted as [ref=...]) or a target by meaning
    raw = target.value if target.kind == "ref" else resolve_target(ctx.session, page, store, args[0]).text
    ref = parse_ref(raw)
    try:
        check_scope(ctx.session, page, ref, raw.strip())
    except RefError as exc:  # another tab's, or a closed tab's: its story, if kept
        other = ctx.state_of(ref.context, ref.page)
        rec = other.store.get(str(ref)) if other is not None else None
        if rec is None:
            raise
        return Result("inspect", _story(other.store, rec, {"status": exc.kind, "reason": exc.message}))
    rec = store.get(str(ref))
    if rec is None or rec.status == "reset":
        raise unknown(store, ref)
    live: dict = {}
    try:
        _, _, _, fr, live = locate(ctx.session, page, store, rec.ref)
    except RefError as exc:
        _named(rec)
        return Result("inspect", _story(store, rec, {"status": exc.kind, "reason": exc.message}))
    attrs = dict(live.get("attrs", {}))
    if live.get("tag") == "input" and attrs.get("type", "").lower() == "password" and attrs.get("value"):
        attrs["value"] = MASK  # a password is never echoed
    data = {"status": rec.status,  # live, hidden or changed, as classify() wrote it
            "tag": live.get("tag"), "attributes": attrs, "box": live.get("box"), "states": live.get("states", {}),
            "current": {"role": live.get("role"), "name": live.get("name")}}
    if rec.status == "changed":
        data["reason"] = changed_error(rec, live.get("role", ""), live.get("name", ""), live).message
        data["history"] = rec.history + [f"now {describe(live.get('role', ''), live.get('name', ''))} "
                                         "(not yet snapshotted)"]
    again = restarted_note(store, rec)
    if again:
        data["reason"] = again
    loc = stable_locator(page, fr, ref.n)  # the best stable target, and the same in Playwright
    data.update(locator=loc and loc["locator"], playwright=loc and loc["playwright"])
    store.know(rec, live, data["locator"])
    out = _story(store, rec, data)  # as it was before this inspect, which now shows it
    ctx.page_state().show_live(page, fr, rec.ref, live.get("role", ""), live.get("name", ""))
    return Result("inspect", out)


def _named(rec) -> None:
    """A gone element verdex never saw live: its locator as its attributes and the name it was shown
    with make it (not checked: it names nothing now)."""
    known = rec.known
    if known and "locator" not in known:
        attrs = known["attributes"]
        found = unchecked(attrs.get("data-testid"), attrs.get("aria-label"), rec.role, rec.name)
        if found:
            known.update(locator=str(found), checked=False)


def _story(store: RefStore, rec, data: dict) -> dict:
    """inspect's answer: what is known now (``data``), and the ref's story."""
    issued = store.log.step(rec.issued_by)
    out = {"ref": rec.ref, "role": rec.role, "name": rec.name, "frame": rec.frame, "first_seen": rec.first_seen,
           "last_seen": rec.last_seen, "history": list(rec.history)}
    out.update(data)
    out["story"] = {
        "issued": {"snapshot": rec.first_seen, "command": issued.line if issued else None,
                   "command_n": rec.issued_by or None, "url": store.log.urls.get(rec.loader)},
        "shown": {"snapshot": rec.shown_at or None, "role": rec.role, "name": rec.name,
                  "by": _by(store.log.step(rec.shown_by))},
        "known": rec.known,
        "stale": {"status": rec.stale[0], "by": _by(rec.stale[1]), "after_snapshot": rec.stale[2],
                  "since_seen": _since(store, rec)} if rec.stale and rec.stale[0] != "hidden" else None,
        "cause": story.explain(store.log.since(rec.frame, rec.loader, rec.main or rec.retired),
                               store.log.urls.get(rec.loader, "")) or None,
        "successor": rec.successor or None,
    }
    return out


@command("log", group="refs", effect="read",
         help="List this tab's commands with their snapshot numbers, outcomes and the refs each made stale.")
def log_cmd(ctx, args, flags):
    log = ctx.page_state().store.log
    steps = [s.as_json() for s in log.steps if s is not log.current]
    return Result("log", {"commands": steps, "kept": len(steps), "total": log.count - 1})


@command("diff", group="refs", params="[N [M]]",
         help="Show every node that differs between two snapshots of this tab (default: the last two; "
              "N alone: snapshot N and the latest).", effect="read")
def diff_cmd(ctx, args, flags):
    numbers = [args.values[k] for k in ("n", "m") if k in args.values]
    data = ctx.page_state().diff(*numbers)
    notes = [] if data["from"] is not None else ["Need two snapshots to compare; take another snapshot."]
    if data["navigated_frames"]:
        frames = ", ".join(f"f{f}" for f in data["navigated_frames"])
        notes.append(f"New document in {frames} between the snapshots: its refs are listed as removed and added.")
    return Result("diff", data, notes)


@command("reset-refs", group="refs", options=("--restart: number refs from 1 again",),
         help="Forget all refs of the current page; numbering goes on (--restart: start again at 1, "
              "so old ref strings will name new elements).")
def reset_refs_cmd(ctx, args, flags):
    state = ctx.page_state()
    restart = "--restart" in flags
    dropped = len(state.store.records)
    state.reset(restart)  # (first: it keeps the highest numbers a restart forgets)
    ctx.page.frames.reset_refs(not restart)
    return Result("reset", {"dropped": dropped, "restart": restart})
