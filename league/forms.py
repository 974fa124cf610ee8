"""The shape of the set-up forms. They check input; the services in league/services.py
decide and save."""

import re

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.template.defaultfilters import pluralize
from django.utils.text import slugify

import rules
from league import services
from league.models import EARLIEST, LATEST, Fixture, Season, validate_date, validate_tiebreaks
from league.names import key as name_key
from league.names import loose


def date_field(**kwargs) -> forms.DateField:
    """A date picker that takes only dates from EARLIEST to LATEST."""
    widget = forms.DateInput(
        attrs={"type": "date", "min": EARLIEST.isoformat(), "max": LATEST.isoformat()},
        format="%Y-%m-%d",
    )
    return forms.DateField(widget=widget, validators=[validate_date], **kwargs)


def _tiebreak_key(text: str) -> str | None:
    """A tie-break by its key ("head_to_head") or its words ("head-to-head")."""
    words = " ".join(text.replace("_", " ").replace("-", " ").split()).casefold()
    for key, label in Season.TIEBREAKS.items():
        if words in (key.replace("_", " "), label.replace("-", " ").casefold()):
            return key
    return None


def tiebreaks_in_words(keys) -> str:
    """Tie-break keys in the words the season form shows, league points left out (they
    always come first)."""
    return ", ".join(Season.TIEBREAKS[key] for key in keys if key != "points")


class KeepsEditsMeanwhile:
    """For a form that changes a record two people may have open at once (two tabs, or
    the secretary and a pub's organiser). Each field also sends, hidden, the value the
    page showed (Django's `show_hidden_initial`), so a save can tell this person's
    changes from what someone else saved meanwhile (`on_top_of`): theirs are kept, and
    a field both changed, to different values, is refused with theirs named. A request
    without the hidden values (an outside client) saves what it sends, as before."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.show_hidden_initial = True
        self.kept_theirs = []  # labels of the fields someone else changed meanwhile

    def on_top_of(self, make):
        """`make(data)` makes a form like this one for the record as it is now (read
        under its lock), bound to `data`. The form it returns is bound to this person's
        changes on top of the record as it is, its hidden values showing it as it is;
        where both changed a field differently, it has an error naming theirs."""
        now = make(None).initial
        data, clashes, kept = self.data.copy(), [], []
        for name, field in self.fields.items():
            shown_as = self.add_initial_prefix(name)
            if field.disabled or shown_as not in self.data:
                continue
            shown = field.hidden_widget().value_from_datadict(self.data, self.files, shown_as)
            theirs, sent = now.get(name), _as_sent(field, now.get(name))
            data[shown_as] = sent
            if not field.has_changed(theirs, shown):
                continue  # nobody else changed it
            if name not in self.changed_data:
                data[self.add_prefix(name)] = sent  # only they changed it: theirs stays
                kept.append(self[name].label)
            elif field.has_changed(theirs, self[name].data):
                clashes.append((name, _in_words_of(field, theirs)))
        form = make(data)
        form.kept_theirs = kept
        form.is_valid()  # its own checks first, then the clashes beside them
        for name, theirs in clashes:
            form.add_error(
                name,
                f"Someone else saved {theirs} here while you had this page open. Save "
                "again to put yours in its place.",
            )
        return form


def _as_sent(field: forms.Field, value) -> str:
    """`value` as the browser sends it for `field`."""
    value = field.hidden_widget().format_value(field.prepare_value(value))
    return "" if value is None else str(value)


def _in_words_of(field: forms.Field, value) -> str:
    """A field's value as a secretary reads it in a message."""
    if isinstance(field, forms.BooleanField):
        return "“ticked”" if value else "“not ticked”"
    if value in (None, ""):
        return "an empty box"
    if isinstance(field, forms.ChoiceField) and not isinstance(field, forms.ModelChoiceField):
        value = dict(field.choices).get(value, value)
    if hasattr(value, "strftime"):
        value = value.strftime("%-d %B %Y")
    return f"“{value}”"


