"""The levels the bot offers: ``random``, ``easy`` (rule-based) and ``hard`` (search).

Agents are stateless, so one instance per level serves every table; ``get_agent`` returns
it, and ``make_agent`` builds one with non-default search work (benchmarks, tests).
"""

from __future__ import annotations

from typing import Final

from engine.ai.agent import Agent
from engine.ai.random_agent import RandomAgent
from engine.ai.rules_agent import RulesAgent
from engine.ai.search_agent import SearchAgent

AGENTS: Final[dict[str, Agent]] = {
    "random": RandomAgent(),
    "easy": RulesAgent(),
    "hard": SearchAgent(),
}
LEVELS: Final = tuple(AGENTS)
DEFAULT_LEVEL: Final = "hard"


def get_agent(level: str) -> Agent:
    """The agent of ``level``; ``KeyError`` names the levels that exist."""
    try:
        return AGENTS[level]
    except KeyError:
        raise KeyError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}") from None


def make_agent(level: str, scale: float = 1.0, use_clock: bool = True) -> Agent:
    """A fresh agent of ``level``; ``scale`` and ``use_clock`` apply to ``hard`` only."""
    if level == "hard":
        return SearchAgent(scale=scale, use_clock=use_clock)
    return get_agent(level)
