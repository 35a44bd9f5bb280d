"""A command's declared parameters: its forms (`N`, `new [URL]`, `close N`) and options, from which
the usage line, the argument counts, the parsing mode and what completion offers are all derived.

A form is words: UPPER words are parameters (their kind comes from the name: REF and TARGET take a
target, TEXT the rest of the line, PATH/FILE/URL a path, N/M/MS/LEVEL a number, KEY a key, COMMAND a
command name), lower words are literal sub-verbs, `A|b|c` are alternatives, `[...]` is optional (it may
nest) and a trailing `...` repeats. An option is `--name` or `--name METAVAR` (it takes a value).
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = {"REF": "target", "TARGET": "target", "TEXT": "text", "JS": "script", "URL": "path", "PATH": "path",
         "FILE": "path", "N": "int", "M": "int", "MS": "int", "LEVEL": "int", "KEY": "key", "VALUE": "value",
         "COMMAND": "command"}

# roles a command's target must have to be offered by completion
TEXT_FIELDS = frozenset({"textbox", "searchbox", "combobox", "spinbutton", "slider"})
CHECKABLE = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})
CHOOSERS = frozenset({"combobox", "listbox"})


@dataclass(frozen=True)
class Param:
    position: int
    choices: tuple[str, ...]  # `REF|up|down` -> ("REF", "up", "down")
    optional: bool
    variadic: bool

    @property
    def kinds(self) -> set[str]:
        return {KINDS.get(c.rstrip("."), "value") for c in self.choices if c.isupper()}


def parse_form(form: str) -> list[Param]:
    params, depth, position = [], 0, 0
    for raw in form.replace("[", " [ ").replace("]", " ] ").split():
        if raw == "[":
            depth += 1
        elif raw == "]":
            depth -= 1
        else:
            variadic = raw.endswith("...")
            params.append(Param(position, tuple(raw.removesuffix("...").split("|")), depth > 0, variadic))
            position += 1
    if depth:
        raise ValueError(f"unbalanced brackets in {form!r}")
    return params


@dataclass(frozen=True)
class Signature:
    forms: tuple[str, ...] = ("",)
    options: tuple[str, ...] = ()

    def usage(self, name: str) -> str:
        line = " | ".join(f"{name} {form}".strip() for form in self.forms)
        return " ".join([line] + [f"[{o}]" for o in self.options])

    def _params(self) -> list[list[Param]]:
        return [parse_form(f) for f in self.forms]

    @property
    def min_args(self) -> int:
        return min(sum(1 for p in ps if not p.optional) for ps in self._params())

    @property
    def max_args(self) -> int | None:
        forms = self._params()
        return None if any(p.variadic for ps in forms for p in ps) else max(len(ps) for ps in forms)

    @property
    def rest(self) -> str | None:
        """How the line splits: "line" (the verbatim rest), "after_first" (a first word, then the
        rest), "words" (shell words, no options) or None (shell words and options)."""
        params = [p for ps in self._params() for p in ps]
        if any("script" in p.kinds or ("text" in p.kinds and p.position == 0) for p in params):
            return "line"
        if any("text" in p.kinds and p.position == 1 for p in params):
            return "after_first"
        return "words" if any(p.variadic for p in params) else None

    def positions(self, kind: str) -> tuple[int, ...]:
        return tuple(sorted({p.position for ps in self._params() for p in ps if kind in p.kinds}))

    def takes(self, kind: str, position: int) -> bool:
        """Does the word at ``position`` (0 = the first after the command) take ``kind`` in some form?"""
        for ps in self._params():
            for p in ps:
                if kind in p.kinds and (p.position == position or p.variadic and position > p.position):
                    return True
        return False

    @property
    def flags(self) -> tuple[str, ...]:
        return tuple(o.split()[0] for o in self.options)

    @property
    def value_flags(self) -> tuple[str, ...]:
        return tuple(o.split()[0] for o in self.options if len(o.split()) > 1)
