"""QR codes for links people scan across the table: scorer links, invitations, drive
tables. Inline SVG with no style attribute (the pages' CSP allows none), a role and a
title for screen readers."""

import segno
from django.utils.safestring import mark_safe


def qr_svg(url: str, *, title: str, scale: int = 6) -> str:
    svg = segno.make(url, error="m").svg_inline(
        scale=scale, border=4, omitsize=True, svgclass="qr", lineclass=None, title=title
    )
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))  # noqa: S308 (segno's markup)
