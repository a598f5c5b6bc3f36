"""Computer players for «Тысяча», «Тысяча одно» and «Тумбочка».

An agent decides from one seat's view only (``engine.view.SeatView``), a seeded
``random.Random`` and a time budget, and returns one of ``view.legal`` (``engine.ai.agent``).
Levels (``engine.ai.levels``): ``random``; ``easy``, rule-based (``engine.ai.rules_agent``:
hand evaluation ``engine.ai.evaluation`` and the card-play policy ``engine.ai.policy``);
``hard``, determinized Monte Carlo search with exact endgames (``engine.ai.search_agent``
over ``engine.ai.sampling``, ``engine.ai.playout``, ``engine.ai.defence``,
``engine.ai.solver`` and ``engine.ai.utility``). The bot runs decisions in a process pool
off its event loop (``bot.thinking``). ``python -m engine.play`` plays a match in the terminal;
``python -m benchmarks.strength`` measures the levels.

Like the rest of ``engine``, this package imports the standard library only.
"""

from engine.ai.agent import DEFAULT_BUDGET, Agent, interjection
from engine.ai.levels import AGENTS, DEFAULT_LEVEL, LEVELS, get_agent, make_agent

__all__ = [
    "AGENTS",
    "DEFAULT_BUDGET",
    "DEFAULT_LEVEL",
    "LEVELS",
    "Agent",
    "get_agent",
    "interjection",
    "make_agent",
]
