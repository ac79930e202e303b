"""The admin's change form says where each error is: the inline tables' rows lie off a
phone's screen (a season's teams, a team's players), and "Please correct the errors below"
named neither the row nor the field."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.inclusion_tag("admin/errors_summary.html")
def errors_summary(adminform: Any, inline_admin_formsets: Any) -> dict[str, Any]:
    """List every error of the form and of its inline rows, each naming its table, its row
    (the object's name, or the row's number) and its field, with a link to the row."""
    found: list[dict[str, str]] = []
    form = adminform.form
    for name, errors in form.errors.items():
        if name == "__all__":
            continue  # shown by the admin itself, above
        label = str(form[name].label) if name in form.fields else name  # as the form shows it
        found += [{"where": label, "error": str(e), "anchor": f"id_{name}"} for e in errors]
    for inline in inline_admin_formsets or ():
        formset = inline.formset
        table = str(inline.opts.verbose_name_plural).capitalize()
        for error in formset.non_form_errors():
            found.append({"where": table, "error": str(error), "anchor": f"{formset.prefix}-group"})
        for number, row in enumerate(formset.forms, start=1):
            if not row.errors:
                continue
            instance = row.instance
            named = ""
            if instance is not None and instance.pk:
                # as stored: validation wrote the refused values into the instance (a player
                # renamed in a refused save was named by his new name)
                instance = (
                    type(instance)._default_manager.filter(pk=instance.pk).first() or instance
                )
                # A season's row is its team's; a team's row, its player's own name.
                parent = getattr(getattr(formset, "fk", None), "name", "")
                team = getattr(instance, "team", None) if parent != "team" else None
                named = str(team if team is not None else instance)
            where = f"{table}, row {number}" + (f" ({named})" if named else "")
            for name, errors in row.errors.items():
                label = (
                    ""
                    if name == "__all__"
                    else (str(row[name].label) if name in row.fields else name)
                )
                for error in errors:
                    found.append(
                        {
                            "where": f"{where}: {label}" if label else where,
                            "error": str(error),
                            "anchor": f"{formset.prefix}-{number - 1}",
                        }
                    )
    return {"found": found}
