"""Staleness you can see: refs, inspect, diff, reset-refs."""

from __future__ import annotations

from ..act.fields import MASK
from ..act.locators import stable_locator
from ..act.resolve import changed_error, check_scope, locate
from ..act.targets import resolve_target
from ..act.targets import parse_target
from ..base.errors import ErrorKind, RefError
from ..refs.staleness import classify
from ..refs.store import RefStore, describe, parse_ref
from .registry import Result, command


def refresh_statuses(page, store: RefStore) -> None:
    """Bring every record's status up to date with the live page (one `classify` for all)."""
    classify(page, store, list(store.records.values()))


@command("refs", help="List every ref of the current page with its status.", effect="read")
def refs_cmd(ctx, args, flags):
    page = ctx.page
    store = ctx.page_state().store
    refresh_statuses(page, store)
    rows = [{"ref": r.ref, "role": r.role, "name": r.name, "status": r.status, "first_seen": r.first_seen,
             "last_seen": r.last_seen, "frame": r.frame} for r in store.records.values()]
    notes = [] if rows else ["No refs yet. Take a snapshot."]
    return Result("refs", {"refs": rows, "snapshot": store.snapshot_no}, notes)


@command("inspect", params="REF|TARGET",
         help="Show everything known about a ref: element details, status, history and a stable locator.",
         effect="read")
def inspect_cmd(ctx, args, flags):
    page = ctx.page
    store = ctx.page_state().store
    target = parse_target(args[0])  # a ref (also pasted as [ref=...]) or a target by meaning
    raw = target.value if target.kind == "ref" else resolve_target(page, store, args[0]).text
    ref = parse_ref(raw)
    check_scope(page, ref, raw.strip())
    rec = store.get(str(ref))
    if rec is None:
        raise RefError(f"Ref '{ref}' not found. Take a new snapshot.", kind=ErrorKind.UNKNOWN_REF)
    live: dict = {}
    failure: RefError | None = None
    try:
        _, _, _, fr, live = locate(page, store, rec.ref)
    except RefError as exc:
        failure = exc
    data = {"ref": rec.ref, "role": rec.role, "name": rec.name, "frame": rec.frame, "status": rec.status,
            "first_seen": rec.first_seen, "last_seen": rec.last_seen, "history": list(rec.history)}
    if failure is not None:
        data["status"] = failure.kind
        data["reason"] = failure.message
    else:
        attrs = dict(live.get("attrs", {}))
        if live.get("tag") == "input" and attrs.get("type", "").lower() == "password" and attrs.get("value"):
            attrs["value"] = MASK  # a password is never echoed
        data.update(tag=live.get("tag"), attributes=attrs, box=live.get("box"),
                    states=live.get("states", {}), current={"role": live.get("role"), "name": live.get("name")})
        data["status"] = rec.status  # live, hidden or changed, as classify() wrote it
        if rec.status == "changed":
            data["history"].append(f"now {describe(live.get('role', ''), live.get('name', ''))} (not yet snapshotted)")
            data["reason"] = changed_error(rec, live.get("role", ""), live.get("name", ""), live).message
        loc = stable_locator(page, fr, ref.n)  # the best stable target, and the same in Playwright
        data.update(locator=loc and loc["locator"], playwright=loc and loc["playwright"])
        ctx.page_state().show_live(page, fr, rec.ref, live.get("role", ""), live.get("name", ""))
    return Result("inspect", data)


@command("diff", params="[N [M]]",
         help="Show every node that differs between two snapshots of this tab (default: the last two; "
              "N alone: snapshot N and the latest).", effect="read")
def diff_cmd(ctx, args, flags):
    numbers = [args.values[k] for k in ("n", "m") if k in args.values]
    state = ctx.page_state()
    data = state.diff(*numbers)
    notes = [] if data["from"] is not None else ["Need two snapshots to compare; take another snapshot."]
    if data["navigated_frames"]:
        frames = ", ".join(f"f{f}" for f in data["navigated_frames"])
        notes.append(f"New document in {frames} between the snapshots: its refs are listed as removed and added.")
    return Result("diff", data, notes)


@command("reset-refs", options=("--restart: number refs from 1 again",),
         help="Forget all refs of the current page; numbering goes on (--restart: start again at 1, "
              "so old ref strings will name new elements).")
def reset_refs_cmd(ctx, args, flags):
    page = ctx.page
    store = ctx.page_state().store
    restart = "--restart" in flags
    dropped = len(store.records)
    page.frames.reset_refs(not restart)
    ctx.page_state().reset()
    return Result("reset", {"dropped": dropped, "restart": restart})
