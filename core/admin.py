"""What every change form of the admin shares."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib import admin
from django.db.models import Model
from django.forms import ModelForm
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

M = TypeVar("M", bound=Model)


def lines_html(text: str) -> SafeString:
    """Return a refusal listing its problems one a line (the engine's roster checks, joined
    by "\n") as the admin shows it: each on a line of its own, as the import page lists
    them. HTML reads a newline as a space, and ran "has 0 players: slot 1 (PG) has no
    starter: slot 2 ..." together on one line."""
    return format_html_join(mark_safe("<br>"), "{}", ((line,) for line in text.split("\n")))


class StoredTitleAdmin(admin.ModelAdmin[M]):
    """A change form sent back with errors names the row as it is stored.

    Django validates a form into the row it edits, so a refused save drew the heading and
    the breadcrumb from the refused values (a trial renamed a team "Alabama Z", was
    refused for another field, and saw "Alabama Z 1977" on a row still named "Alabama")."""

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Any = None,
    ) -> HttpResponse:
        # A change form is drawn after a POST only when it was not saved.
        if change and obj is not None and request.method == "POST":
            stored = type(obj)._default_manager.filter(pk=obj.pk).first()
            if stored is not None:
                context = {**context, "original": stored, "subtitle": str(stored)}
        return super().render_change_form(request, context, add, change, form_url, obj)


class LabelledInlineFormSet(BaseInlineFormSet):  # type: ignore[type-arg]
    """An inline table whose every control says what it is and whose row it is in.

    Django's tabular inline names a column once, in its heading, and gives the cells'
    inputs and menus no label: a screen reader said "edit text" for each of a roster's
    sixty cells (axe-core: label, select-name). Each control is named by its column and its
    row's object ("Order, Anthony Davis"; a row not yet saved, "Order, new row 3")."""

    def add_fields(self, form: ModelForm[Any], index: int | None) -> None:
        super().add_fields(form, index)
        instance = getattr(form, "instance", None)
        if instance is not None and instance.pk is not None:
            row = self.row_name(instance)
        else:
            row = "new row" if index is None else f"new row {index + 1}"
        for name, field in form.fields.items():
            if not field.widget.is_hidden:  # the label as the heading shows it
                field.widget.attrs["aria-label"] = f"{form[name].label}, {row}"

    def row_name(self, instance: Any) -> str:
        """Name a saved row as its controls' labels say it."""
        return str(instance)


def guard_delete_selected(
    actions: dict[str, Any], refused: Callable[[HttpRequest, Any], bool]
) -> dict[str, Any]:
    """Wrap a list's "Delete selected" action so that ``refused(request, queryset)``, which
    says why to the user when it refuses, can stop it before anything is deleted."""
    entry = actions.get("delete_selected")
    if entry is not None:
        delete, name, description = entry

        def delete_selected(model_admin: Any, request: HttpRequest, queryset: Any) -> Any:
            if refused(request, queryset):
                return None
            return delete(model_admin, request, queryset)

        actions["delete_selected"] = (delete_selected, name, description)
    return actions
