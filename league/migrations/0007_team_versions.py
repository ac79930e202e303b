"""Store each team file a game played once (``TeamVersion``), results pointing at it.

Every result used to keep both team files whole (a third of its size). This moves them:
each distinct document becomes one version, keyed by its SHA-256 (keys sorted), and the
result's two columns become two keys. Reversible: going back copies each result's
documents into the columns again, then drops the versions.
"""

import hashlib
import json

import django.db.models.deletion
import league.models
from django.db import migrations, models

BATCH = 500


def _digest(document):
    text = json.dumps(document, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def files_to_versions(apps, schema_editor):
    """Give each result's team files their versions, each document stored once."""
    GameResult = apps.get_model("league", "GameResult")
    TeamVersion = apps.get_model("league", "TeamVersion")
    known = dict(TeamVersion.objects.values_list("digest", "pk"))
    rows = GameResult.objects.order_by("pk").values_list("pk", "home_team_file", "away_team_file")
    batch = []
    for pk, home, away in rows.iterator(chunk_size=BATCH):
        keys = []
        for document in (home, away):
            digest = _digest(document)
            if digest not in known:
                known[digest] = TeamVersion.objects.create(digest=digest, document=document).pk
            keys.append(known[digest])
        batch.append(GameResult(pk=pk, home_version_id=keys[0], away_version_id=keys[1]))
        if len(batch) >= BATCH:
            GameResult.objects.bulk_update(batch, ["home_version", "away_version"])
            batch = []
    GameResult.objects.bulk_update(batch, ["home_version", "away_version"])


def versions_to_files(apps, schema_editor):
    """Copy each result's versions back into its own team file columns."""
    GameResult = apps.get_model("league", "GameResult")
    TeamVersion = apps.get_model("league", "TeamVersion")
    documents = dict(TeamVersion.objects.values_list("pk", "document"))
    rows = GameResult.objects.order_by("pk").values_list("pk", "home_version", "away_version")
    batch = []
    for pk, home, away in rows.iterator(chunk_size=BATCH):
        batch.append(
            GameResult(pk=pk, home_team_file=documents[home], away_team_file=documents[away])
        )
        if len(batch) >= BATCH:
            GameResult.objects.bulk_update(batch, ["home_team_file", "away_team_file"])
            batch = []
    GameResult.objects.bulk_update(batch, ["home_team_file", "away_team_file"])


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0006_research_runs'),
    ]

    operations = [
        migrations.CreateModel(
            name='TeamVersion',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('digest', models.CharField(max_length=64, unique=True)),
                ('document', league.models.DocumentField(help_text="The team file (vabg-team/1; another game's school and season).")),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
        ),
        migrations.AddField(
            model_name='gameresult',
            name='home_version',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='league.teamversion'),
        ),
        migrations.AddField(
            model_name='gameresult',
            name='away_version',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='league.teamversion'),
        ),
        # Nullable for the way back, which adds the columns again before filling them.
        migrations.AlterField(
            model_name='gameresult',
            name='home_team_file',
            field=models.JSONField(null=True),
        ),
        migrations.AlterField(
            model_name='gameresult',
            name='away_team_file',
            field=models.JSONField(null=True),
        ),
        migrations.RunPython(files_to_versions, versions_to_files),
        migrations.RemoveField(
            model_name='gameresult',
            name='home_team_file',
        ),
        migrations.RemoveField(
            model_name='gameresult',
            name='away_team_file',
        ),
        migrations.AlterField(
            model_name='gameresult',
            name='home_version',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='league.teamversion'),
        ),
        migrations.AlterField(
            model_name='gameresult',
            name='away_version',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='league.teamversion'),
        ),
        migrations.AlterField(
            model_name='gameresult',
            name='events',
            field=league.models.DocumentField(help_text='The play-by-play, one object per event.'),
        ),
    ]
