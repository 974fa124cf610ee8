"""The shapes of what the sheet posts. The rules, not these forms, decide whether a deal
is legal: the forms only read numbers, so every refusal is the rules' plain sentence.

Three ways to enter a deal (`mode`):
- **split**: two sides; `first` is how many tricks the first side took, the other side
  has the rest.
- **count**: a number of tricks per side (`tricks_0`, `tricks_1`, …).
- **order**: the side that won each trick (`trick_1` … `trick_5`); a short deal stops at
  the first blank. Counts, when also given, must match (the rules check).
"""

from django import forms

import rules

MODES = [("split", "split"), ("count", "count"), ("order", "order")]
OUT_OF_DATE = "This form is out of date: reload the page and enter the deal again."
OUT_OF_DATE_MESSAGES = {
    "required": OUT_OF_DATE,
    "invalid": OUT_OF_DATE,
    "invalid_choice": OUT_OF_DATE,
    "min_value": OUT_OF_DATE,
    "max_value": OUT_OF_DATE,
}
COUNT = dict.fromkeys(
    ("invalid", "min_value", "max_value"), "Tricks are counted in whole numbers, from 0 to 5."
)
SIDE = dict.fromkeys(("invalid", "min_value", "max_value"), "Tap one of the sides.")
BONUS_UNANSWERED = "Tap who won the highest trump, or “No trump played”."
# Limits well outside the rules' own ranges, so the rules say what is wrong with a 6 or
# a 7 in plain words; they only keep absurd numbers away from the database.
DEAL_NUMBER = {"min_value": -99, "max_value": 99}
VERSION = {"min_value": 0, "max_value": 2**31 - 1}  # the game's PositiveIntegerField


class DealForm(forms.Form):
    key = forms.UUIDField(widget=forms.HiddenInput, error_messages=OUT_OF_DATE_MESSAGES)
    version = forms.IntegerField(
        widget=forms.HiddenInput, error_messages=OUT_OF_DATE_MESSAGES, **VERSION
    )
    mode = forms.ChoiceField(
        choices=MODES, widget=forms.HiddenInput, error_messages=OUT_OF_DATE_MESSAGES
    )
    dealer = forms.IntegerField(
        error_messages=dict.fromkeys(
            ("required", "invalid", "min_value", "max_value"), "Choose who dealt."
        ),
        **DEAL_NUMBER,
    )
    first = forms.IntegerField(required=False, error_messages=COUNT, **DEAL_NUMBER)
    bonus_side = forms.IntegerField(required=False, error_messages=SIDE, **DEAL_NUMBER)
    # Sent by a form that asks who won the highest trump: a deal played out to 5 tricks
    # must then answer it ("No trump played" sends an empty `bonus_side`), and a shorter
    # one's answer, tapped before play stopped at the target, is not asked for. A deal
    # posted without the question may leave the bonus out, as the rules allow.
    bonus_asked = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, game, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        for side in range(game.sides):
            self.fields[f"tricks_{side}"] = forms.IntegerField(
                required=False, error_messages=COUNT, **DEAL_NUMBER
            )
        for trick in range(1, 6):
            self.fields[f"trick_{trick}"] = forms.IntegerField(
                required=False, error_messages=SIDE, **DEAL_NUMBER
            )

    def clean(self):
        data = super().clean()
        mode = data.get("mode")
        if mode == "split":
            first = data.get("first")
            if first is None:
                raise forms.ValidationError("Tap how many tricks the first side took.")
            if self.game.sides != 2:
                raise forms.ValidationError("The split is for two sides; enter each side's tricks.")
            data["tricks"] = [first, 5 - first]
            data["trick_winners"] = None
        elif mode == "order":
            winners = self._winners(data)
            counts = self._counts(data)
            data["trick_winners"] = winners
            if any(count is not None for count in counts):
                data["tricks"] = [count for count in counts if count is not None]
            else:
                data["tricks"] = [winners.count(side) for side in range(self.game.sides)]
        elif mode == "count":
            counts = self._counts(data)
            if all(count is None for count in counts):
                raise forms.ValidationError("Enter the tricks each side took.")
            # A missing count leaves one count too few: the rules say so in plain words.
            data["tricks"] = [count for count in counts if count is not None]
            data["trick_winners"] = None
        if data.get("bonus_asked"):
            if sum(data.get("tricks") or []) < 5:
                data["bonus_side"] = None  # play stopped at the target: no bonus to give
            elif "bonus_side" not in self.data:
                raise forms.ValidationError(BONUS_UNANSWERED)
        return data

    def _counts(self, data):
        return [data.get(f"tricks_{side}") for side in range(self.game.sides)]

    def _winners(self, data):
        winners = []
        for trick in range(1, 6):
            side = data.get(f"trick_{trick}")
            if side is None:
                break
            winners.append(side)
        later = [data.get(f"trick_{t}") for t in range(len(winners) + 2, 6)]
        if any(side is not None for side in later):
            raise forms.ValidationError(
                f"Trick {len(winners) + 1} has no winner; tap who won each trick in order."
            )
        if not winners:
            raise forms.ValidationError("Tap who won the first trick.")
        return winners

    def deal_kwargs(self) -> dict:
        data = self.cleaned_data
        return {
            "dealer": data["dealer"],
            "tricks": data["tricks"],
            "trick_winners": data["trick_winners"],
            "bonus_side": data.get("bonus_side"),
            "key": data["key"],
            "version": data["version"],
        }


class CorrectionForm(DealForm):
    reason = forms.CharField(max_length=200, required=False)


class VersionForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, **VERSION)


class LinkForm(forms.Form):
    side = forms.IntegerField(required=False, min_value=0, max_value=9)


class StartForm(forms.Form):
    number = forms.IntegerField(min_value=1, max_value=50, widget=forms.HiddenInput)
    first_dealer = forms.IntegerField(
        min_value=0, max_value=9, error_messages={"required": "Choose who deals."}
    )


class FriendlyForm(forms.Form):
    ruleset = forms.ChoiceField(
        label="Game", choices=[(key, r.name) for key, r in rules.RULESETS.items()]
    )
    sides = forms.CharField(
        label="Sides, one a line, in seat order",
        widget=forms.Textarea(attrs={"rows": 4, "aria-describedby": "id_sides-help"}),
        help_text="A team name, or for individual play the name of a player of this pub.",
    )
    first_dealer = forms.IntegerField(
        label="Who deals first (the number of the line)", min_value=1, max_value=10, initial=1
    )

    def clean(self):
        data = super().clean()
        names = [line.strip() for line in data.get("sides", "").splitlines() if line.strip()]
        if len({name.casefold() for name in names}) != len(names):  # "Bob" and "bob" too
            raise forms.ValidationError("Each side needs a name of its own.")
        if any(len(name) > 100 for name in names):
            raise forms.ValidationError("A side's name has at most 100 letters.")
        ruleset = rules.RULESETS.get(data.get("ruleset", ""))
        if ruleset is not None:
            try:
                ruleset.check_sides(len(names))
            except rules.UnsupportedSides as error:
                raise forms.ValidationError(str(error)) from None
        first = data.get("first_dealer")
        if first is not None and names and first > len(names):
            self.add_error("first_dealer", f"Choose a line from 1 to {len(names)}.")
        data["names"] = names
        return data
