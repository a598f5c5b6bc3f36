"""The "random" level: a uniformly random legal action (a baseline, and for tests)."""

from __future__ import annotations

import random

from engine.actions import SeatAction
from engine.view import SeatView


class RandomAgent:
    name = "random"

    def decide(self, view: SeatView, rng: random.Random, budget: float) -> SeatAction:
        return rng.choice(view.legal)
