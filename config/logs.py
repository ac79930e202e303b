"""How the web processes' log lines look: one line each, with the time, level and logger.

Every program of ``make serve-cached`` writes to supervisord's one output, so a line must
say when and from where; Django's default console line was the bare message. A request
Django refuses as suspicious (``django.security.*``: a scanner's ``Host: 1.2.3.4`` not in
``ALLOWED_HOSTS``, a forged session) was logged at ERROR with a 12-line traceback of
Django's own code, dozens a minute on a public address: it is the client's fault, answered
400, so :class:`ClientFaultsOneLine` keeps its message, as a warning, on one line.
"""

from __future__ import annotations

import logging


class ClientFaultsOneLine(logging.Filter):
    """Log a ``django.security`` record as a one-line warning; leave every other alone."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("django.security.") and record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True
