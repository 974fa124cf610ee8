"""
gunicorn's access log without scorer tokens: `/games/s/<token>/` is written with the
first four characters of the token and "…", enough to tell links apart, too little
to use one. Every field of the line is cleaned (request line, path, referer, …).
Used by config/gunicorn.conf.py (`logger_class`).
"""

import re

from gunicorn.glogging import Logger

TOKEN = re.compile(r"(/games/s/)([A-Za-z0-9_-]{4})[A-Za-z0-9_%-]*")


def hide_tokens(text: str) -> str:
    return TOKEN.sub(r"\1\2…", text)


class TokenHidingLogger(Logger):
    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        return {
            key: hide_tokens(value) if isinstance(value, str) else value
            for key, value in atoms.items()
        }
