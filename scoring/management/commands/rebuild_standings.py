from django.core.management.base import BaseCommand

from league.models import Season
from scoring.services import season_results_rebuild


class Command(BaseCommand):
    help = "Write every season's result rows again from its games (a repair; safe to rerun)."

    def handle(self, *args, **options):
        for season in Season.objects.select_related("league"):
            season_results_rebuild(season=season)
            self.stdout.write(f"Rebuilt {season}.")
