"""The one URL resolver (command line, open, tab new, context new): pure rules, fuzzed; and malformed
addresses as usage errors through every command that takes one."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verdex_cli.browser.urls import normalize_url
from verdex_cli.base.errors import ErrorKind, NavigationFailed, UsageError, VerdexError

HTTP = "http://127.0.0.1:8000/app/page.html"


@pytest.mark.parametrize("raw,base,want", [
    ("https://example.org/x", None, "https://example.org/x"),
    ("about:blank", HTTP, "about:blank"),
    ("data:text/html,hi", None, "data:text/html,hi"),
    ("localhost:8000", None, "http://localhost:8000"),
    ("localhost:8000/a/b?q=1", HTTP, "http://localhost:8000/a/b?q=1"),
    ("127.0.0.1:9/x", None, "http://127.0.0.1:9/x"),
    ("localhost", None, "http://localhost"),
    ("localhost/app", None, "http://localhost/app"),
    ("example.com", None, "http://example.com"),
    ("example.com/a.html", HTTP, "http://example.com/a.html"),
    ("other.html", HTTP, "http://127.0.0.1:8000/app/other.html"),
    ("other.html?rows=5", HTTP, "http://127.0.0.1:8000/app/other.html?rows=5"),  # a file with a query, no host
    ("other.html#top", HTTP, "http://127.0.0.1:8000/app/other.html#top"),
    ("example.com?q=1", None, "http://example.com?q=1"),
    ("sub/other.html", HTTP, "http://127.0.0.1:8000/app/sub/other.html"),
    ("../up.html", HTTP, "http://127.0.0.1:8000/up.html"),
    ("?page=2", HTTP, "http://127.0.0.1:8000/app/page.html?page=2"),
    ("#part", HTTP, "http://127.0.0.1:8000/app/page.html#part"),
    ("/root.html", HTTP, "http://127.0.0.1:8000/root.html"),
])
def test_resolves(raw, base, want):
    assert normalize_url(raw, base) == want


def test_relative_paths_use_the_working_directory_without_an_http_page(tmp_path, monkeypatch):
    (tmp_path / "page.html").write_text("<p>x</p>")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.html").write_text("<p>b</p>")
    monkeypatch.chdir(tmp_path)
    assert normalize_url("page.html") == (tmp_path / "page.html").as_uri()
    assert normalize_url("./sub/b.html", base="file:///elsewhere/x.html") == (tmp_path / "sub" / "b.html").as_uri()
    assert normalize_url("sub/b.html", base="about:blank") == (tmp_path / "sub" / "b.html").as_uri()
    assert normalize_url(str(tmp_path / "page.html"), base=HTTP) == (tmp_path / "page.html").as_uri()


def test_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    with pytest.raises(NavigationFailed, match=r"^folder is a directory, not a page\.$"):
        normalize_url("folder")
    with pytest.raises(NavigationFailed, match="is a directory"):
        normalize_url(str(tmp_path))
    with pytest.raises(NavigationFailed, match=r"^No such file: missing\.html$"):
        normalize_url("missing.html")
    with pytest.raises(NavigationFailed, match="No such file"):
        normalize_url("/definitely/not/here.html")
    with pytest.raises(UsageError):
        normalize_url("   ")
    assert Path(tmp_path).is_dir()


MALFORMED = ["http://[::1", "http://[zz]/", "http://a:99999/", "localhost:70000",
             "http://", "https:///path", "~no-such-user-xyz/page.html", "x" * 5000]


@pytest.mark.parametrize("raw", MALFORMED)
def test_malformed_addresses_are_usage_errors(raw, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match=r"^Not a valid URL or path: '") as err:
        normalize_url(raw)
    assert len(err.value.message) < 320  # one line, the address cut


PIECES = st.lists(st.sampled_from(["[", "]", ":", "::1", "zz", "/", "%", "%zz", "@", "?", "#", "99999", "80", "a",
                                   ".", "~", "\x00", " ", "\t", "\\", "-", "é", "x" * 300]), max_size=10).map("".join)
PREFIXES = st.sampled_from(["", "http://", "https://", "file://", "about:", "data:", "view-source:", "ws://",
                            "localhost:", "[", "~", "/", "./", "../", "?", "#", "a.b/", "127.0.0.1:"])


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.one_of(st.text(max_size=60), st.builds(str.__add__, PREFIXES, PIECES)),
       base=st.sampled_from([None, HTTP, "about:blank", "file:///tmp/x.html", "http://[::1]:8/a/"]))
def test_the_resolver_never_raises_anything_but_a_verdex_error(raw, base, tmp_path):
    try:
        url = normalize_url(raw, base)
    except VerdexError as exc:
        assert exc.kind in (ErrorKind.USAGE, ErrorKind.NAVIGATION_FAILED)
        assert "\n" not in exc.message or "\n" in raw
        return
    assert isinstance(url, str) and url


@pytest.mark.parametrize("line", ["open http://[zz]/", "open http://[::1", "goto http://a:99999/",
                                  "tab new http://[::1", "context new http://[zz]/"])
def test_commands_refuse_a_malformed_address_as_usage(driver, line):
    tabs_before = driver.ok("tabs").data["tabs"]
    out = driver.fail(line, ErrorKind.USAGE)
    assert out.message.startswith("Not a valid URL or path: '")
    assert driver.ok("tabs").data["tabs"] == tabs_before  # nothing was opened
    assert len(driver.ok("contexts").data["contexts"]) == 1
