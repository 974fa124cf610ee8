"""A league's data as one file: the secretary's download, and a new league made from
such a file (see scoring/league_data.py)."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from league.models import League
from league.permissions import require_secretary
from scoring.league_data import LeagueDataError, league_export, league_import

MAX_UPLOAD = 20 * 1024 * 1024


class LeagueImportForm(forms.Form):
    file = forms.FileField(
        label="The league's data (a ZIP file)",
        help_text="The file a secretary downloads from “Download all the league's data”.",
    )
    slug = forms.SlugField(
        label="Address",
        max_length=50,
        help_text="Letters, numbers and hyphens: the league's page will be /address/.",
    )
    name = forms.CharField(
        label="Name", max_length=100, required=False, help_text="Leave blank to keep the file's."
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError(
                f"This file is bigger than {MAX_UPLOAD // 1024 // 1024} MB: too big."
            )
        return upload


@login_required
def league_data_export(request, league_slug):
    league = get_object_or_404(League, slug=league_slug)
    require_secretary(request, league)
    response = HttpResponse(league_export(league), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{league.slug}-league-data.zip"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
def league_data_import(request):
    form = LeagueImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            league = league_import(
                data["file"].read(), slug=data["slug"], name=data["name"], user=request.user
            )
        except LeagueDataError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{league.name} is ready, with all its data.")
            return redirect("league:manage", league.slug)
    return render(request, "scoring/league_import.html", {"form": form})
