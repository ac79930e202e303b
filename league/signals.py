"""Signals other apps listen to, so the league never imports them (docs/architecture.md).

``tournament_games_stored`` is sent inside the transaction that stores a tournament's games
(``league.services.games_finish``), once per tournament, after its next round is drawn:
``season_id`` names the tournament, ``game_ids`` the games just stored. A receiver that
writes does so in that same transaction (the fans' challenge scores its entries there).

``season_odds_ready`` is sent (``season_id``) when a worker has just completed a season's
exact pair table (``league.odds.pair_table_build``): what was waiting for the odds, such as a
pool's expected scores and win chances, can be worked out now instead of at the next game.
"""

from django.dispatch import Signal

tournament_games_stored = Signal()
season_odds_ready = Signal()
