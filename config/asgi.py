"""ASGI entry point."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()

from league import background  # noqa: E402  (the apps must be ready first)

# With no broker, this web process runs the tasks in threads of its own after answering.
background.serve_in_process()
