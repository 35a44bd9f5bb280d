"""Targets by meaning against real Chromium: every form, ambiguity, no match, frames, actionability."""

from __future__ import annotations

import re

from conftest import Driver

REF = re.compile(r"c0p0f(\d+)e(\d+)")


def test_role_name_forms_click_the_named_button_without_a_snapshot(shop):
    for target in ("button:Save", '"button:Save"', 'role=button[name="Save"]', "role=button[name=Save]",
                   "'role=button[name=\"Save\"]'"):
        shop.ok('eval document.getElementById("save").textContent = "Save"')
        out = shop.ok(f"click {target}").data
        assert (out["role"], out["name"], out["action"]) == ("button", "Save", "click"), target
        assert shop.js('document.getElementById("save").textContent') != "Save", target  # it reacted


def test_quoted_role_name_with_spaces_and_unquoted_role_equals(shop):
    out = shop.ok('click "article:Notebook >> button:Add to cart"').data
    assert out["name"] == "Add to cart"
    assert shop.js('document.getElementById("add-notebook").textContent') == "Added"
    assert shop.js('document.getElementById("add-mug").textContent') == "Add to cart"
    out = shop.ok('click role=button[name="Re-render me"]').data
    assert out["name"] == "Re-render me"
    assert shop.js('document.getElementById("rerender-count").textContent') == "Re-rendered 1 time"


def test_text_and_testid_targets(shop):
    out = shop.ok("click text=Save").data
    assert (out["role"], out["name"]) == ("button", "Save")  # the text's control, not the text node
    shop.ok('click "article:Desk lamp >> button:Add to cart"')
    cart = shop.ok("text testid=cart").data
    assert "Desk lamp" in cart["text"] and cart["role"] == "region"


def test_label_targets_fill_select_check_on_the_form(form):
    assert form.ok("fill label=Email ada@example.com").data["value"] == "ada@example.com"
    assert form.js('document.getElementById("email").value') == "ada@example.com"
    assert form.ok("select label=Country France").data["value"] == "fr"
    assert form.ok("check label=Subscribe").data["checked"] is True
    assert form.js('document.getElementById("subscribe").checked') is True
    assert form.ok('fill "textbox:Name" Ada Lovelace').data["value"] == "Ada Lovelace"
    assert form.ok("fill role=textbox[name=\"Comments\"] two words").data["value"] == "two words"
    out = form.ok("fill label=Password s3cret").data
    assert out["masked"] is True and "s3cret" not in str(out)
    out = form.ok("click testid=submit-form").data
    assert out["name"] == "Submit"


def test_case_insensitive_substring_when_unique_and_exact_wins(shop):
    out = shop.ok("click button:save").data  # case differs: equal ignoring case
    assert out["name"] == "Save"
    out = shop.ok("click button:re-render").data  # a unique substring
    assert out["name"] == "Re-render me"
    # exact wins over substrings: "Cart" is the region's exact name; "Add to cart" only contains it
    assert shop.ok("text region:Cart").data["name"] == "Cart"
    shop.ok('eval document.getElementById("save").textContent = "Add"')
    out = shop.ok("click button:Add").data  # exact "Add", not one of the four "Add to cart"
    assert out["name"] == "Add" and shop.ok(f"inspect {out['ref']}").data["attributes"]["id"] == "save"


def test_ambiguous_lists_every_candidate_with_a_usable_ref(shop):
    out = shop.fail('click "button:Add to cart"', "ambiguous")
    refs = REF.findall(out.message)
    assert len(refs) == 4 and "matches 4 elements" in out.message
    assert out.message.count('button "Add to cart"') == 4
    third = f"c0p0f{refs[2][0]}e{refs[2][1]}"
    shop.ok(f"click {third}")  # issued in the page and in the store: usable at once
    assert shop.js('document.getElementById("add-lamp").textContent') == "Added"
    assert shop.js('document.getElementById("add-mug").textContent') == "Add to cart"
    assert shop.ok(f"inspect {third}").data["name"] in ("Add to cart", "Added")


def test_no_match_says_what_was_searched(shop):
    out = shop.fail("click button:Nonexistent", "no_match")
    assert "button:Nonexistent" in out.message and 'role button named "Nonexistent"' in out.message
    out = shop.fail("click testid=nope", "no_match")
    assert 'test id "nope"' in out.message
    shop.fail("click 'label=Nothing here'", "no_match")
    shop.fail('click "text=no such text anywhere"', "no_match")


def test_bad_targets_are_clean_errors(shop):
    assert shop.fail("click foo:bar", "usage").message.startswith("Unknown role 'foo'")
    shop.fail("click text=", "usage")
    shop.fail("click x", "invalid_ref")
    shop.fail("click 'role=button[name=\"unclosed]'", "usage")


