"""Logging filters for settings.LOGGING."""

import logging


class OneLineForRefusals(logging.Filter):
    """A refused request (403) or a bad Host header is one line in the log, without the
    traceback Django attaches: they are what a probe sends all day, not bugs."""

    def filter(self, record: logging.LogRecord) -> bool:
        refused = record.name == "django.request" and getattr(record, "status_code", None) == 403
        if refused or record.name.startswith("django.security."):
            record.exc_info = None
            record.exc_text = None
            record.stack_info = None
        return True
