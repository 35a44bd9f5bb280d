"""Property-based tests: any string given to a parser yields a result or a clean VerdexError
(one line, a known kind), never an escaping exception."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from verdex_cli.commands import REGISTRY
from verdex_cli.base.errors import ErrorKind, VerdexError
from verdex_cli.act.keys import parse_key
from verdex_cli.refs.store import parse_ref
from verdex_cli.base.sanitize import clean, json_line

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Text that looks like command lines: command names, flags, quotes, refs, escapes and controls.
WORDS = st.sampled_from(REGISTRY.names() + ["--all-refs", "--fresh", "--max-chars", "--bogus", "c0p0f0e1", "'",
                                            '"', "\\", "a b", "Control+A", "+", "Shift+", "\x1b[2J", "\n", "\t",
                                            "new", "close", "0", "-1", "1e3", "\x00", "é", "testid=x"])
LINES = st.one_of(st.text(), st.lists(st.one_of(WORDS, st.text(max_size=8)), max_size=6).map(" ".join))


def parsed_or_clean_error(parse, text: str, *kinds: str):
    """``parse(text)``, or None when it raised a clean VerdexError: one of ``kinds``, a message of one
    line as printed, that a JSON line can carry."""
    try:
        return parse(text)
    except VerdexError as exc:
        assert exc.kind in kinds, exc.kind
        assert isinstance(exc.message, str) and exc.message
        assert "\n" not in clean(exc.message)
        json_line({"kind": exc.kind, "message": exc.message})
        return None


@SETTINGS
@given(LINES)
@example("press Shift+")
@example("type c0p0f0e1 'unclosed")
@example('click "unclosed')
@example("eval")
@example("snapshot --max-chars")
def test_registry_parse_never_escapes(line):
    parsed = parsed_or_clean_error(REGISTRY.parse, line, ErrorKind.USAGE)
    if parsed is None:
        return
    cmd = parsed.command
    assert len(parsed.args) >= cmd.min_args
    assert cmd.max_args is None or len(parsed.args) <= cmd.max_args
    assert parsed.flags <= set(cmd.flags)


REFISH = st.one_of(
    st.text(),
    st.from_regex(r"\Ac[0-9]{1,4}p[0-9]{1,4}f[0-9]{1,4}e[0-9]{1,6}\Z"),
    st.builds(lambda a, b: a + b, st.from_regex(r"\A\s*c0p0f0e[0-9]{0,3}\Z"), st.text(max_size=3)),
)


@SETTINGS
@given(REFISH)
@example("c00p0f0e1")
@example("c0p0f0e0")
@example("c0p0f0e1\n")
@example("ｃ0p0f0e1")
@example("c٣p0f0e1")  # a non-ASCII digit
def test_parse_ref_never_escapes(text):
    ref = parsed_or_clean_error(parse_ref, text, ErrorKind.INVALID_REF)
    if ref is None:
        return
    assert str(ref) == text.strip()  # only canonical refs parse, and they round-trip
    assert ref.n >= 1


KEYISH = st.one_of(
    st.text(),
    st.lists(st.sampled_from(["Shift", "Control", "Alt", "Meta", "ctrl", "cmd", "", "+", "a", "Enter", "F5",
                              "ß", "ǅ", "٣", "\x00", "Tab", "esc"]), max_size=4).map("+".join),
)


@SETTINGS
@given(KEYISH)
@example("Shift+")
@example("Control++")
@example("++")
@example("ß")
@example("Shift+ß")
@example("ﬀ")
def test_parse_key_never_escapes(spec):
    key = parsed_or_clean_error(parse_key, spec, ErrorKind.USAGE)
    if key is None:
        return
    events = key.events()
    assert events and all(isinstance(e, dict) and e.get("type") in ("keyDown", "keyUp", "rawKeyDown", "char")
                          for e in events)


@pytest.mark.parametrize("spec", ["Shift+", "Control+", "Alt+Shift+", "a+"])
def test_a_modifier_without_a_key_is_a_usage_error(spec):
    with pytest.raises(VerdexError) as info:
        parse_key(spec)
    assert info.value.kind == ErrorKind.USAGE


def test_control_plus_plus_is_the_plus_key():
    key = parse_key("Control++")
    assert key.key == "+" and key.modifiers == 2


@SETTINGS
@given(st.text())
def test_clean_output_is_always_printable_and_one_line(text):
    out = clean(text)
    assert "\n" not in out and "\r" not in out and "\x1b" not in out
    assert all(ch == "\t" or not (ord(ch) < 0x20 or 0x7f <= ord(ch) <= 0x9f) for ch in out)
    assert clean(out) == out
