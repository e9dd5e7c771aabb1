"""The frame of a hand in play, rendered by the Jinja2 templates, keeps its hooks.

The frame partials live once, as Jinja2 templates (templates/jinja2/); the
consumer's frame (games.presenters.render_frame) and the table page's first
paint (games/table.html with ``{% jinja_include %}``) both render them.
"""

from __future__ import annotations

import json
import random
import re
import time
from html import unescape

import pytest
from django.template import TemplateDoesNotExist, engines
from django.urls import reverse
from django.utils import translation

from games.presenters import render_frame, seat_context
from games.services import table_continue, table_quick_match
from tests.games.conftest import make_player
from tests.games.driver import apply_move, next_move

FRAGMENTS = (
    "mj-status",
    "mj-opponent",
    "mj-center",
    "mj-me",
    "mj-actions",
    "mj-hand-area",
    "mj-settlement",
    "toast",
    "mj-roomline",
    "mj-commit",
)


@pytest.fixture
def mid_hand(alice, bob, room):
    """A table a dozen moves into its first hand."""
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    users = {0: table.seat0, 1: table.seat1}
    rng = random.Random(3)
    moves = hands = 0
    while moves < 12 or table.status != "playing":
        move = next_move(table, rng)
        if move is None:  # the (randomly dealt) hand ended early: deal again
            hands += 1
            assert hands < 5 and table.status == "settling", table.status
            for seat in (0, 1):
                table_continue(user=users[seat], table_id=table.pk)
            table.refresh_from_db()
            moves = 0
            continue
        seat, payload = move
        payload["seq"] = table.seq
        apply_move(table, users[seat], seat, payload)
        table.refresh_from_db()
        moves += 1
    table.refresh_from_db()
    assert table.hand is not None and table.status == "playing"
    return table, users


def _hand_tiles(html: str) -> list[str]:
    area = html.split('data-testid="my-hand"', 1)[1].split("</div>", 1)[0]
    return re.findall(r'data-tile="([^"]+)"', area)


def test_the_partials_exist_once_as_jinja_templates():
    assert engines["jinja2"].get_template("games/partials/frame.html")
    with pytest.raises(TemplateDoesNotExist):
        engines["django"].get_template("games/partials/frame.html")


def test_mid_hand_frame_has_every_hook(mid_hand):
    table, users = mid_hand
    # one instant for the context and both renders: the last discarder's frame
    # is veiled until a random moment (games.services.act, the claim veil),
    # and a clock read per call once saw the veil lift between the context
    # and the frame (seq, phase and counts then differ: the flaky failure)
    now = time.time()
    for seat in (0, 1):
        ctx = seat_context(table, seat, user=users[seat], now=now)
        with translation.override("zh-hans"):
            html = render_frame(table, seat, user=users[seat], now=now)
        for fragment in FRAGMENTS:
            assert f'id="{fragment}"' in html
        assert html.count('hx-swap-oob="true"') == len(FRAGMENTS)
        assert f'data-seq="{ctx["seq"]}"' in html
        assert f'data-phase="{ctx["phase"]}"' in html
        # own hand: standing tiles then the drawn one, in the context's order
        me = ctx["me"]
        expected = list(me["tiles"]) + ([me["drawn"]] if me["drawn"] else [])
        assert _hand_tiles(html) == expected
        assert 'data-testid="opponent"' in html and 'data-testid="turn"' in html
        assert f'data-count="{ctx["opponent"]["count"]}"' in html
        # every ws-send form answers the current seq with valid JSON
        payloads = [
            json.loads(unescape(v)) for v in re.findall(r"hx-vals='([^']*)'", html)
        ]
        assert payloads and all(p["seq"] == ctx["seq"] for p in payloads)
        if ctx["actions"]["discard"]:
            assert {p["tile"] for p in payloads if p["action"] == "discard"} == set(
                ctx["actions"]["discard_tiles"]
            )
        for name in ("pung", "hu", "pass"):
            assert (f'data-action="{name}"' in html) == bool(ctx["actions"][name])
        assert 'data-action="auto"' in html
        # the English frame uses the same catalogue (blocktranslate-style msgids)
        with translation.override("en"):
            english = render_frame(table, seat, user=users[seat], now=now)
        assert "Keys" in english and "快捷键" not in english


