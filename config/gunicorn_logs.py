"""gunicorn's access log without the health probes (``--logger-class`` in
config/supervisord.conf).

A load balancer asks ``/healthz`` every few seconds on every host: one access line each,
thousands a day, between the requests an operator reads. A probe answered 200 is not
logged; one answered otherwise (503: the database is down) is, as every other request.
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

HEALTH = "/healthz"


class QuietProbes(Logger):  # type: ignore[misc]
    """gunicorn's own logger, but a healthy probe's access line."""

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        status = str(getattr(resp, "status", "") or "")
        if environ.get("PATH_INFO") == HEALTH and status.startswith("200"):
            return
        super().access(resp, req, environ, request_time)
