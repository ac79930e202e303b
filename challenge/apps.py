from django.apps import AppConfig


class ChallengeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "challenge"
    verbose_name = "Fans' bracket challenge"

    def ready(self) -> None:
        from challenge import receivers  # noqa: F401  (connects the live scoring)
