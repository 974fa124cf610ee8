"""The result rows written before they kept the reason take it from their game."""

from django.db import migrations


def fill(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    SideResult = apps.get_model("league", "SideResult")
    for game_id, reason in Game.objects.filter(status="finished").values_list("pk", "reason"):
        SideResult.objects.filter(game_id=game_id, reason="").update(reason=reason[:200])


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0004_fill_results"),
        ("league", "0007_result_reason"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
