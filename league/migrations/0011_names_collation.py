"""Names sorted as a reader expects ("Áine" among the A's, "de Búrca" among the D's),
whatever the database's own locale: an ICU collation for `league.models.ByName`.
PostgreSQL only (CreateCollation does nothing on SQLite, where ByName sorts case-blind)."""

from django.contrib.postgres.operations import CreateCollation
from django.db import migrations

import league.models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0010_season_rules"),
    ]

    operations = [
        # The root ICU collation: letters first, then accents, then capitals.
        CreateCollation("names", provider="icu", locale="und"),
        migrations.AlterModelOptions(
            name="division",
            options={"ordering": [league.models.ByName("name")]},
        ),
        migrations.AlterModelOptions(
            name="league",
            options={"ordering": [league.models.ByName("name")]},
        ),
        migrations.AlterModelOptions(
            name="player",
            options={"ordering": [league.models.ByName("name")]},
        ),
        migrations.AlterModelOptions(
            name="pub",
            options={"ordering": [league.models.ByName("name")]},
        ),
        migrations.AlterModelOptions(
            name="team",
            options={"ordering": [league.models.ByName("name")]},
        ),
    ]
