"""The shared research and spec folder (``../shared``) as the tests read it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings


def shared_file(relative: str) -> Path:
    """Return ``../shared/<relative>`` (settings.SHARED_DIR); skip locally when it is missing,
    fail under ``CI=true``, where the shared folder is always checked out beside the project."""
    path = Path(settings.SHARED_DIR) / relative
    if not path.exists():
        message = f"the shared data file {relative} is not in {settings.SHARED_DIR}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{message}; CI=true forbids skipping it", pytrace=False)
        pytest.skip(message)
    return path
