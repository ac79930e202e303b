"""What a delete in the admin would take with it, counted, not listed.

Django's delete confirmation collects every row a delete cascades to and lists each one: a
played season of 1,141 games took 96 s to draw a 1.7 MB page of box lines (and its "delete
selected" action 116 s), past any server's timeout, so a commissioner could not delete it.
:func:`deletion_summary` walks the same cascades as SQL counts instead (a few dozen queries
whatever the size) and :class:`CountedDeleteAdmin` shows that: how many rows of each kind go,
and what stops the delete (a protected row that would be left pointing at nothing). The
delete itself is Django's own, in one transaction.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import admin
from django.db import models
from django.db.models import Model, Q, QuerySet
from django.http import HttpRequest
from django.utils.text import capfirst

M = TypeVar("M", bound=Model)

_REMOVES = {models.CASCADE}
_STOPS = {models.PROTECT, models.RESTRICT}


def deletion_summary(
    queryset: QuerySet[Any],
) -> tuple[dict[type[Model], int], dict[type[Model], int]]:
    """Return, by model, how many rows deleting ``queryset`` deletes (itself included) and
    how many rows of another model protect them (the delete would be refused). A row reached
    by two cascades (a card through its team and through its player) counts once."""
    deleted: dict[type[Model], list[QuerySet[Any]]] = {}
    protected: dict[type[Model], list[QuerySet[Any]]] = {}
    _walk(queryset, deleted, protected, depth=0)
    return _union_counts(deleted), _union_counts(protected)


def _union_counts(found: dict[type[Model], list[QuerySet[Any]]]) -> dict[type[Model], int]:
    counts = {}
    for model, querysets in found.items():
        rows = Q()
        for each in querysets:
            rows |= Q(pk__in=each.values("pk"))
        n = model._base_manager.filter(rows).count()
        if n:
            counts[model] = n
    return counts


def _walk(
    queryset: QuerySet[Any],
    deleted: dict[type[Model], list[QuerySet[Any]]],
    protected: dict[type[Model], list[QuerySet[Any]]],
    depth: int,
) -> None:
    if not queryset.exists():
        return
    model = queryset.model
    deleted.setdefault(model, []).append(queryset)
    if depth > 8:  # no cascade of this project is this deep; a cycle would be
        return
    for rel in model._meta.related_objects:
        if rel.many_to_many or not isinstance(rel, models.ForeignObjectRel):
            continue
        on_delete = getattr(rel, "on_delete", None)
        related = rel.related_model._base_manager.filter(**{f"{rel.field.name}__in": queryset})
        if on_delete in _REMOVES:
            _walk(related, deleted, protected, depth + 1)
        elif on_delete in _STOPS and related.exists():
            protected.setdefault(rel.related_model, []).append(related)


def _counted(counts: dict[type[Model], int]) -> list[str]:
    """Return "Box lines: 23,456" for each model counted."""
    out = []
    for model, n in counts.items():
        name = model._meta.verbose_name if n == 1 else model._meta.verbose_name_plural
        out.append(f"{capfirst(str(name))}: {n:,}")
    return out


class CountedDeleteAdmin(admin.ModelAdmin[M]):
    """A model admin whose delete confirmation counts what goes instead of listing it."""

    def get_deleted_objects(
        self, objs: Any, request: HttpRequest
    ) -> tuple[list[Any], dict[str, int], set[str], list[Any]]:
        objs = list(objs)
        queryset = self.model._base_manager.filter(pk__in=[obj.pk for obj in objs])
        deleted, protected = deletion_summary(queryset)
        model_count = {str(model._meta.verbose_name_plural): n for model, n in deleted.items()}
        perms_needed = set()
        for model in deleted:
            opts = model._meta
            if not request.user.has_perm(f"{opts.app_label}.delete_{opts.model_name}"):
                perms_needed.add(str(opts.verbose_name))
        label = capfirst(str(self.model._meta.verbose_name))
        to_delete: list[Any] = [f"{label}: {obj}" for obj in objs]
        rest = {m: n for m, n in deleted.items() if m is not self.model}
        if rest:
            # What goes with them, counted: a list would hold every box line of every game.
            to_delete += ["With " + ("it" if len(objs) == 1 else "them") + ":", _counted(rest)]
        return to_delete, model_count, perms_needed, _counted(protected)