def test_pasted_ref_forms(shop):
    snap = shop.ok("snapshot").data
    save = next(r for r, i in snap["refs"].items() if i["name"] == "Save")
    assert shop.ok(f"click [ref={save}]").data["ref"] == save
    assert shop.ok(f"inspect ref={save}").data["ref"] == save


def test_targets_get_the_same_actionability_checks(chrome_http, demo):
    d = Driver(chrome_http, timeout=1.0)
    try:
        d.ok("open " + demo.url("shop.html"))
        out = d.fail("click button:Checkout", "not_actionable")
        assert "disabled" in out.message and 'button "Checkout"' in out.message
        d.ok('eval document.getElementById("save").style.visibility = "hidden"')
        out = d.fail("click button:Save", "not_actionable")  # found among hidden ones, refused as hidden
        assert "hidden" in out.message
    finally:
        d.close()


def test_targets_work_on_every_action_command(form):
    form.ok("focus label=Name")
    form.ok("type label=Name abc")
    assert form.js('document.getElementById("name").value') == "abc"
    assert form.ok("press label=Name End").data
    form.ok("hover testid=submit-form")
    form.ok("scroll testid=submit-form")
    form.ok("dblclick button:Bold")
    form.ok("uncheck label=Cheese")
    assert form.js('document.getElementById("topping-cheese").checked') is False


