"""Fill what the results need from the games already stored: each side's pub (its
team's pub, or the game's), one result row per side of every finished game, and each
fixture's count of games started and finished. Scores, winner and shutout are the
game's own, written by the rules with every deal; marches come from the live deals."""

from django.db import migrations


def fill(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    GameSide = apps.get_model("scoring", "GameSide")
    Deal = apps.get_model("scoring", "Deal")
    Confirmation = apps.get_model("scoring", "Confirmation")
    Fixture = apps.get_model("league", "Fixture")
    SideResult = apps.get_model("league", "SideResult")
    Through = SideResult.players.through

    for side in GameSide.objects.select_related("team", "game").filter(pub__isnull=True):
        side.pub_id = side.team.pub_id if side.team_id else side.game.pub_id
        side.save(update_fields=["pub"])

    confirmed = set(Confirmation.objects.values_list("game_id", flat=True))
    marches = {}
    for game_id, tricks in Deal.objects.filter(live=True).values_list("game_id", "tricks"):
        for index, count in enumerate(tricks):
            if count == "5":
                marches[game_id, index] = marches.get((game_id, index), 0) + 1
    for game in Game.objects.filter(status="finished").iterator():
        total = sum(game.scores)
        for side in GameSide.objects.filter(game=game).order_by("index"):
            players = sorted(side.players.values_list("pk", flat=True))
            row = SideResult.objects.create(
                league_id=game.league_id,
                season_id=game.season_id,
                fixture_id=game.fixture_id,
                game_id=game.pk,
                game_number=game.number,
                side=side.index,
                label=side.label,
                team_id=side.team_id,
                pub_id=side.pub_id,
                partnership="-".join(str(p) for p in players),
                points_for=game.scores[side.index],
                points_against=total - game.scores[side.index],
                won=game.winner == side.index,
                shutout=game.shutout and game.winner == side.index,
                marches=marches.get((game.pk, side.index), 0),
                confirmed=game.pk in confirmed,
                finished_at=game.finished_at or game.created_at,
            )
            Through.objects.bulk_create(Through(sideresult_id=row.pk, player_id=p) for p in players)

    for fixture in Fixture.objects.all():
        games = Game.objects.filter(fixture_id=fixture.pk)
        fixture.games_started = games.count()
        fixture.games_finished = games.filter(status="finished").count()
        fixture.save(update_fields=["games_started", "games_finished"])


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0003_side_pub"),
        ("league", "0004_results"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
