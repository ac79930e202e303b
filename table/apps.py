from django.apps import AppConfig


class TableConfig(AppConfig):
    """Play at the table: real dice typed into a live score sheet (docs/table.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "table"
    verbose_name = "Play at the table"
