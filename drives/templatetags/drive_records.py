"""
A league player's drive record, for the league's player pages: `{% load drive_records %}`
then `{% drive_record player %}`. league/ imports nothing from drives/; its templates ask
this tag, which says nothing for a player who never played a drive.
"""

from django import template

from drives.selectors import player_drive_record

register = template.Library()


@register.inclusion_tag("drives/_player_record.html")
def drive_record(player):
    return {"player": player, "record": player_drive_record(player)}
