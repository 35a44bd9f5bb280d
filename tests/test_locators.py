"""Stable locators: unique, preferred testid > label > role:name > role:name within a landmark or container."""

from __future__ import annotations

from conftest import refs_named


def _check_unique(driver, ref: str, locator: str):
    """The locator resolves, alone, to the same element (a fresh resolution on the live page)."""
    out = driver.ok(f"inspect {_word(locator)}").data
    assert out["ref"] == ref, (locator, out["ref"], ref)


def _word(locator: str) -> str:
    return '"' + locator.replace("\\", "\\\\").replace('"', '\\"') + '"'


def test_preference_order_on_the_form(form):
    snap = form.ok("snapshot").data
    by_name = {(i["role"], i["name"]): r for r, i in snap["refs"].items()}
    cases = {
        ("button", "Submit"): ("testid=submit-form", 'page.get_by_test_id("submit-form")'),  # testid beats the rest
        ("textbox", "Email"): ("label=Email", 'page.get_by_label("Email", exact=True)'),  # label beats role:name
        ("button", "Bold"): ("button:Bold", 'page.get_by_role("button", name="Bold", exact=True)'),
    }
    for key, (locator, playwright) in cases.items():
        ref = by_name[key]
        out = form.ok(f"inspect {ref}").data
        assert (out["locator"], out["playwright"]) == (locator, playwright), key
        _check_unique(form, ref, locator)


def test_repeated_buttons_get_a_scoped_locator(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    snap = driver.ok("snapshot").data
    adds = refs_named(snap, "Add to cart")
    locators = set()
    for ref in adds:
        out = driver.ok(f"inspect {ref}").data
        assert out["locator"].endswith(" >> button:Add to cart") and out["locator"].startswith("article:")
        assert out["playwright"].startswith('page.get_by_role("article", name=')
        assert out["playwright"].endswith('.get_by_role("button", name="Add to cart", exact=True)')
        _check_unique(driver, ref, out["locator"])
        locators.add(out["locator"])
    assert len(locators) == 4
    save = next(r for r, i in snap["refs"].items() if i["name"] == "Save")
    assert driver.ok(f"inspect {save}").data["locator"] == "button:Save"


def test_locators_inside_frames_name_the_frame_for_playwright(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    out = driver.ok('inspect "button:Leaf button"').data
    assert out["locator"] == "button:Leaf button"
    assert out["playwright"] == ('page.frame_locator("#cross-frame").frame_locator("#nested-frame")'
                                 '.get_by_role("button", name="Leaf button", exact=True)')
    twice = driver.fail('inspect "button:Frame button"', "ambiguous")
    ref = twice.message.split('button "Frame button" ')[1].split(",")[0]
    out = driver.ok(f"inspect {ref}").data  # the same name in two frames: scoped to its frame by the iframe's name
    assert out["locator"] in ("iframe:Same-origin frame >> button:Frame button",
                              "iframe:Cross-origin frame >> button:Frame button")
    _check_unique(driver, ref, out["locator"])
    assert out["playwright"].startswith('page.frame_locator("#') and "iframe" not in out["playwright"].split(")")[-2]
    assert out["playwright"].endswith('.get_by_role("button", name="Frame button", exact=True)')


def test_no_locator_when_nothing_is_unique(driver, demo):
    driver.ok("open " + demo.url("blank.html"))
    driver.ok('eval document.body.innerHTML = "<button>Go</button><button>Go</button>"')
    snap = driver.ok("snapshot").data
    ref = next(iter(snap["refs"]))
    out = driver.ok(f"inspect {ref}").data
    assert out["locator"] is None and out["playwright"] is None


def test_a_locator_always_survives_being_written_out(driver, demo):
    driver.ok("open " + demo.url("blank.html"))
    driver.ok("""eval document.body.innerHTML = '<button>a >> b</button><button>say "hi"</button>'""")
    snap = driver.ok("snapshot").data
    for ref in snap["refs"]:
        out = driver.ok(f"inspect {ref}").data
        if out["locator"] is not None:
            _check_unique(driver, ref, out["locator"])
    by_name = {i["name"]: r for r, i in snap["refs"].items()}
    assert driver.ok(f"inspect {by_name['a >> b']}").data["locator"] is None  # would read as a scope


def test_a_plain_container_is_located_by_its_id_unless_the_id_looks_generated(driver, demo):
    """Issue 32, finding 6: `inspect` on `<div id="maincontent">` said "no unique locator" and offered
    Playwright the container's whole text run together ("Hello thereGo")."""
    driver.ok("open " + demo.url("blank.html"))
    driver.ok("eval document.body.innerHTML = '<div id=\"maincontent\"><p>Hello there</p><button>Go</button></div>"
              "<div id=\"ember123\"><p>Generated</p><button>Two</button></div><p id=\"again\">A</p><p id=\"again\">B</p>'")
    out = driver.ok("inspect 'text=Hello there Go'").data  # the container's whole text names it
    assert (out["locator"], out["playwright"]) == ("id=maincontent", 'page.locator("#maincontent")')
    _check_unique(driver, out["ref"], out["locator"])
    assert driver.ok("inspect 'text=Generated Two'").data["locator"] is None  # a framework's id changes
    assert driver.ok("inspect text=A").data["locator"] is None  # its id is not unique in its document
    driver.fail("inspect id=again", "ambiguous")
