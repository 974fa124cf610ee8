from django.urls import path

from drives import views

app_name = "drives"

drive = "<int:pk>"

urlpatterns = [
    path("", views.drive_list, name="list"),
    path("new/", views.drive_create, name="create"),
    path(f"{drive}/", views.drive_detail, name="drive"),
    path(f"{drive}/settings/", views.drive_edit, name="edit"),
    path(f"{drive}/remove/", views.drive_remove, name="remove"),
    path(f"{drive}/door/", views.door, name="door"),
    path(f"{drive}/pair/", views.singles_pair, name="pair"),
    path(f"{drive}/start/", views.drive_start, name="start"),
    path(f"{drive}/entries/<int:entry_pk>/", views.entry_detail, name="entry"),
    path(f"{drive}/entries/<int:entry_pk>/name/", views.entry_name, name="entry-name"),
    path(f"{drive}/entries/<int:entry_pk>/leave/", views.entry_leave, name="entry-leave"),
    path(f"{drive}/entries/<int:entry_pk>/back/", views.entry_return, name="entry-return"),
    path(f"{drive}/entries/<int:entry_pk>/paid/", views.entry_paid, name="entry-paid"),
    path(f"{drive}/grid/", views.grid, name="grid"),
    path(f"{drive}/grid/links/", views.table_links, name="table-links"),
    path("table/<str:token>/", views.table_scorer, name="table-scorer"),
    path(f"{drive}/games/<int:game>/tables/<int:table>/", views.result_record, name="result"),
    path(f"{drive}/next/", views.game_next, name="next"),
    path(f"{drive}/wall/", views.wall, name="wall"),
    path(f"{drive}/prizes/", views.prize_list, name="prizes"),
    path(f"{drive}/prizes.pdf", views.prize_pdf, name="prizes-pdf"),
    path(f"{drive}/prizes/tie/", views.tiebreak_record, name="tiebreak"),
    path(f"{drive}/prizes/tie/undo/", views.tiebreak_undo, name="tiebreak-undo"),
]