def test_table_page_inserts_the_same_fragments(mid_hand, client):
    table, users = mid_hand
    client.force_login(users[0])
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    with translation.override("zh-hans"):
        frame = render_frame(table, 0, user=users[0])
    for fragment in FRAGMENTS:
        assert page.count(f'id="{fragment}"') == 1
    assert _hand_tiles(page) == _hand_tiles(frame)
    assert 'data-testid="my-hand"' in page and 'data-testid="actions"' in page


def test_a_remembered_plate_is_the_macro_s_html_in_each_language():
    """``plate(p)`` is remembered per (language, p) (mahjong_site.jinja_env):
    each answer is the macro's own, in the language of the render."""
    from mahjong_site.language import pinned_language

    env = engines["jinja2"].env
    macro = env.get_template("games/partials/plate.html").module.plate
    p = {
        "seat": 1,
        "nickname": "bob<b>",
        "level": None,
        "level_info": None,
        "balance": 12345,
        "skill": 1500,
        "provisional": True,
        "wind": "1z",
        "dealer": True,
        "is_bot": False,
        "auto_play": True,
        "ready": True,
        "open_hand": False,
        "start_double": False,
        "deal_double": True,
        "win_doubles": 2,
        "swaps": 0,
    }
    seen = {}
    for lang in ("zh-hans", "en", "zh-hans", "en"):
        with translation.override(lang), pinned_language():
            got = env.globals["plate"](p)
            assert got == macro(p)
            seen.setdefault(lang, got)
            assert got == seen[lang]
    assert seen["zh-hans"] != seen["en"] and "bob&lt;b&gt;" in seen["en"]
    changed = dict(p, ready=False)
    with translation.override("en"), pinned_language():
        assert env.globals["plate"](changed) == macro(changed) != seen["en"]


def test_a_provisional_rating_on_the_plate_says_what_the_question_mark_means():
    """A tester saw "1174?" at the table with nothing saying why: the plate's
    "?" now carries the reason, in each language; a settled rating has none."""
    from mahjong_site.language import pinned_language

    plate = engines["jinja2"].env.globals["plate"]
    p = {"seat": 0, "nickname": "amy", "skill": 1174, "provisional": True}
    with translation.override("zh-hans"), pinned_language():
        zh = plate(p)
        settled = plate(dict(p, provisional=False))
    with translation.override("en"), pinned_language():
        en = plate(p)
    assert 'title="等级分 · 临时分：对局还不够多"' in zh
    mark = '<span class="provisional" data-testid="plate-provisional">?</span>'
    assert "1174" + mark in zh
    assert 'title="Rating · Provisional: not enough hands yet"' in en
    assert "plate-provisional" not in settled and 'title="等级分"' in settled


def test_each_remembered_fragment_lists_every_variable_its_template_reads():
    """games.presenters.render.PART_INPUTS keys a remembered fragment by the
    context values it reads: a template that starts reading another variable
    (or a helper that reads the whole context) must be listed again."""
    from jinja2 import meta

    from games.presenters.render import PART_INPUTS, part_template

    env = engines["jinja2"].env
    assert set(PART_INPUTS) == {
        "roomline",
        "commitline",
        "toast",
        "hand_hint",
        "hand_keys",
    }
    for name, inputs in PART_INPUTS.items():
        source = env.loader.get_source(env, part_template(name))[0]
        ast = env.parse(source)
        read = meta.find_undeclared_variables(ast) - set(env.globals)
        assert read == set(inputs), name
        assert not list(meta.find_referenced_templates(ast)), name
        # no global that takes the template's context (fragment, hand_tile)
        assert not {
            "fragment",
            "fixed_part",
            "hand_tile",
        } & meta.find_undeclared_variables(ast)


