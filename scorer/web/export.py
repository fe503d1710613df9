"""A match's files: the CSV of every deal and player, the sheet as a table (CSV
and .xlsx), and the record (JSON)."""

from __future__ import annotations

import json
from datetime import date

from flask import (
    Blueprint,
    Response,
)

from .. import store
from ..i18n import _
from ..record import (
    csv_headers,
    dump,
    to_csv,
    to_sheet_csv,
    to_sheet_xlsx,
)
from ..store import get_db as db
from .drawn import kept_download
from .lookup import match_or_404, title

bp = Blueprint("export", __name__)


@bp.get("/m/<mid:match_id>/export.csv")
def export_csv(match_id: str):
    """One row per deal and player, then each player's total and place."""
    stored = match_or_404(match_id)
    match = stored.match
    return kept_download(
        "export.csv",
        stored,
        lambda: to_csv(match, store.standings(db(), stored), title(match)),
        csv_headers(match, started(stored)),
    )


@bp.get("/m/<mid:match_id>/sheet.csv")
def export_sheet(match_id: str):
    """The sheet as a table: one row per deal, each player's points and running total."""
    stored = match_or_404(match_id)
    match = stored.match
    return kept_download(
        "sheet.csv",
        stored,
        lambda: to_sheet_csv(match, store.standings(db(), stored)),
        csv_headers(match, started(stored), _("sheet")),
    )


@bp.get("/m/<mid:match_id>/sheet.xlsx")
def export_sheet_xlsx(match_id: str):
    """The sheet as a table in an Excel workbook: the same in every spreadsheet."""
    stored = match_or_404(match_id)
    match = stored.match
    return kept_download(
        "sheet.xlsx",
        stored,
        lambda: to_sheet_xlsx(match, store.standings(db(), stored)),
        csv_headers(match, started(stored), _("sheet"), ext="xlsx"),
    )


def started(stored: store.Stored) -> date:
    """The day the match was started: the date its files are named by."""
    try:
        return date.fromisoformat(stored.created[:10])
    except ValueError:  # a match stored before matches kept the day
        return date.today()


@bp.get("/m/<mid:match_id>/record.json")
def export_record(match_id: str):
    match = match_or_404(match_id).match
    body = json.dumps(dump(match, match_id=match_id), ensure_ascii=False, separators=(",", ":"))
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f"attachment; filename=scorer-{match_id}.json"},
    )
