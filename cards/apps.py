from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cards"
    verbose_name = "Teams and player cards"

    def ready(self) -> None:
        from cards.roles import commissioner_group_sync

        # Permissions exist only after migrate; keep the Commissioner group complete then.
        post_migrate.connect(commissioner_group_sync, dispatch_uid="cards.commissioner_group")
