"""``manage.py printed_cards``: the author's printed card values against the calculator's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from cards import printed
from core.commands import Command as ProjectCommand


class Command(ProjectCommand):
    help = (
        "Print the report of docs/cards.md §14: every printed card value whose inputs are "
        "known against the calculated one, the match rates, the error per field and the "
        "steal/block/turnover range lengths by slot. --write puts it into docs/cards.md."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--write", action="store_true", help="replace the report section of docs/cards.md"
        )
        parser.add_argument(
            "--field",
            default=str(Path(settings.BASE_DIR) / "fixtures" / "teams"),
            help="the field's team files, for the range lengths by slot (default: "
            "fixtures/teams; run build_field first so that they follow the calculator)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        shared = Path(settings.SHARED_DIR)
        seasons = shared / "data" / "alltime96_player_seasons.csv"
        known = shared / "data" / "cards_known.csv"
        for path in (seasons, known):
            if not path.exists():
                raise CommandError(f"{path} is missing (the shared data folder, SHARED_DIR)")
        field = [
            json.loads(path.read_text(encoding="utf-8"))
            for path in sorted(Path(options["field"]).glob("*.json"))
        ]
        text = printed.report(seasons, known, field)
        if not options["write"]:
            self.stdout.write(text, ending="")
            return
        doc_path = Path(settings.BASE_DIR) / "docs" / "cards.md"
        doc = doc_path.read_text(encoding="utf-8")
        try:
            doc = printed.replace_report(doc, text)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        doc_path.write_text(doc, encoding="utf-8")
        self.stdout.write(f"wrote the report into {doc_path.name}")
