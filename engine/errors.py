"""Refusals: every action the rules forbid raises ``IllegalAction`` with a ``Reason`` code.

Codes, not prose: the bot turns a reason into a localized toast.
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    MATCH_OVER = "match-over"
    WRONG_PHASE = "wrong-phase"
    NOT_YOUR_TURN = "not-your-turn"
    NOT_PLAYING = "not-playing"
    NO_SUCH_SEAT = "no-such-seat"
    INVALID_DEAL = "invalid-deal"
    WRONG_DEALER = "wrong-dealer"
    # bidding
    BID_TOO_LOW = "bid-too-low"
    BID_NOT_MULTIPLE = "bid-not-multiple"
    BID_OVER_CAP = "bid-over-cap"
    BID_OVER_MAXIMUM = "bid-over-maximum"
    BELOW_BARREL = "below-barrel"
    OPENING_BID_EXACT = "opening-bid-exact"
    MUST_OPEN = "must-open"
    BELOW_TUMBOCHKA_MINIMUM = "below-tumbochka-minimum"
    SCORE_TOO_LOW_TO_BID = "score-too-low-to-bid"
    # talon, giving and contract
    CARD_NOT_IN_HAND = "card-not-in-hand"
    INVALID_RECIPIENT = "invalid-recipient"
    ALREADY_GIVEN = "already-given"
    CONTRACT_BELOW_BID = "contract-below-bid"
    CONTRACT_NOT_MULTIPLE = "contract-not-multiple"
    CONTRACT_OVER_CAP = "contract-over-cap"
    CONTRACT_OVER_MAXIMUM = "contract-over-maximum"
    NOT_DECLARER = "not-declarer"
    OPTION_OFF = "option-off"
    NO_GROUNDS_FOR_REDEAL = "no-grounds-for-redeal"
    TOO_LATE = "too-late"
    NOT_IN_THIS_GAME = "not-in-this-game"
    # play
    MUST_FOLLOW_SUIT = "must-follow-suit"
    MUST_TRUMP = "must-trump"
    NOT_ON_LEAD = "not-on-lead"
    MARRIAGE_NEEDS_TRICK = "marriage-needs-trick"
    NO_MARRIAGE = "no-marriage"
    NO_FOUR_ACES = "no-four-aces"
    NO_TROYAN = "no-troyan"
    TROYAN_LEADS_SIX = "troyan-leads-six"
    NO_TRILYAZH = "no-trilyazh"
    TRILYAZH_LEADS_JACK = "trilyazh-leads-jack"
    MUST_CONTINUE_TRILYAZH = "must-continue-trilyazh"


class IllegalAction(Exception):
    """The rules forbid this action now; the state it was tried on is unchanged."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason.value)
        self.reason = reason


class StartError(ValueError):
    """Starting scores or bolts that no match can be in; ``field`` names which."""

    def __init__(self, message: str, field: str = "scores") -> None:
        super().__init__(message)
        self.field = field
