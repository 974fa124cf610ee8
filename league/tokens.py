"""Secrets in addresses that someone may have to type into a phone, read off a page or
a card when a camera will not scan the code: small letters and digits, none that looks
like another (no 0 and o, no 1, l and i). Twenty of these 31 are 99 bits, beyond
guessing."""

import secrets

from django.shortcuts import get_object_or_404

CHARACTERS = "23456789abcdefghjkmnpqrstuvwxyz"


def typeable_token(length: int = 20) -> str:
    return "".join(secrets.choice(CHARACTERS) for _ in range(length))


def get_by_token(queryset, token: str, **lookups):
    """The object of `queryset` with this token, as given or, if it was typed in
    capitals, in small letters (tokens made before these were in both); else a 404."""
    found = queryset.filter(token=token, **lookups).first()
    return found or get_object_or_404(queryset, token=token.lower(), **lookups)
