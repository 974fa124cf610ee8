"""`{% error_summary form %}`: at the top of a form sent back with mistakes, "Nothing was
saved" and each mistake: first the form's own (a refusal that is not one field's, such
as a match entered twice), then each field's as a link to it, so a mistake in a long
form's last fieldset is seen where the page opens, not a screen below the Save button.
Every form drawn with `{{ form.as_div }}` has it (templates/django/forms/div.html);
templates that draw their fields one by one call it themselves."""

from django import template

register = template.Library()


@register.inclusion_tag("_error_summary.html")
def error_summary(form):
    hidden = [error for field in form.hidden_fields() for error in field.errors]
    mistakes = [(None, error) for error in [*form.non_field_errors(), *hidden]]
    mistakes += [(field, error) for field in form.visible_fields() for error in field.errors]
    return {"mistakes": mistakes}
