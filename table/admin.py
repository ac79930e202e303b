from django.contrib import admin
from django.http import HttpRequest

from table.models import TableGame


@admin.register(TableGame)
class TableGameAdmin(admin.ModelAdmin[TableGame]):
    """Games at the table, for a commissioner to look at (the dice are the players' own)."""

    list_display = (
        "__str__", "owner", "game", "status", "score", "rules", "neutral", "dice_count",
        "updated_at",
    )  # fmt: skip
    list_filter = ("game", "status", "rules", "neutral")
    search_fields = ("home__school", "away__school", "owner__username")
    list_select_related = ("home", "away", "owner")
    raw_id_fields = ("league_game",)
    # What was played is the players' own: its dice, its choices made by hand and the
    # versions they answer are shown, never edited (an edit would make another game).
    readonly_fields = (
        "game", "options", "rules_version", "home_team_file", "away_team_file", "dice",
        "hands", "choices", "questions_version", "home_score", "away_score", "created_at",
        "updated_at",
    )  # fmt: skip

    @admin.display(description="score")
    def score(self, game: TableGame) -> str:
        """The away team's points first, as the game's title names it first."""
        if game.home_score is None or game.away_score is None:
            return "-"
        return f"{game.away_score}-{game.home_score}"

    @admin.display(description="dice")
    def dice_count(self, game: TableGame) -> int:
        return len(game.dice)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a game starts at the table page, with its cards as they are
