"""Games begun before their opening score was kept were listed 0-0 until a die was entered
(VABG starts 20-20): their score is emptied, so the next listing replays them once and
keeps the engine's own (``table.services.scores_filled``)."""

from django.db import migrations


def empty_scores_of_games_without_dice(apps, schema_editor):  # type: ignore[no-untyped-def]
    TableGame = apps.get_model("table", "TableGame")
    waiting = [pk for pk, dice in TableGame.objects.values_list("pk", "dice") if not dice]
    TableGame.objects.filter(pk__in=waiting).update(home_score=None, away_score=None)


class Migration(migrations.Migration):
    dependencies = [("table", "0007_table_game_score")]

    operations = [
        migrations.RunPython(empty_scores_of_games_without_dice, migrations.RunPython.noop),
    ]
