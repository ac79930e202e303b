from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CoreConfig(AppConfig):
    """Accounts and the API base that the cards and league apps share (no models)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Django's app registry: models (Group, Permission) may be imported only once apps
        # are ready, so this is the one import inside a function the architecture allows.
        from core.roles import commissioner_group_sync

        # Permissions exist only after migrate; keep the Commissioner group complete then.
        post_migrate.connect(commissioner_group_sync, dispatch_uid="core.commissioner_group")
