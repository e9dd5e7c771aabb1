"""The rules site's pages, generated from the rule-set data (issue 12)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games.rules import rulesets

pytestmark = pytest.mark.django_db

NAMES = rulesets.NAMES


def test_index_links_every_rule_set_the_comparison_and_the_calculator(client):
    html = client.get(reverse("games:rules")).content.decode()
    for name in NAMES:
        rs = rulesets.get(name)
        assert reverse("games:rules_ruleset", args=[name]) in html
        assert rs.zh in html
    assert reverse("games:rules_compare") in html
    assert reverse("games:calculator") in html


@pytest.mark.parametrize("name", NAMES)
def test_ruleset_page_has_one_row_per_fan_with_value_and_exclusions(client, name):
    rs = rulesets.get(name)
    html = client.get(reverse("games:rules_ruleset", args=[name])).content.decode()
    rows = re.findall(r'<article class="fan-row[^"]*" data-fan="([A-Z_0-9]+)"', html)
    assert rows == [f.id for f in rs.fans]
    assert f"至少 {rs.min_fan} 番才能和牌" in html
    assert f"共 {rs.wall_size} 张" in html
    for f in rs.fans:
        row = html.split(f'data-fan="{f.id}"', 1)[1].split("</article>", 1)[0]
        assert f"{f.points} 番" in row
        for other in f.excludes:
            if any(g.id == other for g in rs.fans):
                assert f'data-excludes="{other}"' in row
        assert reverse("games:rules_fan", args=[name, f.id]) in row


def test_every_fan_page_answers_and_unknown_ones_do_not(client):
    for name in NAMES:
        for f in rulesets.get(name).fans:
            url = reverse("games:rules_fan", args=[name, f.id])
            assert client.get(url).status_code == 200, url
    assert client.get("/rules/nope/").status_code == 404
    assert client.get("/rules/erren/NOT_A_FAN/").status_code == 404
    response = client.get("/rules/mcr/all_pungs/")
    assert response.status_code == 301
    assert response["Location"] == reverse("games:rules_fan", args=["mcr", "ALL_PUNGS"])


def test_comparison_has_a_column_per_rule_set_and_a_row_per_fan(client):
    html = client.get(reverse("games:rules_compare")).content.decode()
    ids = {f.id for n in NAMES for f in rulesets.get(n).fans}
    table = html.split('data-testid="compare-fans"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr data-fan="([A-Z_0-9]+)">', table)
    assert sorted(rows) == sorted(ids)
    # 天听: 32 in erren, 16 in jj, absent elsewhere
    row = table.split('data-fan="HEAVENLY_READY"', 1)[1].split("</tr>", 1)[0]
    assert re.findall(r'data-ruleset="(\w+)">(\d+)<', row) == [
        ("erren", "32"),
        ("jj", "16"),
    ]
    assert row.count('class="absent"') == len(NAMES) - 2
    # tester's fault: the lead said a blank (空格) marks what a rule set lacks,
    # but the cells show "—" (as the English "a dash" says)
    assert "“—”表示那套规则没有这一项" in html and "空格表示" not in html


def test_comparison_shows_the_three_level_tables_and_the_one_in_use(client):
    html = client.get(reverse("games:rules_compare")).content.decode()
    levels = html.split('id="levels"', 1)[1]
    for name in ("雀蛋", "自摸王", "武林新丁", "麻将无敌", "白板", "北风"):
        assert name in levels
    assert levels.count('data-active="true"') == 1
    active = levels.split('data-active="true"', 1)[1].split("</div>", 1)[0]
    assert "雀蛋" in active and "本站使用" in active


def test_a_level_tables_source_reads_as_a_citation_in_either_language(client):
    """Fresh tester: the English /rules/compare/ showed "seed 000 ·
    二．等级级别称号积分" as if untranslated. It cites the seed document's own
    Chinese heading, so the heading stays Chinese (marked so) inside an
    English citation."""
    zh = client.get(reverse("games:rules_compare")).content.decode()
    client.cookies["django_language"] = "en"
    en = client.get(reverse("games:rules_compare")).content.decode()

    def sources(html: str) -> list[str]:
        found = re.findall(r'data-testid="scheme-source">(.*?)</p>', html)
        return [re.sub(r"<[^>]+>", "", s) for s in found]

    assert sorted(sources(en)) == [
        "Source: seed 000, section “二．等级级别称号积分”",
        "Source: seed 002, section “实力积分等级说明”",
        "Source: seed 003, section “四、游戏等级”",
    ]
    assert '“<span lang="zh-Hans">二．等级级别称号积分</span>”' in en
    assert "出处：seed 000 中的「" in zh and "二．等级级别称号积分" in zh
    assert "Source:" not in zh


class _Visible(HTMLParser):
    """Visible text and read attributes, skipping scripts, styles and elements
    marked ``lang="zh-Hans"`` (a Chinese name shown on purpose beside the
    English one)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._stack: list[bool] = []

    def _hidden(self) -> bool:
        return any(self._stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        hide = tag in ("script", "style") or (a.get("lang") or "").startswith("zh")
        if tag not in VOID:
            self._stack.append(hide)
        if not (hide or self._hidden()):
            for k in ("alt", "title", "aria-label", "placeholder"):
                if a.get(k):
                    self.parts.append(a[k])

    def handle_endtag(self, tag):
        if tag not in VOID and self._stack:
            self._stack.pop()

    def handle_data(self, data):
        if not self._hidden():
            self.parts.append(data)


VOID = {"img", "input", "br", "meta", "link", "hr", "source", "wbr"}
CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]+")
ALLOWED = {"简体中文"}  # the language switcher names Chinese in Chinese


def _chinese(html: str) -> set[str]:
    parser = _Visible()
    parser.feed(html)
    return set(CJK.findall(" ".join(parser.parts))) - ALLOWED


def test_english_pages_show_chinese_only_where_marked(client):
    client.cookies["django_language"] = "en"
    urls = [reverse("games:rules"), reverse("games:rules_compare")]
    for name in NAMES:
        urls.append(reverse("games:rules_ruleset", args=[name]))
        fans = rulesets.get(name).fans
        urls += [reverse("games:rules_fan", args=[name, f.id]) for f in fans[:3]]
    calc = reverse("games:calculator")
    urls += [
        f"{calc}?ruleset=erren&hand=1112345678999m5m",
        f"{calc}?ruleset=mcr&hand=1112345678999m",
        f"{calc}?ruleset=mcr&hand=123456789m1234z5z",
        f"{calc}?ruleset=jj&hand=11x",
        f"{calc}?ruleset=liangren&hand=1122335566778m&wild=5m",
    ]
    for url in urls:
        html = client.get(url).content.decode()
        assert _chinese(html) == set(), url
