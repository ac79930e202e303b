from django.apps import AppConfig


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"
    verbose_name = "Leagues, seasons and games"

    def ready(self) -> None:
        # Django's app registry: the tasks module reaches the models, so it is loaded once
        # apps are ready. Loading it connects the receiver that sends queued games to
        # workers (``league.dispatch``), in web processes as well as in workers.
        from league import tasks  # noqa: F401
