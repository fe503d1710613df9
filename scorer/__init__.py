"""Scorer: a score pad for trick-taking card games played with real cards."""

from __future__ import annotations


def create_app(test_config: dict | None = None):
    """The Flask app (scorer/app.py), imported only when an app is made: the games,
    the engine and the fold (scorer.games, scorer.engine, scorer.match) load no
    Flask."""
    from .app import create_app as make  # noqa: PLC0415

    return make(test_config)
