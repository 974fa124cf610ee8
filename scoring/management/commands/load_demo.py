from django.core.management.base import BaseCommand

from scoring.demo import LOGINS, load_demo


class Command(BaseCommand):
    help = "Load the demo league if it is not there yet (running it again changes nothing)."

    def handle(self, *args, **options):
        if load_demo():
            self.stdout.write(self.style.SUCCESS("Loaded the demo league."))
        else:
            self.stdout.write("The demo league is already loaded.")
        self.stdout.write("Demo logins (username / password):")
        self.stdout.write(f"  secretary  / {LOGINS['secretary']}   (the league secretary)")
        for username in ("harbour", "cronins", "thatch"):
            self.stdout.write(f"  {username:<10} / {LOGINS[username]}   (organiser of one pub)")
