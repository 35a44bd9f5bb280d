"""The target parser, the registry's handling of target words, completion and grouped help (no browser)."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from test_parsers_property import parsed_or_clean_error
from verdex_cli.commands import REGISTRY
from verdex_cli.commands.context import Workspace
from verdex_cli.commands.registry import is_comment
from verdex_cli.base.errors import ErrorKind, VerdexError
from verdex_cli.ui.repl.completer import VerdexCompleter
from verdex_cli.commands.runner import execute
from verdex_cli.act.targets import Target, parse_target, quote_word

PIECES = st.sampled_from(["role=", "button", ":", "[", "]", "name=", '"', "'", "\\", " ", ">>", "testid=", "label=",
                          "text=", "ref=", "c0p0f0e1", "Add to cart", "article", "é", "\x1b", "\n", "=", "foo"])


@given(st.one_of(st.text(max_size=60), st.lists(PIECES, max_size=12).map("".join)))
@example('role=button[name="Count hits"]')
@example('role=button[name="a \\"b\\""]')
@example("[ref=c0p0f0e1]")
@example(">>")
def test_any_string_is_a_target_or_a_clean_error(text):
    t = parsed_or_clean_error(parse_target, text, ErrorKind.USAGE, ErrorKind.INVALID_REF)
    if t is None:
        return
    assert isinstance(t, Target) and t.kind in ("ref", "testid", "label", "text", "role")
    if t.kind != "ref":
        again = parse_target(str(t))  # the canonical text parses back to the same target
        assert again == t or "'" in str(t) or '"' in str(t) or ">>" in str(t) or "[" in str(t)


@pytest.mark.parametrize("text, want", [
    ("testid=save-btn", Target("testid", "save-btn")),
    ('testid="a  b"', Target("testid", "a b")),
    ("label='Email'", Target("label", "Email")),
    ("text=Add to cart", Target("text", "Add to cart")),
    ('role=button[name="Count hits"]', Target("role", role="button", name="Count hits")),
    ("role=button[name=Count hits]", Target("role", role="button", name="Count hits")),
    ("role=Button", Target("role", role="button")),
    ("button:Submit", Target("role", role="button", name="Submit")),
    ('"button:Add to cart"', Target("role", role="button", name="Add to cart")),
    ('button:"Add to cart"', Target("role", role="button", name="Add to cart")),
    ("[ref=c0p0f0e1]", Target("ref", "c0p0f0e1")),
    ("ref=c0p0f0e1", Target("ref", "c0p0f0e1")),
    ("c1p2f3e4", Target("ref", "c1p2f3e4")),
    ("article:Coffee mug >> button:Add to cart",
     Target("role", role="button", name="Add to cart", scope=Target("role", role="article", name="Coffee mug"))),
])
def test_target_forms(text, want):
    assert parse_target(text) == want


@pytest.mark.parametrize("text, kind", [
    ("", ErrorKind.USAGE), ("foo:bar", ErrorKind.USAGE), ("text=", ErrorKind.USAGE), ("x", ErrorKind.INVALID_REF),
    ('role=button[name="open', ErrorKind.USAGE), ("role=button[label=x]", ErrorKind.USAGE),
    ("c0p0f0e1 >> button:x", ErrorKind.USAGE), ("[ref=nope]", ErrorKind.INVALID_REF),
])
def test_bad_targets(text, kind):
    with pytest.raises(VerdexError) as info:
        parse_target(text)
    assert info.value.kind == kind


def test_quote_word_round_trips_through_the_registry():
    for target in ["button:Save", "article:Coffee mug >> button:Add to cart", 'button:say "hi"', "text=a\\b"]:
        parsed = REGISTRY.parse("click " + quote_word(target))
        assert parsed.args == [target]


@pytest.mark.parametrize("line, args", [
    ('click role=button[name="Count hits"]', ['role=button[name="Count hits"]']),
    ("click role=button[name='It is']", ["role=button[name='It is']"]),
    ('fill role=textbox[name="E mail"] hello world', ['role=textbox[name="E mail"]', "hello world"]),
    ('select role=combobox[name="Country"] France "Costa Rica"', ['role=combobox[name="Country"]', "France",
                                                                   "Costa Rica"]),
    ('click "button:Add to cart"', ["button:Add to cart"]),
    ("press role=textbox[name=\"Search field\"] Enter", ['role=textbox[name="Search field"]', "Enter"]),
])
def test_registry_keeps_a_role_word_whole(line, args):
    assert REGISTRY.parse(line).args == args


def test_did_you_mean_for_a_mistyped_command():
    for typo, meant in [("clik", "click"), ("snapshto", "snapshot"), ("inspekt", "inspect")]:
        with pytest.raises(VerdexError) as info:
            REGISTRY.parse(typo + " x")
        assert info.value.kind == "usage" and f"Did you mean '{meant}'?" in info.value.message
    with pytest.raises(VerdexError) as info:
        REGISTRY.parse("zzzzzz")
    assert info.value.message == "Unknown command 'zzzzzz'. Type 'help'."


def test_comments():
    assert is_comment("# a note") and is_comment("   #x") and not is_comment("click c0p0f0e1")


def test_help_is_grouped_in_the_stated_order():
    ctx = Workspace(lambda: (_ for _ in ()).throw(AssertionError("no browser")))
    out = execute(ctx, "help")
    assert out.ok
    groups = out.result.data["groups"]
    assert groups == ["navigation", "snapshot", "actions", "refs", "tabs", "session"]
    order = [c["group"] for c in out.result.data["commands"]]
    assert order == sorted(order, key=groups.index)
    by = {c["name"]: c["group"] for c in out.result.data["commands"]}
    assert (by["open"], by["snapshot"], by["click"], by["inspect"], by["tab"], by["export"]) == (
        "navigation", "snapshot", "actions", "refs", "tabs", "session")
    assert all(c["help"].endswith(".") for c in out.result.data["commands"])


ELEMENTS = [("c0p0f0e1", "button", "Save"), ("c0p0f0e2", "button", "Add to cart"), ("c0p0f0e3", "button", "Add to cart"),
            ("c0p0f0e4", "checkbox", "Gift wrap"), ("c0p0f0e5", "combobox", "Country"), ("c0p0f0e6", "radio", "Express"),
            ("c0p0f0e7", "textbox", "Email")]


def complete(text: str):
    c = VerdexCompleter(REGISTRY, lambda: [(r, f'{a} "{b}"') for r, a, b in ELEMENTS], lambda: ELEMENTS)
    return [(x.text, x.display_meta_text) for x in c.get_completions(Document(text, len(text)),
                                                                      CompleteEvent(completion_requested=True))]


def test_names_complete_to_targets_with_their_ref():
    assert complete("click Sav") == [("button:Save", "c0p0f0e1"), ("c0p0f0e1", 'button "Save"')]
    assert complete('click "button:Sa') == [("button:Save", "c0p0f0e1"), ("c0p0f0e1", 'button "Save"')]
    # the same name twice would be ambiguous: only the refs are offered
    assert complete("click add") == [("c0p0f0e2", 'button "Add to cart"'), ("c0p0f0e3", 'button "Add to cart"')]
    assert ('"checkbox:Gift wrap"', "c0p0f0e4") in complete("check gift")


def test_refs_are_filtered_by_what_the_command_accepts():
    assert {t for t, _ in complete("select ")} == {"c0p0f0e5"}
    assert {t for t, _ in complete("check ")} == {"c0p0f0e4", "c0p0f0e6"}
    assert {t for t, _ in complete("fill ")} == {"c0p0f0e5", "c0p0f0e7"}
    assert len(complete("click ")) == len(ELEMENTS)


def test_paths_complete_for_open_screenshot_upload_export(tmp_path, monkeypatch):
    (tmp_path / "page-one.html").write_text("x")
    (tmp_path / "shot.png").write_text("x")
    monkeypatch.chdir(tmp_path)
    for line in ("open page-", "export page-", "screenshot page-", "upload c0p0f0e1 page-"):
        assert [t for t, _ in complete(line)] == ["one.html"], line
    assert complete("click page-") == []


@given(st.sampled_from(["click", "fill", "select", "press", "inspect", "siblings", "snapshot --within"]),
       st.one_of(st.text(max_size=40), st.lists(PIECES, max_size=10).map("".join)))
@example("fill", 'role=textbox[name="a b"] rest of line')
@example("click", "role=button[name='unclosed")
def test_any_command_line_with_a_target_parses_or_is_a_usage_error(cmd, tail):
    parsed = parsed_or_clean_error(REGISTRY.parse, f"{cmd} {tail}", ErrorKind.USAGE)
    if parsed is None:
        return
    assert parsed.command.name == cmd.split()[0]


def test_a_malformed_target_is_a_usage_error_before_a_browser_starts():
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root), VERDEX_CHROME="/nonexistent/chrome")  # no browser could start
    proc = subprocess.run([sys.executable, "-m", "verdex_cli", "run", "demo_pages/blank.html", "eval 1",
                           "click role=buton[name=x]", "--json"], cwd=root, env=env, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    (line,) = [json.loads(x) for x in proc.stdout.splitlines()]
    assert line["error"]["kind"] == "usage" and "Unknown role 'buton'" in line["error"]["message"]
    assert line["command"] == "click role=buton[name=x]"


def test_snapshot_within_completes_targets():
    assert ("button:Save", "c0p0f0e1") in complete("snapshot --within Sav")
    assert len(complete("snapshot --within ")) == len(ELEMENTS)
