"""`{% error_summary form %}`: at the top of a form sent back with mistakes, "Nothing was
saved" and each mistake as a link to its field, so a mistake in a long form's last
fieldset is seen where the page opens, not a screen below the Save button. The form's
own errors (not of one field) are shown by the form itself, as before."""

from django import template

register = template.Library()


@register.inclusion_tag("_error_summary.html")
def error_summary(form):
    mistakes = [(field, error) for field in form.visible_fields() for error in field.errors]
    return {"mistakes": mistakes}
