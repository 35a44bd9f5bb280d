"""A command's declared forms (`N`, `new [URL]`, `close N`) and options, from which the usage line,
argument counts, parsing mode, completion and tool schemas are derived.

A form is words: UPPER words are parameters whose kind comes from the name (KINDS), lower words are
sub-verbs, `A|b|c` alternatives, `[...]` optional (it may nest), a trailing `...` repeats. An option is
`--name` or `--name METAVAR` (it takes a value; N or MS: a number, fN: a frame index, `a|b`: one of
those words), optionally with `: what it does`.
`Signature.match` fits a line's words to a form and converts each parameter by kind, under its name
(`Param.name`: the lower-case word, REF/TARGET `ref`, FILE `path`, plural when it repeats, `action`
for a sub-verb); the registry routes the line to that form's handler.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

KINDS = {"REF": "target", "TARGET": "target", "TEXT": "text", "JS": "script", "URL": "path", "PATH": "path",
         "FILE": "path", "N": "int", "M": "int", "MS": "int", "LEVEL": "int", "KEY": "key", "VALUE": "value",
         "COMMAND": "command", "fN": "frame"}

NAMES = {"REF": "ref", "TARGET": "ref", "FILE": "path"}
WANTED = {"N": "a whole number, 0 or more", "MS": "a number of milliseconds, 0 or more",
          "fN": "a frame index like f1 ('frames' lists them)"}
_WHOLE = re.compile(r"#?\d+")
_NUMBER = re.compile(r"\d+(\.\d+)?")
_FRAME = re.compile(r"f\d+")

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

    @property
    def upper(self) -> str | None:
        """The parameter word (`REF` of `REF|up|down`), or None for a sub-verb (`new`, `accept|dismiss`)."""
        return next((c for c in self.choices if c.isupper()), None)

    @property
    def literals(self) -> tuple[str, ...]:
        return tuple(c for c in self.choices if not c.isupper())

    @property
    def name(self) -> str:
        word = self.upper
        if word is None:
            return "action"
        base = NAMES.get(word, word.lower())
        return base + "s" if self.variadic else base

    def convert(self, word: str, reserved: frozenset) -> tuple[object, int] | None:
        """(value, weight) when ``word`` fits here (weight 1 for a sub-verb or a number, 0 for free
        text), else None. A target never takes a word that is one of the command's sub-verbs, nor,
        beside sub-verbs (`scroll REF | scroll up|down`), a word that does not look like a target."""
        if word in self.literals:
            return word, 1
        if self.upper is None:
            return None
        if KINDS.get(self.upper) == "target" and reserved and (word in reserved or not _looks_like_target(word)):
            return None
        return convert(self.upper, word)


def convert(word_kind: str, word: str) -> tuple[object, int] | None:
    """``word`` as a parameter or option value of ``word_kind`` (N, MS, fN, ...): (value, weight), or None."""
    kind = KINDS.get(word_kind, "value")
    if kind == "frame":
        return (int(word[1:]), 1) if _FRAME.fullmatch(word) else None
    if kind != "int":
        return word, 0
    if word_kind == "MS":
        if not _NUMBER.fullmatch(word):
            return None
        number = float(word)
        return (int(number) if number.is_integer() else number), 1
    return (int(word.lstrip("#")), 1) if _WHOLE.fullmatch(word) else None


def _looks_like_target(word: str) -> bool:
    from ..act.targets import parse_target  # the targets module needs the browser layer; load it late
    from ..base.errors import VerdexError

    try:
        return re.match(r"c\d", word) is not None or parse_target(word).kind != "ref"
    except VerdexError:
        return False


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
class Match:
    """The form a line's words fill (its text, as declared) and its values by parameter name."""

    form: str
    values: dict = field(default_factory=dict)


