"""Accounts: commissioners (a group with every permission on teams, cards and games) and fans."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser, Group, Permission

COMMISSIONER_GROUP = "Commissioner"
COMMISSIONER_APPS = ("cards", "league", "challenge", "table")


def commissioner_group_sync(**kwargs: Any) -> Group:
    """Create the Commissioner group and give it every permission of the league's apps.

    Runs after every ``migrate`` so models added later are covered too.
    """
    group, _ = Group.objects.get_or_create(name=COMMISSIONER_GROUP)
    perms = Permission.objects.filter(content_type__app_label__in=COMMISSIONER_APPS)
    group.permissions.add(*perms)
    return group


def commissioner_create(*, username: str, password: str | None = None) -> tuple[AbstractUser, str]:
    """Create (or promote) a commissioner: staff, in the Commissioner group. Return the password."""
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=username)
    password = password or (secrets.token_urlsafe(12) if created else "")
    if password:
        user.set_password(password)
    user.is_staff = True
    user.save()
    user.groups.add(commissioner_group_sync())
    return user, password


def is_commissioner(user: Any) -> bool:
    """Tell whether a user may edit: a superuser, or staff in the Commissioner group."""
    return bool(
        user.is_authenticated
        and user.is_active
        and (
            user.is_superuser
            or (user.is_staff and user.groups.filter(name=COMMISSIONER_GROUP).exists())
        )
    )