def test_cross_origin_and_nested_frames(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    out = driver.ok('click "button:Leaf button"').data  # cross-origin frame at depth 2
    assert out["name"] == "Leaf button" and not out["ref"].startswith("c0p0f0")
    found = driver.ok('text "text=Leaf clicked"').data
    assert found["text"].strip() == "Leaf clicked"
    out = driver.fail('click "button:Frame button"', "ambiguous")  # same- and cross-origin frames
    refs = [f"c0p0f{f}e{n}" for f, n in REF.findall(out.message)]
    assert len(refs) == 2 and refs[0].split("e")[0] != refs[1].split("e")[0]
    snap = driver.ok("snapshot").data
    cross = next(f["index"] for f in snap["frames"] if f["cross_origin"] and f["index"] != 0)
    ref = next(r for r in refs if r.startswith(f"c0p0f{cross}e"))
    driver.ok(f"click {ref}")
    counted = driver.ok('text "text=Clicked 1 time"').data
    assert counted["ref"].startswith(f"c0p0f{cross}e")
    assert driver.ok('click "button:Srcdoc button"').data["name"] == "Srcdoc button"


def test_label_target_inside_a_cross_origin_frame(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    out = driver.fail("fill 'label=Frame input' hello", "ambiguous")
    refs = [f"c0p0f{f}e{n}" for f, n in REF.findall(out.message)]
    snap = driver.ok("snapshot").data
    cross = {f["index"] for f in snap["frames"] if f["cross_origin"]}
    ref = next(r for r in refs if int(r.split("f")[1].split("e")[0]) in cross)
    assert driver.ok(f"fill {ref} hello").data["value"] == "hello"


def test_snapshot_shows_refs_issued_by_targets(shop):
    out = shop.ok("click button:Save").data
    snap = shop.ok("snapshot").data
    assert snap["refs"][out["ref"]]["role"] == "button"  # the same element keeps the ref it got


def test_an_iframe_scope_searches_that_frame(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    out = driver.ok('click "iframe:Cross-origin frame >> button:Frame button"').data
    snap = driver.ok("snapshot").data
    cross = next(f["index"] for f in snap["frames"] if f["cross_origin"] and f["index"] != 0)
    assert out["ref"].startswith(f"c0p0f{cross}e")
    out = driver.ok("fill 'iframe:Same-origin frame >> label=Frame input' hello").data
    assert out["value"] == "hello" and not out["ref"].startswith(f"c0p0f{cross}e")
    driver.fail('click "iframe:Nope >> button:Frame button"', "no_match")


def test_wait_for_a_target_to_appear_and_go(shop):
    shop.ok("click button:Save")
    assert shop.ok("wait button:Saving").data["for"] == "visible"
    shop.ok('eval setTimeout(() => { const b = document.createElement("button"); b.id = "late"; b.textContent = "Late"; '
            'document.body.append(b); }, 300)')
    out = shop.ok("wait button:Late").data  # no match yet: waits until one appears
    assert out["for"] == "visible" and out["waited_ms"] >= 100
    shop.ok('eval setTimeout(() => document.getElementById("late").remove(), 300)')
    assert shop.ok("wait gone button:Late").data["for"] == "gone"
    shop.fail('wait "button:Add to cart"', "ambiguous")


def test_targets_reach_into_open_and_closed_shadow_roots(driver, demo):
    driver.ok("open " + demo.url("shadow.html"))
    assert driver.ok("check label=Notify").data["checked"] is True
    assert driver.ok("click button:Follow").data["name"] == "Follow"
    assert driver.ok('click "button:Hidden inside closed root"').data["name"] == "Hidden inside closed root"
    assert "Clicked" in driver.ok("snapshot").data["text"]  # the state line the closed root's button wrote


def test_every_target_form_inside_the_nested_cross_origin_frame(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    snap = driver.ok("snapshot").data
    leaf = next(f["index"] for f in snap["frames"] if "frame-leaf" in f["url"])
    assert next(f for f in snap["frames"] if f["index"] == leaf)["cross_origin"]
    for target in ("testid=leaf-link", '"link:Leaf link"', 'role=link[name="Leaf link"]', '"text=Leaf link"'):
        out = driver.ok(f"inspect {target}").data
        assert out["frame"] == leaf and out["name"] == "Leaf link", target
    assert driver.ok("inspect testid=leaf-link").data["locator"] == "testid=leaf-link"
    assert driver.ok("click role=button[name=\"Leaf button\"]").data["ref"].startswith(f"c0p0f{leaf}e")
    assert driver.ok('text "text=Leaf clicked"').data["ref"].startswith(f"c0p0f{leaf}e")
    assert driver.ok("click testid=leaf-link").data["name"] == "Leaf link"


def test_a_target_split_inside_its_name_is_refused_before_typing(driver, tmp_path):
    """`fill label=First name Ada` splits into target `label=First` and text `name Ada`: the field it
    finds is named "First name", so the split was not meant and nothing is typed."""
    page = tmp_path / "names.html"
    page.write_text('<label for=f>First name</label><input id=f><label for=l>Last name</label><input id=l>')
    driver.ok(f"open {page}")
    for line in ("fill label=First name Ada", "type textbox:First name Ada", "fill label=first name Ada"):
        err = driver.fail(line, "usage")
        assert "quote a target with spaces" in err.message and '"label=First name" Ada' in err.message \
            or '"textbox:First name" Ada' in err.message or '"label=first name" Ada' in err.message, err.message
        assert driver.js('document.getElementById("f").value') == ""
    assert driver.ok('fill "label=First name" Ada').data["value"] == "Ada"
    assert driver.ok("fill label=Last Lovelace").data["value"] == "Lovelace"  # the name does not go on with it
    assert driver.js('document.getElementById("l").value') == "Lovelace"


def test_a_frame_whose_document_has_no_root_element_is_searched_as_empty(shop):
    # a page's script emptied a frame's document (removeChild(documentElement)): its bridge answers
    # {"status": "removed"} to a search; the target search said "Internal error: KeyError: 'candidates'"
    shop.ok("eval const f = document.createElement('iframe'); document.body.prepend(f); "
            "f.contentDocument.removeChild(f.contentDocument.documentElement); 1")
    out = shop.ok("click button:Save").data
    assert (out["role"], out["name"]) == ("button", "Save")


def test_id_targets_in_the_main_frame_a_cross_origin_frame_and_across_two_frames(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    frames = driver.ok("snapshot").data["frames"]
    leaf = next(f["index"] for f in frames if "frame-leaf" in f["url"])
    assert next(f for f in frames if f["index"] == leaf)["cross_origin"]
    out = driver.ok("click id=leaf-button").data
    assert out["ref"].startswith(f"c0p0f{leaf}e") and out["name"] == "Leaf button"
    assert driver.ok("text id=leaf-status").data["text"].strip() == "Leaf clicked"  # the leaf page's own record
    assert driver.ok("text id=cross-origin-note").data["ref"].startswith("c0p0f0e")
    err = driver.fail("click id=leaf", "no_match")  # the whole id only: not a part of "leaf-button"
    assert 'id "leaf"' in err.message
    driver.fail("click id=Leaf-button", "no_match")  # ids are case-sensitive
    err = driver.fail("click id=frame-button", "ambiguous")  # the same- and the cross-origin frame
    refs = [f"c0p0f{f}e{n}" for f, n in REF.findall(err.message)]
    assert len(refs) == 2 and refs[0].split("e")[0] != refs[1].split("e")[0]
    driver.ok(f"click {refs[1]}")
    assert driver.ok("text 'iframe:Cross-origin frame >> id=frame-count'").data["text"].strip() == "Clicked 1 time"


def test_id_targets_get_the_same_actionability_checks(chrome_http, demo):
    d = Driver(chrome_http, timeout=1.0)
    try:
        d.ok("open " + demo.url("shop.html"))
        assert "disabled" in d.fail("click id=checkout", "not_actionable").message
    finally:
        d.close()