def _fit(params: list[Param], words: list[str], reserved: frozenset) -> tuple[dict, int] | None:
    """Values and weight of ``words`` laid over ``params`` (optional ones filled first, a repeating
    one as long as it can), or None when they do not fit."""
    if not params:
        return ({}, 0) if not words else None
    p, rest = params[0], params[1:]
    most = len(words) if p.variadic else min(1, len(words))
    least = 0 if p.optional else 1
    for take in range(most, least - 1, -1):
        fitted = [p.convert(w, reserved) for w in words[:take]]
        if None in fitted:
            continue
        tail = _fit(rest, words[take:], reserved)
        if tail is None:
            continue
        values, weight = tail
        if take:
            got = [v for v, _ in fitted]
            values = {p.name: got if p.variadic else got[0], **values}
        return values, weight + sum(w for _, w in fitted)
    return None


@dataclass(frozen=True)
class Signature:
    forms: tuple[str, ...] = ("",)
    options: tuple[str, ...] = ()

    def usage(self, name: str) -> str:
        line = " | ".join(f"{name} {form}".strip() for form in self.forms)
        return " ".join([line] + [f"[{o.split(': ')[0]}]" for o in self.options])

    def option_help(self) -> dict[str, tuple[str | None, str]]:
        """Each option's flag -> (its METAVAR or None, what it does as declared, or '')."""
        out = {}
        for o in self.options:
            head, _, text = o.partition(": ")
            words = head.split()
            out[words[0]] = (words[1] if len(words) > 1 else None, text)
        return out

    def _params(self) -> list[list[Param]]:
        return [parse_form(f) for f in self.forms]

    def match(self, words: list[str]) -> Match | None:
        """The form ``words`` fill best (sub-verbs and numbers weigh more than free text; the first
        declared wins a tie), with its converted values; None when no form fits."""
        reserved = frozenset(c for ps in self._params() for p in ps for c in p.literals)
        best: tuple[int, Match] | None = None
        for form, params in zip(self.forms, self._params()):
            fitted = _fit(params, list(words), reserved)
            if fitted is not None and (best is None or fitted[1] > best[0]):
                best = fitted[1], Match(form, fitted[0])
        return best and best[1]

    def misfit(self, words: list[str]) -> str:
        """Why no form fits when one would but for a number (`N must be a whole number, ...`), else ''."""
        reserved = frozenset(c for ps in self._params() for p in ps for c in p.literals)
        for params in self._params():
            if not sum(not p.optional for p in params) <= len(words) <= len(params) or any(p.variadic for p in params):
                continue
            wrong = [(p.upper, w) for p, w in zip(params, words) if p.convert(w, reserved) is None]
            if len(wrong) == 1 and KINDS.get(wrong[0][0] or "") == "int" and wrong[0][1] not in reserved:
                return f"{wrong[0][0]} must be {WANTED.get(wrong[0][0], WANTED['N'])} (got {wrong[0][1]!r}). "
        return ""

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
        if any("script" in p.kinds or ("text" in p.kinds and p.position == 0 and not self.options) for p in params):
            return "line"  # (a TEXT beside options is one word: quote it)
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

    def literals_at(self, position: int) -> tuple[str, ...]:
        """The sub-verbs some form takes at ``position`` (`scroll up|down`, `tab new|close`)."""
        return tuple(dict.fromkeys(c for ps in self._params() for p in ps if p.position == position
                                   for c in p.literals))

    @property
    def flags(self) -> tuple[str, ...]:
        return tuple(o.split()[0].removesuffix(":") for o in self.options)

    @property
    def value_flags(self) -> tuple[str, ...]:
        return tuple(o.split()[0] for o in self.options if len(o.split(": ")[0].split()) > 1)

    def option_value(self, flag: str, word: str):
        """(an option's value, converted when its METAVAR is typed: `--depth N`, `--frame fN`,
        `--level error|warning`), or None."""
        metavar = self.option_help()[flag][0]
        if "|" in metavar:
            return (word, 1) if word in metavar.split("|") else None
        return convert(metavar, word)


def wanted(metavar: str) -> str:
    """What an option's value must be (for its usage error)."""
    return WANTED.get(metavar) or "one of " + ", ".join(metavar.split("|"))
