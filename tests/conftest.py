"""Shared test set-up: the real-server markers."""

from __future__ import annotations

import os

import pytest
from django.conf import settings


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip a test that needs an unconfigured server locally; fail it under ``CI=true``."""
    available = {
        "postgres": settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql",
        "redis": not settings.CELERY_TASK_ALWAYS_EAGER,
    }
    for marker, ok in available.items():
        if item.get_closest_marker(marker) is None or ok:
            continue
        message = f"needs {marker}, which is not configured for this run"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{message}; CI=true forbids skipping it", pytrace=False)
        pytest.skip(message)
