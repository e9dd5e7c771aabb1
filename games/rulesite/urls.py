"""URLs of the rules site and the calculator, in the ``games`` namespace.

Names others link to: ``games:rules`` (``/rules/``), ``games:rules_ruleset``
(``/rules/<ruleset>/``), ``games:rules_fan`` (``/rules/<ruleset>/<FAN_ID>/``),
``games:rules_compare`` (``/rules/compare/``), ``games:calculator``
(``/calculator/``, query parameters: see ``calculator.CalcInput``).
"""

from django.urls import path

from . import views

urlpatterns = [
    path("rules/", views.rules_index, name="rules"),
    path("rules/compare/", views.rules_compare, name="rules_compare"),
    path("rules/<str:ruleset>/", views.rules_ruleset, name="rules_ruleset"),
    path("rules/<str:ruleset>/<str:fan>/", views.rules_fan, name="rules_fan"),
    path("calculator/", views.calculator, name="calculator"),
]
