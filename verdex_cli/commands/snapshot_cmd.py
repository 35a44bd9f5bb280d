"""snapshot."""

from __future__ import annotations

from ..refs import RefStore
from ..snapshot.take import take_snapshot
from .registry import Result, command


def store_for(ctx) -> RefStore:
    session = ctx.ensure_session()
    key = session.current
    store = ctx.stores.get(key)
    if store is None:
        store = ctx.stores[key] = RefStore(session.page.prefix)
    return store


@command("snapshot", usage="snapshot [--all-refs] [--fresh]", flags=("--all-refs", "--fresh"),
         help="Show the page as an accessibility tree with refs (--all-refs: no compact mode; "
              "--fresh: reconnect frames first).")
def snapshot_cmd(ctx, args, flags):
    page = ctx.page
    if "--fresh" in flags:
        page.frames.forget_connections()
    snap = take_snapshot(page, store_for(ctx), all_refs="--all-refs" in flags)
    snap.notes.extend(page.take_notes())
    return Result("snapshot", snap.as_json())
