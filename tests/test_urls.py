"""The one URL resolver (command line, open, tab new): pure rules, no browser."""

from __future__ import annotations

from pathlib import Path

import pytest

from verdex_cli.browser.urls import normalize_url
from verdex_cli.errors import NavigationFailed, UsageError

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
