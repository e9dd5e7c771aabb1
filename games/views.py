"""Lobby and rules pages (placeholders until the play and rules issues fill them)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def lobby(request: HttpRequest) -> HttpResponse:
    """Render the lobby (大厅)."""
    return render(request, "games/lobby.html")


def rules(request: HttpRequest) -> HttpResponse:
    """Render the rules overview (规则)."""
    return render(request, "games/rules.html")
