"""A table game keeps whether every die is in (``over``), so the list tells a game that
waits to be stored from one in play; games in progress are replayed once at their next
listing to learn it (``table.services.scores_filled``)."""

from django.db import migrations, models


def replay_games_in_progress(apps, schema_editor):  # type: ignore[no-untyped-def]
    TableGame = apps.get_model("table", "TableGame")
    TableGame.objects.filter(status="playing").update(home_score=None, away_score=None)


class Migration(migrations.Migration):
    dependencies = [("table", "0008_opening_scores")]

    operations = [
        migrations.AddField(
            model_name="tablegame",
            name="over",
            field=models.BooleanField(
                default=False,
                help_text="Every die of a game in progress is in: it waits to be stored in the "
                "league (kept with the score; the list says so).",
            ),
        ),
        migrations.RunPython(replay_games_in_progress, migrations.RunPython.noop),
    ]
