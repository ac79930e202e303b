"""gunicorn's access log without the health probes (``--logger-class`` in
config/supervisord.conf).

A load balancer asks ``/healthz`` every few seconds on every host: one access line each,
thousands a day, between the requests an operator reads. A probe answered 200 is not
logged; one answered otherwise (503: the database is down) is, as every other request.

With ``--reuse-port`` (config/supervisord.conf) each worker opens its own socket and the
master has none when it says where it listens: gunicorn 27 printed "Listening at:  (pid)".
The line names the addresses gunicorn was told to bind instead.

Under supervisord every program writes to one stream, and every line names its program
(``LOG_PROGRAM``, set by config/supervisord.conf): gunicorn's own lines and its access
lines carry it too, after the time and level as Django's and Celery's lines do.
"""

from __future__ import annotations

import os
from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

HEALTH = "/healthz"


class QuietProbes(Logger):  # type: ignore[misc]
    """gunicorn's own logger, but a healthy probe's access line, and where it listens said
    with ``--reuse-port`` too."""

    def __init__(self, cfg: Any) -> None:
        program = os.environ.get("LOG_PROGRAM", "").strip().replace("%", "%%")
        if program:
            self.error_fmt = f"%(asctime)s [%(process)d] [%(levelname)s] {program} %(message)s"
            self.access_fmt = f"{program} %(message)s"
        super().__init__(cfg)

    def info(self, msg: str, *args: Any, **kwargs: Any) -> None:
        if msg.startswith("Listening at: %s") and args and not args[0]:
            bound = ",".join(f"http://{address}" for address in self.cfg.bind)
            args = (f"{bound} (each worker's own socket: --reuse-port)", *args[1:])
        super().info(msg, *args, **kwargs)

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        status = str(getattr(resp, "status", "") or "")
        if environ.get("PATH_INFO") == HEALTH and status.startswith("200"):
            return
        super().access(resp, req, environ, request_time)