class SeasonForm(KeepsEditsMeanwhile, forms.Form):
    name = forms.CharField(max_length=100, help_text="For example “Winter 2026”.")
    start_date = date_field()
    end_date = date_field(required=False)
    status = forms.ChoiceField(choices=Season.Status.choices, initial=Season.Status.PLANNING)
    ruleset_key = forms.ChoiceField(
        label="Rules preset",
        choices=[(key, ruleset.name) for key, ruleset in rules.RULESETS.items()],
        initial="twenty-five",
        error_messages={"invalid_choice": "Unknown rules preset “%(value)s”."},
    )
    target = forms.IntegerField(
        label="Points to win a game",
        required=False,
        min_value=1,
        max_value=500,
        help_text="Leave blank for the preset's: "
        + ", ".join(f"{r.target} in {r.name}" for r in rules.RULESETS.values())
        + ".",
    )
    march_bonus = forms.IntegerField(
        label="Extra points for a march",
        min_value=0,
        max_value=100,
        initial=0,
        help_text="A house rule: added to a deal's points when one side takes all five "
        "tricks (a march, or jink). 0 for none.",
    )
    march_wins = forms.BooleanField(
        label="A march wins the game outright",
        required=False,
        help_text="A house rule: all five tricks win the game, whatever the score.",
    )
    points_win = forms.IntegerField(
        label="League points for a win", min_value=0, max_value=100, initial=2
    )
    points_loss = forms.IntegerField(
        label="League points for a loss", min_value=0, max_value=100, initial=0
    )
    points_shutout = forms.IntegerField(
        label="Extra league points for a shutout win", min_value=0, max_value=100, initial=1
    )
    tiebreaks = forms.CharField(
        label="Tie-break order",
        required=False,
        initial=tiebreaks_in_words(Season.DEFAULT_TIEBREAKS),
        widget=forms.Textarea(attrs={"rows": 2}),  # all of it in view on a phone
        help_text="League points always come first. Then the tie-breaks, in order, separated "
        f"by commas, from: {tiebreaks_in_words(Season.TIEBREAKS)}. "
        "Left empty, they are in that usual order.",
    )
    min_games = forms.IntegerField(
        label="Minimum games for the player table", min_value=0, max_value=1000, initial=5
    )
    confirmed_only = forms.BooleanField(label="Only confirmed games count", required=False)
    divisions = forms.CharField(
        required=False,
        help_text="Optional: division names separated by commas, e.g. “North, South”.",
    )

    FIELDSETS = [
        ("The season", ["name", "start_date", "end_date", "status", "divisions"]),
        ("Rules", ["ruleset_key", "target", "march_bonus", "march_wins"]),
        ("League points", ["points_win", "points_loss", "points_shutout"]),
        ("Tables", ["tiebreaks", "min_games", "confirmed_only"]),
    ]

    def __init__(self, *args, season: Season | None = None, with_divisions=True, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season
        if not with_divisions:
            del self.fields["divisions"]

    def fieldsets(self):
        """(legend, bound fields) in the order the page shows them."""
        return [
            (legend, [self[name] for name in names if name in self.fields])
            for legend, names in self.FIELDSETS
        ]

    def clean_tiebreaks(self):
        keys = []
        for part in self.cleaned_data["tiebreaks"].split(","):
            if not part.strip():
                continue
            key = _tiebreak_key(part)
            if key is None:
                choices = tiebreaks_in_words(Season.TIEBREAKS)
                raise forms.ValidationError(f"Unknown tie-break “{part.strip()}”. Use: {choices}.")
            if key in keys:
                raise forms.ValidationError(f"“{part.strip()}” is in the order twice.")
            keys.append(key)
        if keys and "points" not in keys:
            keys.insert(0, "points")  # league points always rank the table first
        validate_tiebreaks(keys)
        return keys

    def clean_divisions(self):
        names = [n.strip() for n in self.cleaned_data["divisions"].split(",") if n.strip()]
        if len({n.casefold() for n in names}) != len(names):
            raise forms.ValidationError("The same division is named twice.")
        if any(len(n) > 50 for n in names):
            raise forms.ValidationError("A division name has at most 50 characters.")
        return names

    def clean(self):
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", "The season cannot end before it starts.")
        problem = Season.points_problem(win=data.get("points_win"), loss=data.get("points_loss"))
        if problem:
            self.add_error("points_loss", problem)
        if self.season:
            # A closed season that stays closed keeps what decides its tables.
            for name, problem in self.season.closed_problems(data).items():
                self.add_error(name, problem)
        return data

    @classmethod
    def initial_for(cls, season: Season) -> dict:
        initial = {name: getattr(season, name) for name in cls.base_fields if name != "divisions"}
        initial["tiebreaks"] = tiebreaks_in_words(season.tiebreak_order)
        return initial


class PubForm(KeepsEditsMeanwhile, forms.Form):
    name = forms.CharField(max_length=100)
    town = forms.CharField(max_length=100, required=False)


class TeamForm(KeepsEditsMeanwhile, forms.Form):
    name = forms.CharField(label="Team name", max_length=100)
    pub = forms.ModelChoiceField(queryset=None, label="Home pub", empty_label=None)
    division = forms.ModelChoiceField(queryset=None, required=False, empty_label="No division")
    player_1 = forms.CharField(label="Player 1", max_length=100)
    player_2 = forms.CharField(label="Player 2", max_length=100)
    player_3 = forms.CharField(
        label="Player 3", max_length=100, required=False, help_text="Only for six-hand teams."
    )

    def __init__(self, *args, season: Season, pubs, may_place=True, **kwargs):
        """`may_place`: whether this person may move the team between divisions (the
        secretary); for a pub's organiser the division is shown, and kept as it is."""
        super().__init__(*args, **kwargs)
        self.fields["pub"].queryset = pubs
        divisions = season.divisions.all()
        self.fields["division"].queryset = divisions
        if not divisions.exists():
            del self.fields["division"]
        elif season.status == Season.Status.FINISHED:  # its final table stands
            self.fields["division"].disabled = True
            self.fields[
                "division"
            ].help_text = (
                f"{season.name} is finished: its teams stay in the divisions they finished in."
            )
        elif not may_place:
            self.fields["division"].disabled = True
            self.fields[
                "division"
            ].help_text = "Only the league secretary moves a team between divisions."
        for name in ("player_1", "player_2", "player_3"):
            self.fields[name].widget.attrs.update(list="league-players", autocomplete="off")

    def team_fields(self) -> dict:
        """What `services.team_create` and `team_update` take from the form."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "pub": data["pub"],
            "player_names": data["player_names"],
            "division": data.get("division"),
        }

    def clean(self):
        data = super().clean()
        names = [data.get(f, "").strip() for f in ("player_1", "player_2", "player_3")]
        names = [n for n in names if n]
        if len({n.casefold() for n in names}) != len(names):
            raise forms.ValidationError("The same player is named twice.")
        data["player_names"] = names
        return data


class FixturesGenerateForm(forms.Form):
    start = date_field(label="First match night")
    double = forms.BooleanField(
        label="Double round (every pair meets twice, home and away)", required=False
    )
    games_planned = forms.IntegerField(
        label="Games a fixture", min_value=1, max_value=50, initial=5
    )
    replace = forms.BooleanField(
        label="Replace the fixtures already made (none has a result)", required=False
    )

    def __init__(self, *args, season: Season, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season
        made = season.fixtures.count()
        if made:
            self.fields[
                "replace"
            ].label = (
                f"Replace the {made} fixture{pluralize(made)} already made (none has a result)"
            )
        else:  # a new season's page offered to replace fixtures it does not have
            del self.fields["replace"]

    def clean_start(self):
        start = self.cleaned_data["start"]
        problem = self.season.match_night_problem(start)
        if problem:
            raise forms.ValidationError(problem)
        return start


class FixtureForm(KeepsEditsMeanwhile, forms.Form):
    date = date_field()
    pub = forms.ModelChoiceField(queryset=None, empty_label=None)
    home = forms.ModelChoiceField(queryset=None, label="Home team", empty_label="Choose a team")
    away = forms.ModelChoiceField(queryset=None, label="Away team", empty_label="Choose a team")
    third = forms.ModelChoiceField(
        queryset=None,
        label="Third team",
        required=False,
        empty_label="No third team",
        help_text="Only for tables of six.",
    )
    games_planned = forms.IntegerField(label="Games planned", min_value=1, max_value=50)
    status = forms.ChoiceField(choices=Fixture.Status.choices)

    # What only a secretary may change: an organiser moves the date and the status.
    SECRETARY_ONLY = ("pub", "home", "away", "third", "games_planned")
    # Set by `clean` when the games planned were lowered to those finished: played now.
    played_as_planned = False

    def __init__(
        self,
        *args,
        season: Season,
        pubs,
        fixture: Fixture | None = None,
        with_status=True,
        secretary=True,
        **kwargs,
    ):
        """`fixture` is the one being edited; none for a new one."""
        super().__init__(*args, **kwargs)
        self.season, self.fixture = season, fixture
        self.fields["pub"].queryset = pubs
        teams = season.teams.all()
        for name in ("home", "away", "third"):
            self.fields[name].queryset = teams
        if not with_status:
            del self.fields["status"]
        elif fixture is not None and fixture.in_play:  # said as its pages say it
            status = self.fields["status"]
            status.choices = [
                (value, "In play" if value == Fixture.Status.SCHEDULED else label)
                for value, label in Fixture.Status.choices
            ]
            status.help_text = (
                "A game of this match has started: it is played once its games are finished."
            )
        if not secretary:
            for name in self.SECRETARY_ONLY:
                del self.fields[name]

    def clean(self):
        data = super().clean()
        teams = [data.get(f) for f in ("home", "away", "third") if data.get(f)]
        if len({t.pk for t in teams}) != len(teams):
            raise forms.ValidationError("A team cannot play against itself.")
        data["teams"] = teams if "home" in self.fields else None
        self._check_status(data)
        return data

    def clean_date(self):
        date = self.cleaned_data["date"]
        if self.fixture is None or date != self.fixture.date:  # a new date, not an old one
            problem = self.season.match_night_problem(date)
            if problem:
                raise forms.ValidationError(problem)
        return date

    def _check_status(self, data: dict) -> None:
        """A played fixture stays played (see `Fixture.status_problem`); the message says
        what this person can do instead."""
        fixture = self.fixture
        if fixture is None:
            return
        planned = data.get("games_planned", fixture.games_planned)
        if data.get("status") == fixture.status == Fixture.Status.SCHEDULED and (
            planned != fixture.games_planned and 0 < fixture.games_finished >= planned
        ):  # planned down to the games finished (a match cut short): it is played
            data["status"] = Fixture.Status.PLAYED
            self.played_as_planned = True
        problem = fixture.status_problem(status=data.get("status"), games_planned=planned)
        if problem:
            more = (
                "To play more games, raise the games planned."
                if "games_planned" in self.fields
                else "A secretary can plan more games."
            )
            self.add_error("status", f"{problem} {more}")


class OrganiserForm(forms.Form):
    pub = forms.ModelChoiceField(queryset=None, empty_label=None)
    username = forms.CharField(
        label="Their email address or username",  # logins are made with an email address
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )
    password = forms.CharField(
        label="Initial password (only for a new user)",
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=(
            "Leave empty to give the pub to someone of this league who already has a login "
            "(a secretary, an organiser, a player)."
        ),
    )

    def __init__(self, *args, pubs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pub"].queryset = pubs


class ImportForm(forms.Form):
    file = forms.FileField(
        label="Spreadsheet (CSV or XLSX)",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx,text/csv"}),
    )


class ImportConfirmForm(forms.Form):
    rows = forms.CharField(widget=forms.HiddenInput)


class PlayerForm(KeepsEditsMeanwhile, forms.Form):
    name = forms.CharField(max_length=100)
    home_pub = forms.ModelChoiceField(queryset=None, required=False, empty_label="No home pub")

    def __init__(self, *args, pubs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["home_pub"].queryset = pubs


class SignUpForm(forms.Form):
    email = forms.EmailField(
        label="Email address",
        max_length=150,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
        help_text="You log in with it, and a forgotten password is reset through it.",
    )
    password1 = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text="At least 8 characters, not only numbers, not a common password.",
    )
    password2 = forms.CharField(
        label="Password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self):
        data = super().clean()
        if data.get("password1") and data.get("password1") != data.get("password2"):
            self.add_error("password2", "The two passwords differ.")
        return data


class LoginForm(AuthenticationForm):
    """The login. Sign-up keeps an email address in small letters (`account_create`):
    one typed with capitals, as at sign-up, is the same address."""

    def clean_username(self):
        username = self.cleaned_data["username"]
        return username.lower() if "@" in username else username


SLUG = re.compile(r"[-a-z0-9_]+")  # as the model's SlugField takes, once lowered


def _checked_name(text: str, *, what: str) -> str:
    """`text`, or the form's error saying why it cannot name a new `what` (the services'
    own words: `services.name_refusal`)."""
    refusal = services.name_refusal(text, what=what)
    if refusal:
        raise forms.ValidationError(refusal)
    return text


def _slug_advice(typed: str) -> str:
    """Why a typed web address will not do, in plain words, with one made from it to
    copy ("West Clare 25" gives “west-clare-25”; fadas go: “cill-rois”)."""
    said = "A web address takes only small letters, numbers and dashes, no spaces"
    suggestion = slugify(typed)[:50].strip("-")
    if suggestion:
        return f"{said}: for example “{suggestion}”."
    return f"{said}: for example “clare”."


class LeagueCreateForm(forms.Form):
    name = forms.CharField(
        label="League name", max_length=100, help_text="For example “Clare League”."
    )
    # A CharField, not a SlugField: its "Enter a valid “slug”" means nothing to a
    # secretary; clean_slug says what an address may hold and offers one.
    slug = forms.CharField(
        label="Web address",
        max_length=50,
        help_text="The end of the league's web address: small letters, numbers and dashes, "
        "e.g. “clare”.",
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )
    pubs = forms.CharField(
        label="Pubs",
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 4}),
        error_messages={"required": "Give at least one pub."},
        help_text="One a line, with its town after a comma: “The Harbour Bar, Kilrush”. "
        "You can add more later.",
    )
    season_name = forms.CharField(
        label="First season", max_length=100, initial="", help_text="For example “Winter 2026”."
    )
    start_date = date_field(label="First match night")
    ruleset_key = SeasonForm.base_fields["ruleset_key"]
    target = SeasonForm.base_fields["target"]
    march_bonus = SeasonForm.base_fields["march_bonus"]
    march_wins = SeasonForm.base_fields["march_wins"]

    FIELDSETS = [
        ("The league", ["name", "slug", "pubs"]),
        ("The first season", ["season_name", "start_date"]),
        ("Its rules", ["ruleset_key", "target", "march_bonus", "march_wins"]),
    ]

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def fieldsets(self):
        return [(legend, [self[name] for name in names]) for legend, names in self.FIELDSETS]

    def clean_slug(self):
        from league.models import League

        slug = self.cleaned_data["slug"].lower()
        if not SLUG.fullmatch(slug):
            raise forms.ValidationError(_slug_advice(slug))
        if slug in League.RESERVED_SLUGS:
            raise forms.ValidationError(f"“{slug}” is a page of the site; choose another.")
        taken = League.objects.filter(slug=slug).first()  # said with the form's other mistakes
        if taken is not None and taken.secretaries.filter(pk=self.user.pk).exists():
            raise forms.ValidationError(
                f"The address “{slug}” is for {taken.name} already, a league you run; "
                "choose another for a new league."
            )
        if taken is not None:
            raise forms.ValidationError(League.address_taken(slug))
        return slug

    # The names are checked here as the services check them when they save, so that
    # every mistake is said at once, beside its answer.
    def clean_name(self):
        return _checked_name(self.cleaned_data["name"], what="league")

    def clean_season_name(self):
        return _checked_name(self.cleaned_data["season_name"], what="season")

    def clean_pubs(self):
        """(name, town) of each line; a mistake said for each line that has one."""
        lines = []
        for number, line in enumerate(self.cleaned_data["pubs"].splitlines(), start=1):
            name, _, town = line.partition(",")
            if line.strip():
                lines.append((number, name.strip(), town.strip()))
        if not lines:
            raise forms.ValidationError("Give at least one pub.")
        if len(lines) > 100:
            raise forms.ValidationError("At most 100 pubs at once.")
        mistakes, first_named = [], {}
        for number, name, town in lines:
            first, first_name = first_named.setdefault(loose(name), (number, name))
            if refusal := services.name_refusal(name, what="pub") or services.town_refusal(town):
                mistake = refusal
            elif first != number and name_key(first_name) == name_key(name):
                mistake = f"The same pub is named twice, on line {first} and here."
            elif first != number:
                mistake = services.pub_alike(name, town, first_name, f"on line {first}")
            else:
                continue
            mistakes.append(f"Line {number}: {mistake[0].lower()}{mistake[1:]}")
        if mistakes:
            raise forms.ValidationError(mistakes)
        return [(name, town) for _, name, town in lines]

    def season(self) -> dict:
        """The first season's fields, for league.services.season_create."""
        data = self.cleaned_data
        return {
            "name": data["season_name"],
            "start_date": data["start_date"],
            "status": Season.Status.PLANNING,
            "ruleset_key": data["ruleset_key"],
            "target": data["target"],
            "march_bonus": data["march_bonus"],
            "march_wins": data["march_wins"],
        }


class InviteForm(forms.Form):
    role = forms.ChoiceField(
        choices=[
            ("organiser", "Organiser of the pubs ticked below"),
            ("secretary", "Secretary (runs the whole league with you)"),
        ],
        initial="organiser",
        widget=forms.RadioSelect,
    )
    pubs = forms.ModelMultipleChoiceField(
        queryset=None, required=False, widget=forms.CheckboxSelectMultiple
    )
    email = forms.EmailField(
        label="Their email address (optional)",
        required=False,
        max_length=150,
        help_text="We email them the link, and only a login with this address can accept it. "
        "Leave empty to show the link or its QR code yourself.",
    )

    def __init__(self, *args, pubs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pubs"].queryset = pubs

    def clean(self):
        data = super().clean()
        if data.get("role") == "organiser" and not data.get("pubs"):
            self.add_error("pubs", "Tick at least one pub for the organiser.")
        return data


class DivisionForm(forms.Form):
    name = forms.CharField(label="New division", max_length=50)
