"""One command registry: it feeds the REPL, `help`, completion and one-shot mode. A line splits like a
shell line, except that `eval` takes the rest verbatim and the TEXT of `type`/`fill` is the rest after
the target (quotes optional)."""

from __future__ import annotations

import difflib
import re
import shlex
from dataclasses import dataclass, field
from typing import Any, Callable

from ..act.fields import MASK
from ..base.errors import UsageError, VerdexError
from ..base.words import scan
from .signature import Signature, wanted


@dataclass
class Result:
    """What a command hands to the renderer (and, as ``data``, to JSON)."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        out = dict(self.data)
        if self.notes or "notes" in out:
            out["notes"] = list(out.get("notes", [])) + [n for n in self.notes if n not in out.get("notes", [])]
        return out


@dataclass
class Command:
    name: str
    handler: Callable[..., Result] | dict[str, Callable[..., Result]]  # one, or one a form (its text)
    usage: str
    help: str
    aliases: tuple[str, ...] = ()
    min_args: int = 0
    max_args: int | None = 0
    rest: str | None = None  # None | "line" (verbatim rest) | "after_first" (target + rest) | "words" (no options)
    flags: tuple[str, ...] = ()
    ref_args: tuple[int, ...] = ()  # positions that take a ref (for completion)
    needs_browser: bool = True
    group: str = "session"  # for `help`: navigation, snapshot, actions, refs, tabs, session (see meta.py)
    value_flags: tuple[str, ...] = ()  # options that take the next word as their value (flags.values)
    # what running it does to the pages: "read" leaves them as they were (the snapshot cache survives);
    # "action" acts on an element (its result carries the changes it made); "navigate" loads a document;
    # "change" may change anything (eval, tabs, contexts, reset-refs): the safe default
    effect: str = "change"
    logged: bool | None = None  # kept in the log behind 'export' (default: actions and navigation)
    signature: Signature | None = None  # the declared forms and options (usage and counts come from it)
    accepts: frozenset | None = None  # roles its target may have (completion offers only those)
    tool: bool = True  # offered to agents as a tool (commands/tools.py); False for the REPL's own

    def __post_init__(self) -> None:
        if self.effect not in EFFECTS:
            raise ValueError(f"command {self.name!r}: unknown effect {self.effect!r}")
        if self.logged is None:
            self.logged = self.effect in ("action", "navigate")


EFFECTS = ("read", "action", "navigate", "change")


class Flags(set):
    """The options of a command line; `values` maps an option that takes a value to that value."""

    def __init__(self, items=(), values: dict[str, str] | None = None):
        super().__init__(items)
        self.values = dict(values or {})


class Args(list):
    """The words of a command line; ``form`` is the declared form they fill and ``values`` its
    parameters by name, converted by kind (see signature.py)."""

    def __init__(self, items=(), form: str = "", values: dict | None = None):
        super().__init__(items)
        self.form = form
        self.values = dict(values or {})


@dataclass
class Parsed:
    command: Command
    args: Args
    flags: set[str]

    @property
    def handler(self) -> Callable[..., Result]:
        h = self.command.handler
        return h[self.args.form] if isinstance(h, dict) else h


class Registry:
    def __init__(self) -> None:
        self._by_name: dict[str, Command] = {}
        self._order: list[Command] = []

    def add(self, cmd: Command) -> None:
        for key in (cmd.name, *cmd.aliases):
            if key in self._by_name:
                raise ValueError(f"duplicate command name {key!r}")
            self._by_name[key] = cmd
        self._order.append(cmd)

    def get(self, name: str) -> Command | None:
        return self._by_name.get(name)

    def commands(self) -> list[Command]:
        return list(self._order)

    def names(self) -> list[str]:
        return sorted(self._by_name)

    def parse(self, line: str) -> Parsed:
        text = line.strip()
        if not text:
            raise UsageError("Empty command. Type 'help'.")
        parts = text.split(None, 1)
        head, tail = parts[0], (parts[1] if len(parts) > 1 else "")
        cmd = self.get(head)
        if cmd is None:
            raise UsageError(f"Unknown command '{head}'.{did_you_mean(head, self.names())} Type 'help'.")
        tail = tail.strip()
        if cmd.rest == "line":
            args = [tail] if tail else []
            flags: set[str] = Flags()
        else:
            args, flags = self._split(cmd, tail)
        count_ok = len(args) >= cmd.min_args and (cmd.max_args is None or len(args) <= cmd.max_args)
        if not count_ok:
            raise UsageError(f"Usage: {cmd.usage}" + _quote_hint(cmd, head, args))
        _check_targets(cmd, args)
        sig = cmd.signature
        padded = list(args) + [""] * max(0, sig.min_args - len(args))  # a TEXT that may be left empty
        fit = sig.match(padded)
        if fit is None:
            raise UsageError(f"{sig.misfit(args)}Usage: {cmd.usage}")
        return Parsed(cmd, Args(args, fit.form, fit.values), flags)

    def _split(self, cmd: Command, tail: str) -> tuple[list[str], set[str]]:
        try:
            if cmd.rest == "after_first":
                if not tail:
                    return [], Flags()
                if tail.startswith("role="):  # role=ROLE[name="..."] stays one word, quotes and all
                    end = _role_word_end(tail, 0)
                    first, remainder = tail[:end], tail[end:]
                    remainder = remainder[1:] if remainder[:1].isspace() else remainder
                    return ([first, _unquote(remainder)] if remainder else [first]), Flags()
                first_raw, remainder = _first_word(tail)
                first = shlex.split(first_raw, posix=True)[0] if first_raw else ""
                return ([first, _unquote(remainder)] if remainder else [first]), Flags()
            words = split_words(tail)
        except ValueError as exc:
            raise UsageError(f"Cannot parse the line ({exc}). Usage: {cmd.usage}") from exc
        args, flags = [], Flags()
        it = iter(words)
        for w in it:
            if w.startswith("--") and len(w) > 2 and cmd.rest != "words":  # "words": values only, no options
                if w not in cmd.flags:
                    raise UsageError(f"Unknown option '{w}'.{did_you_mean(w, cmd.flags)} Usage: {cmd.usage}")
                flags.add(w)
                if w in cmd.value_flags:
                    value = next(it, None)
                    if value is None:
                        raise UsageError(f"Option {w} needs a value. Usage: {cmd.usage}")
                    typed = cmd.signature.option_value(w, value)
                    if typed is None:
                        what = wanted(cmd.signature.option_help()[w][0])
                        raise UsageError(f"{w} must be {what} (got {value!r}). Usage: {cmd.usage}")
                    flags.values[w] = typed[0]
            else:
                args.append(w)
        return args, flags


def did_you_mean(word: str, names) -> str:
    """A near miss (`clik`, `--depht`) or the start of a name (`snap`, `cont`: up to three names)."""
    word = word.lower()
    names = sorted(names)
    starts = [n for n in names if n.startswith(word)] if len(word.lstrip("-")) >= 2 else []
    close = starts if 0 < len(starts) <= 3 else difflib.get_close_matches(word, names, n=1, cutoff=0.75)
    if not close:
        return ""
    quoted = [f"'{n}'" for n in close]
    return " Did you mean " + (quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]) + "?"


TARGET_PREFIXES = ("testid=", "label=", "text=", "id=", "role=")
_LOOKS_LIKE_TARGET = re.compile(r"^(?:testid=|label=|text=|id=|role=|[A-Za-z]+:)")


def _quote_hint(cmd: Command, head: str, args: list[str]) -> str:
    """For too many words where a target starts (`click button:Delete account`): how to quote it."""
    extra = len(args) - cmd.max_args if cmd.max_args is not None else 0
    for i in cmd.ref_args:
        if extra > 0 and i < len(args) and _LOOKS_LIKE_TARGET.match(args[i]):
            joined = " ".join(args[i:i + extra + 1])
            quoted = f'"{joined}"' if '"' not in joined and "\\" not in joined else shlex.quote(joined)
            line = " ".join([head, *args[:i], quoted, *args[i + extra + 1:]])
            return f". Quote a target with spaces: {line}"
    return ""


def _check_targets(cmd: Command, args: list[str]) -> None:
    """A malformed target by meaning is a usage error before anything runs (`verdex run` exits 2)."""
    from ..act.targets import parse_target  # the targets module needs the browser layer; load it late

    for i in cmd.ref_args:
        word = args[i] if i < len(args) else ""
        if word.startswith(TARGET_PREFIXES) or " >> " in word:
            try:
                parse_target(word)
            except UsageError as exc:
                raise UsageError(f"{exc.message} Usage: {cmd.usage}") from None
            except VerdexError:
                pass  # a bad ref inside it is reported when the command runs, like any ref


def split_words(tail: str) -> list[str]:
    """Shell words, except that a word starting with `role=` keeps its [name="..."] part verbatim."""
    if "role=" not in tail:
        return shlex.split(tail, posix=True)
    words, i, n = [], 0, len(tail)
    while i < n:
        if tail[i].isspace():
            i += 1
            continue
        if tail.startswith("role=", i):
            end = _role_word_end(tail, i)
            words.append(tail[i:end])
        else:
            _, rest = _first_word(tail[i:])
            end = n - len(rest)
            words += shlex.split(tail[i:end], posix=True)
        i = end
    return words


def _role_word_end(text: str, i: int) -> int:
    """End of a role=ROLE[...] word: whitespace inside brackets or quotes does not end it."""
    return scan(text, i, lambda t, j: t[j].isspace())


def is_comment(line: str) -> bool:
    """A line starting with `#` is a comment (REPL and scripts alike)."""
    return line.lstrip().startswith("#")


def _first_word(tail: str) -> tuple[str, str]:
    """The first shell word of ``tail`` as written (it may be quoted) and the text after it."""
    i, n = 0, len(tail)
    quote = None
    while i < n:
        ch = tail[i]
        if quote:
            if ch == "\\" and quote == '"' and i + 1 < n:
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "\\" and i + 1 < n:
            i += 2
            continue
        elif ch.isspace():
            break
        i += 1
    rest = tail[i:]
    return tail[:i].strip(), (rest[1:] if rest[:1].isspace() else rest)


def _unquote(text: str) -> str:
    """Strip one pair of surrounding quotes, honouring escapes inside them."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        try:
            words = shlex.split(text, posix=True)
        except ValueError:
            return text
        if len(words) == 1:
            return words[0]
    return text


