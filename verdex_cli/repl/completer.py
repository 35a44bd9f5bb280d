"""Tab completion: command names (help as meta), flags, and live refs (role and name as meta)."""

from __future__ import annotations

from typing import Callable, Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from ..commands.registry import Registry
from ..sanitize import clean

RefSource = Callable[[], Iterable[tuple[str, str]]]  # (ref, "role \"name\"")


class VerdexCompleter(Completer):
    def __init__(self, registry: Registry, refs: RefSource | None = None):
        self.registry = registry
        self.refs = refs or (lambda: ())

    def get_completions(self, document: Document, complete_event: CompleteEvent):
        text = document.text_before_cursor
        words = text.split()
        at_new_word = text.endswith(" ") or not text
        if len(words) == 0 or (len(words) == 1 and not at_new_word):
            prefix = words[0] if words else ""
            for cmd in self.registry.commands():
                for name in (cmd.name, *cmd.aliases):
                    if name.startswith(prefix):
                        yield Completion(name, start_position=-len(prefix), display_meta=cmd.help)
            return
        cmd = self.registry.get(words[0])
        if cmd is None or cmd.rest == "line":
            return
        prefix = "" if at_new_word else words[-1]
        position = len(words) - 1 if at_new_word else len(words) - 2
        if prefix.startswith("-"):
            for flag in cmd.flags:
                if flag.startswith(prefix):
                    yield Completion(flag, start_position=-len(prefix))
            return
        if position in cmd.ref_args:
            for ref, meta in self.refs():
                if ref.startswith(prefix):
                    yield Completion(ref, start_position=-len(prefix), display_meta=clean(meta))
