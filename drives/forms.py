from django import forms

from drives.models import Drive, TieBreak
from drives.services import FIXED_ONCE_STARTED, PRESETS
from league.models import validate_date


class PresetForm(forms.Form):
    """Setting up a drive, step one (a GET): a kind of night fills in the form below it.
    Nothing is saved from it: what the drive form shows and holds is what is saved."""

    preset = forms.ChoiceField(
        label="Kind of night",
        choices=[("", "Set it myself")] + [(k, p["label"]) for k, p in PRESETS.items()],
        required=False,
        help_text="Fills in the settings below. Nothing is saved yet.",
    )

    def chosen(self) -> dict | None:
        """The chosen kind of night's settings (its label too), or None."""
        if self.is_valid() and self.cleaned_data["preset"]:
            return PRESETS[self.cleaned_data["preset"]]
        return None


class DriveForm(forms.Form):
    name = forms.CharField(max_length=100, initial="Card drive")
    # A date box reads only ISO dates: the locale's 04/12/2026 left it blank.
    date = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        validators=[validate_date],  # the years a league's dates are kept in
    )
    pub = forms.ModelChoiceField(queryset=None, label="Venue", empty_label=None)
    format = forms.ChoiceField(choices=Drive.Format.choices, initial=Drive.Format.PARTNERS)
    table_size = forms.TypedChoiceField(
        label="Seats at a table", choices=[(n, n) for n in (3, 4, 5, 6)], coerce=int, initial=4
    )
    games = forms.IntegerField(min_value=1, max_value=60, initial=20)
    # Radio buttons: each long choice read whole, not cut off in a closed list on a phone.
    movement = forms.ChoiceField(
        choices=Drive.Movement.choices,
        initial=Drive.Movement.WINNERS_MOVE,  # what the closed list showed first
        widget=forms.RadioSelect,
    )
    places = forms.IntegerField(label="Prizes by games won", min_value=1, max_value=10, initial=3)
    jackpot = forms.IntegerField(label="Jackpot at wins", min_value=1, max_value=60, required=False)
    booby = forms.BooleanField(label="Booby prize for the fewest wins", required=False)
    cookie_jar = forms.CharField(
        label="Cookie-jar games", required=False, help_text="Game numbers, for example 5, 12, 18"
    )
    tie_rule = forms.ChoiceField(label="Ties for a prize", choices=Drive.TieRule.choices)
    entry_fee = forms.DecimalField(
        label="Entry fee (€)", min_value=0, max_value=1000, decimal_places=2, required=False
    )

    def __init__(self, *args, pubs, started=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pub"].queryset = pubs
        if started:  # drives.services.FIXED_ONCE_STARTED: shown, not sent
            for name in FIXED_ONCE_STARTED:
                self.fields[name].disabled = True
                self.fields[name].help_text = "Set for the night: game 1 has started."

    @staticmethod
    def settings_of(drive: Drive) -> dict:
        """A drive's settings as the form's first values, to put right."""
        initial = {name: getattr(drive, name) for name in DriveForm.base_fields}
        initial["cookie_jar"] = ", ".join(str(game) for game in drive.cookie_jar)
        return initial

    def clean_cookie_jar(self):
        text = self.cleaned_data["cookie_jar"].replace(",", " ").split()
        if not all(t.isdigit() and len(t) < 4 for t in text):
            raise forms.ValidationError("Write game numbers only, for example 5, 12, 18.")
        return sorted({int(t) for t in text})

    @staticmethod
    def initial_for(preset: dict | None) -> dict:
        """The form's first values for a kind of night (none chosen: the fields' own)."""
        if preset is None:
            return {}
        return {"booby": False, **{k: v for k, v in preset.items() if k != "label"}}


class EntryForm(forms.Form):
    name = forms.CharField(max_length=100, label="Name")
    partner_name = forms.CharField(
        max_length=100, label="Partner (if they have one)", required=False
    )
    paid = forms.BooleanField(label="Paid the entry fee", required=False)


class EntryNameForm(forms.Form):
    """A name typed wrong at the door, put right: a pair's two names, or a single's one
    (`drives.services.entry_rename` says what is missing or taken)."""

    name = forms.CharField(max_length=100, label="Name")
    partner_name = forms.CharField(max_length=100, label="Partner", required=False)

    def __init__(self, *args, pair: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if not pair:
            del self.fields["partner_name"]
        for field in self.fields.values():
            field.widget.attrs.update(autocomplete="off", list="league-players")


class ResultForm(forms.Form):
    side = forms.IntegerField(min_value=0, max_value=5)


class TableResultForm(ResultForm):
    """A table's scorer link: the game the page showed, so a stale page cannot write
    into the next game."""

    game = forms.IntegerField(min_value=1, max_value=60)


class TieBreakForm(forms.Form):
    place = forms.IntegerField(min_value=1, max_value=10)
    winner = forms.IntegerField(min_value=1)
    method = forms.ChoiceField(choices=TieBreak.Method.choices)
