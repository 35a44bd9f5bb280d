"""Tab completion: command names (help as meta), flags, paths, live refs and element names. At a target
position: refs of the roles the command accepts (`select`: comboboxes, listboxes), and, for a name
holding the typed text, the target by meaning (`"button:Save"`) when it names one element."""

from __future__ import annotations

from typing import Callable, Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document

from ...act.targets import quote_word
from ...base.sanitize import clean
from ...commands.registry import Registry

RefSource = Callable[[], Iterable[tuple[str, str]]]  # (ref, "role \"name\"")
ElementSource = Callable[[], Iterable[tuple[str, str, str]]]  # (ref, role, name)


class VerdexCompleter(Completer):
    def __init__(self, registry: Registry, refs: RefSource | None = None, elements: ElementSource | None = None):
        self.registry = registry
        self.refs = refs or (lambda: ())
        self.elements = elements
        self.paths = PathCompleter(expanduser=True)

    def get_completions(self, document: Document, complete_event: CompleteEvent):
        text = document.text_before_cursor
        words = text.split()
        at_new_word = text.endswith(" ") or not text
        if len(words) == 0 or (len(words) == 1 and not at_new_word):
            prefix = words[0] if words else ""
            yield from (Completion(name, start_position=-len(prefix), display_meta=cmd.help)
                        for cmd in self.registry.commands() for name in (cmd.name, *cmd.aliases)
                        if name.startswith(prefix))
            return
        cmd = self.registry.get(words[0])
        if cmd is None or cmd.rest == "line":
            return
        prefix = "" if at_new_word else words[-1]
        position = len(words) - 1 if at_new_word else len(words) - 2
        if prefix.startswith("-"):
            yield from (Completion(flag, start_position=-len(prefix)) for flag in cmd.flags if flag.startswith(prefix))
            return
        sig = cmd.signature  # what each position takes, as the command declares it
        if sig.takes("path", position):
            yield from self.paths.get_completions(Document(prefix, len(prefix)), complete_event)
            return
        if sig.takes("command", position):
            yield from (Completion(name, start_position=-len(prefix), display_meta=self.registry.get(name).help)
                        for name in self.registry.names() if name.startswith(prefix))
            return
        yield from (Completion(v, start_position=-len(prefix)) for v in sig.literals_at(position)  # sub-verbs
                    if v.startswith(prefix))
        before = words[-1] if at_new_word else (words[-2] if len(words) > 1 else "")
        if position in cmd.ref_args or before == "--within":  # snapshot --within TARGET
            yield from self._targets(cmd.accepts, prefix)

    def _targets(self, accepts: frozenset | None, prefix: str):
        metas = dict(self.refs()) if self.elements is None else {}
        items = list(self.elements()) if self.elements is not None else [
            (r, meta.split(" ", 1)[0], "") for r, meta in metas.items()]  # (ref, role, name)
        items = [it for it in items if accepts is None or it[1] in accepts]
        want = prefix.lstrip("'\"").casefold()
        pairs: dict[tuple[str, str], int] = {}
        for _, role, name in items:
            pairs[(role, name)] = pairs.get((role, name), 0) + 1
        for ref, role, name in items:
            meta = metas.get(ref) or (f'{role} "{name[:60]}"' if name else role)
            if ref.startswith(prefix):
                yield Completion(ref, start_position=-len(prefix), display_meta=clean(meta))
            elif want and name and (want in name.casefold() or f"{role}:{name}".casefold().startswith(want)):
                if pairs[(role, name)] == 1:  # a name that finds this element alone
                    yield Completion(quote_word(f"{role}:{name}"), start_position=-len(prefix),
                                     display=clean(quote_word(f"{role}:{name}")), display_meta=ref)
                yield Completion(ref, start_position=-len(prefix), display_meta=clean(meta))
