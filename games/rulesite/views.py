"""Pages of the rules site and the fan calculator (thin: parse, select, render)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from . import selectors
from .builder import EditError, apply_edit
from .calculator import CalcInput, calculate
from .calculator_page import calculator_context


@require_GET
def rules_index(request: HttpRequest) -> HttpResponse:
    """``/rules/``: every rule set with its key facts, and where to go next."""
    context = {
        "summaries": [selectors.ruleset_summary(rs) for rs in selectors.all_rulesets()]
    }
    return render(request, "rules/index.html", context)


@require_GET
def rules_ruleset(request: HttpRequest, ruleset: str) -> HttpResponse:
    """``/rules/<ruleset>/``: the whole rule set, generated from its data."""
    return render(request, "rules/ruleset.html", selectors.ruleset_page(ruleset))


@require_GET
def rules_fan(request: HttpRequest, ruleset: str, fan: str) -> HttpResponse:
    """``/rules/<ruleset>/<FAN_ID>/``: one fan (a lower-case id redirects)."""
    if fan != fan.upper():
        return redirect("games:rules_fan", ruleset, fan.upper(), permanent=True)
    return render(request, "rules/fan.html", selectors.fan_page(ruleset, fan))


@require_GET
def rules_compare(request: HttpRequest) -> HttpResponse:
    """``/rules/compare/``: fans, systems, settlements and level tables side by side."""
    return render(request, "rules/compare.html", selectors.comparison())


@require_GET
def calculator(request: HttpRequest) -> HttpResponse:
    """``/calculator/``: the fan calculator.  A click (``tap``/``op``) is
    applied to the notation first; the answer's URL holds the whole input.

    For htmx requests only the calculator's block is rendered and the
    canonical URL is pushed into the history.
    """
    inp = CalcInput.from_query(request.GET)
    edit_error = None
    tap, op = request.GET.get("tap", ""), request.GET.get("op", "")
    if tap or op:
        try:
            hand = apply_edit(
                inp.hand, tap=tap, mode=request.GET.get("mode", "hand"), op=op
            )
            inp = CalcInput.from_query({**inp.to_query(), "hand": hand})
        except EditError as exc:
            edit_error = exc  # the hand stays as it was
    calc = calculate(inp)
    url = reverse("games:calculator") + "?" + urlencode(calc.input.to_query())
    context = calculator_context(
        calc,
        mode=request.GET.get("mode", "hand"),
        edit_error=edit_error,
        url=url,
    )
    if getattr(request, "htmx", False):
        # the answer's block only; after a click also the rewritten notation
        # (out of band), while typing never (it would fight the cursor)
        out_only = request.headers.get("HX-Target") == "calc-out"
        template = "calculator/out.html" if out_only else "calculator/controls.html"
        context["notation_oob"] = out_only and bool(tap or op)
        response = render(request, template, context)
        response["HX-Push-Url"] = url
        return response
    if (tap or op) and edit_error is None:
        # a click without htmx: show the result at its own address
        mode = request.GET.get("mode", "hand")
        return redirect(url + (f"&mode={mode}" if mode != "hand" else ""))
    # the calculator's block is a Jinja2 template (it is most of the page's
    # cost, and the same block answers every htmx request); the page is Django's
    html = mark_safe(render_to_string("calculator/controls.html", context, request))
    return render(request, "calculator/page.html", {**context, "calculator": html})
