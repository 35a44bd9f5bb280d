"""snapshot."""

from __future__ import annotations

from ..errors import UsageError
from ..refs import RefStore
from ..snapshot.take import take_snapshot
from .registry import Result, command

REPL_MAX_CHARS = 200_000  # the REPL's default cut; one-shot and JSON output are whole unless asked


def store_for(ctx) -> RefStore:
    session = ctx.ensure_session()
    key = session.current
    store = ctx.stores.get(key)
    if store is None:
        store = ctx.stores[key] = RefStore(session.page.prefix)
    return store


def max_chars(ctx, args: list[str], flags: set[str]) -> int:
    """The --max-chars limit (0 = none)."""
    if "--max-chars" not in flags:
        if args:
            raise UsageError(f"Usage: {USAGE}")
        return REPL_MAX_CHARS if getattr(ctx, "interactive", False) else 0
    if len(args) != 1 or not args[0].isdigit():
        raise UsageError(f"--max-chars needs a number of characters (0 = no limit). Usage: {USAGE}")
    return int(args[0])


def cut_text(text: str, limit: int) -> tuple[str, str | None]:
    """Cut at a line end at or before ``limit`` characters; (text, note or None)."""
    if not limit or len(text) <= limit:
        return text, None
    end = text.rfind("\n", 0, limit + 1)
    shown = text[: end if end > 0 else limit]
    rest_lines = text.count("\n", len(shown)) + (0 if end > 0 else 1)
    note = (f"Output cut at {len(shown):,} of {len(text):,} characters ({rest_lines:,} more lines); "
            f"'snapshot --max-chars 0' shows all of it.")
    return shown, note


USAGE = "snapshot [--all-refs] [--fresh] [--max-chars N]"


@command("snapshot", usage=USAGE, flags=("--all-refs", "--fresh", "--max-chars"), max_args=1,
         help="Show the page as an accessibility tree with refs (--all-refs: no compact mode; "
              "--fresh: reconnect frames first; --max-chars N: cut the text at N characters).")
def snapshot_cmd(ctx, args, flags):
    limit = max_chars(ctx, args, flags)
    page = ctx.page
    if "--fresh" in flags:
        page.frames.forget_connections()
    snap = take_snapshot(page, store_for(ctx), all_refs="--all-refs" in flags)
    snap.notes.extend(page.take_notes())
    data = snap.as_json()
    data["text"], note = cut_text(data["text"], limit)
    if note:
        data["notes"] = list(data.get("notes", [])) + [note]
    return Result("snapshot", data)
