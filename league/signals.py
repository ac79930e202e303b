"""Signals other apps listen to, so the league never imports them (docs/architecture.md).

``tournament_games_stored`` is sent inside the transaction that stores a tournament's games
(``league.services.games_finish``), once per tournament, after its next round is drawn:
``season_id`` names the tournament, ``game_ids`` the games just stored. A receiver that
writes does so in that same transaction (the fans' challenge scores its entries there).
"""

from django.dispatch import Signal

tournament_games_stored = Signal()