REGISTRY = Registry()


def command(name: str, *, params: str | tuple[str, ...] = "", **declared):
    """Decorator registering a handler ``(ctx, args, flags) -> Result``: its form(s) and the rest of
    its declaration as :func:`forms` takes them."""

    def wrap(fn: Callable[..., Result]) -> Callable[..., Result]:
        forms(name, params if isinstance(params, tuple) else (params,), fn, **declared)
        return fn

    return wrap


def forms(name: str, params: tuple[str, ...] | dict[str, Callable[..., Result]], handler=None, *,
          options: tuple[str, ...] = (), min_args: int | None = None, **declared) -> None:
    """Register a command: ``params`` (its forms; as a dict, each routed to its own handler),
    ``options`` in the grammar of signature.py (``min_args``: where a parameter may be left empty) and
    the rest of its declaration as :class:`Command` takes it (help, group, effect, ...)."""
    sig = Signature(tuple(params), options)
    REGISTRY.add(Command(name, dict(params) if handler is None else handler, sig.usage(name),
                         min_args=sig.min_args if min_args is None else min_args, max_args=sig.max_args,
                         rest=sig.rest, flags=sig.flags, ref_args=sig.positions("target"),
                         value_flags=sig.value_flags, signature=sig, **declared))


def usage_of(name: str) -> str:
    """A registered command's generated usage line (for a handler's own usage errors)."""
    return REGISTRY.get(name).usage


def redact_line(line: str) -> str:
    """`fill REF secret` -> `fill REF ••••••`: the command and its target kept, the text masked."""
    head, _, tail = line.strip().partition(" ")
    target, _ = _first_word(tail.strip())
    return f"{head} {target} {MASK}"
