"""Ratings: OpenSkill's Plackett–Luce model, one rating per player and game.

Each finished match is one observation: every seat is a one-player team ranked by its place
(1 = the winner; places never tie). Abandoned matches are not rated. A new player starts at
the model's default (mu 25, sigma 25/3). Computer players are rated like humans (the texts
flag them).

The number shown is OpenSkill's ordinal, the conservative estimate ``mu - 3 sigma``, scaled
to a friendly range: ``1000 + 40 * (mu - 3 sigma)``, rounded. A newcomer shows 1000; the
number grows as the model grows sure of a good player (sigma shrinks) and as they win. The
leaderboard is ordered by the same ordinal (`storage.results.ORDINAL_Z`). A rating is
"provisional" until the player has `PROVISIONAL_MATCHES` rated matches.

Two seats of one player in a match (two computer players of the same level) are rated as
two teams from the same rating; the player's mu moves by the sum of both changes, sigma
becomes the smaller of the two, and both seats count as rated matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from openskill.models import PlackettLuce

from engine import Game
from storage import MatchResult, PlayerRef, Rating
from storage.results import ORDINAL_Z

MODEL: Final = PlackettLuce()
PROVISIONAL_MATCHES: Final = 10
SHOWN_BASE: Final = 1000
SHOWN_SCALE: Final = 40


def initial(player: PlayerRef, game: Game) -> Rating:
    """The rating of a player before their first rated match of ``game``."""
    return Rating(player=player, game=game, mu=MODEL.mu, sigma=MODEL.sigma, matches=0)


def ordinal(rating: Rating) -> float:
    """The conservative estimate ``mu - 3 sigma`` the leaderboard sorts by."""
    return rating.mu - ORDINAL_Z * rating.sigma


def shown(rating: Rating) -> int:
    """The one number players see: ``1000 + 40 * (mu - 3 sigma)``, rounded."""
    return round(SHOWN_BASE + SHOWN_SCALE * ordinal(rating))


def is_provisional(rating: Rating) -> bool:
    return rating.matches < PROVISIONAL_MATCHES


def rate_match(result: MatchResult, current: Mapping[PlayerRef, Rating]) -> tuple[Rating, ...]:
    """The new rating of every player of the finished match, in first-seat order.

    ``current`` holds the players' ratings before the match (a missing player is new).
    Raises ``ValueError`` for an abandoned match.
    """
    if not result.finished:
        raise ValueError("an abandoned match is not rated")
    before = {p: current.get(p) or initial(p, result.game) for p in result.players}
    teams = [
        [MODEL.rating(mu=before[p].mu, sigma=before[p].sigma)] for p in result.players
    ]
    rated = MODEL.rate(teams, ranks=[float(place) for place in result.places])
    mu_change: dict[PlayerRef, float] = {}
    sigma: dict[PlayerRef, float] = {}
    seats: dict[PlayerRef, int] = {}
    for player, (after,) in zip(result.players, rated, strict=True):
        mu_change[player] = mu_change.get(player, 0.0) + float(after.mu) - before[player].mu
        sigma[player] = min(sigma.get(player, float(after.sigma)), float(after.sigma))
        seats[player] = seats.get(player, 0) + 1
    return tuple(
        Rating(
            player=player,
            game=result.game,
            mu=before[player].mu + mu_change[player],
            sigma=sigma[player],
            matches=before[player].matches + seats[player],
        )
        for player in dict.fromkeys(result.players)
    )
