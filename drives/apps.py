from django.apps import AppConfig


class DrivesConfig(AppConfig):
    name = "drives"
    # A league's card drives go in its data file (league/data_tables.py).
    league_data_tables = "drives.league_data.TABLES"