def test_a_remembered_fragment_is_the_template_s_own_html(mid_hand):
    """Each fragment of PART_INPUTS, remembered or not, is what its template
    renders from the same context, per language; inputs that only look the
    same (``Markup`` and ``str``, ``1`` and ``True``) are told apart."""
    from markupsafe import Markup

    from games.presenters.render import (
        PART_INPUTS,
        clear_part_cache,
        part_html,
        part_template,
    )
    from mahjong_site.language import pinned_language

    table, _users = mid_hand
    env = engines["jinja2"].env
    clear_part_cache()
    for lang in ("zh-hans", "en", "zh-hans", "en"):
        with translation.override(lang):
            ctx = seat_context(table, 0)
            with pinned_language():
                for name in PART_INPUTS:
                    plain = env.get_template(part_template(name)).render(ctx)
                    assert part_html(env, name, ctx) == plain, (lang, name)
                    assert part_html(env, name, ctx) == plain, (lang, name)
    with translation.override("en"), pinned_language():
        ctx = seat_context(table, 0)
        shown = part_html(env, "toast", dict(ctx, toast="<b>x</b>"))
        marked = part_html(env, "toast", dict(ctx, toast=Markup("<b>x</b>")))
        assert "&lt;b&gt;x" in shown and "<b>x</b>" in marked
        again = part_html(env, "toast", dict(ctx, toast="<b>x</b>"))
        assert again == shown


def test_each_remembered_shell_reads_only_what_its_key_holds():
    """games.presenters.render.SHELL_INPUTS keys a part's shell (its subparts
    as markers): ``center.html`` reads no variable, ``hand.html`` only ``me``
    (whether it is set) and, through ``fixed_part``, only pieces of
    PART_INPUTS; neither includes another template."""
    from jinja2 import meta, nodes

    from games.presenters.render import (
        PART_INPUTS,
        SHELL_INPUTS,
        SUBPARTS,
        part_template,
    )

    env = engines["jinja2"].env
    assert set(SHELL_INPUTS) == set(SUBPARTS)
    reads = {"center": set(), "hand": {"me"}}
    for name in SHELL_INPUTS:
        ast = env.parse(env.loader.get_source(env, part_template(name))[0])
        read = meta.find_undeclared_variables(ast) - set(env.globals)
        assert read == reads[name], name
        assert not list(meta.find_referenced_templates(ast)), name
        fixed = [
            call.args[0].value
            for call in ast.find_all(nodes.Call)
            if isinstance(call.node, nodes.Name) and call.node.name == "fixed_part"
        ]
        assert set(fixed) <= set(PART_INPUTS), name
        if name == "hand":
            # me is only tested for truth, never read into
            assert not [
                g
                for g in ast.find_all(nodes.Getattr)
                if isinstance(g.node, nodes.Name) and g.node.name == "me"
            ]


def test_a_frame_with_remembered_shells_is_the_template_s_own_html(mid_hand):
    """Every part of seat_frame (shells remembered, subparts put in) is what
    its template renders from the same context in place, per language and
    before and after the shells are remembered; also with no hand (``me``
    None: the hand's shell holds no subpart)."""
    from games.presenters.render import (
        FRAME_PARTS,
        clear_part_cache,
        part_template,
        seat_frame,
    )

    table, _users = mid_hand
    env = engines["jinja2"].env
    now = time.time()
    clear_part_cache()
    for lang in ("zh-hans", "en", "zh-hans", "en"):
        with translation.override(lang):
            for seat in (0, 1):
                frame = seat_frame(table, seat, now=now)
                ctx = seat_context(table, seat, now=now)
                for name in FRAME_PARTS:
                    plain = env.get_template(part_template(name)).render(ctx)
                    assert frame.parts[name] == plain, (lang, seat, name)
                assert set(frame.shells) == {"center", "hand"}
    waiting = table_quick_match(user=make_player("shell_w"), room=table.room)
    for lang in ("zh-hans", "en"):
        with translation.override(lang):
            frame = seat_frame(waiting, 0, now=now)
            ctx = seat_context(waiting, 0, now=now)
            assert ctx["me"] is None
            for name in FRAME_PARTS:
                plain = env.get_template(part_template(name)).render(ctx)
                assert frame.parts[name] == plain, (lang, name)
            assert "hand_tiles" not in frame.parts and "hand" not in frame.shells
