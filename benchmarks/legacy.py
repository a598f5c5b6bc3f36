"""A computer player of another commit, for measuring a level against its earlier self.

``legacy_agent("hard@992cddb", scale, use_clock)`` is an ``Agent`` whose decisions are made
by the ``engine`` of that commit (``git archive COMMIT engine`` into a cached directory
under the system's temporary folder) in a worker process of its own: each decision sends
the pickled view, generator and budget and reads back the pickled action. Both codes must
agree on the pickled types (``engine.view.SeatView``, ``engine.actions``), which holds as
long as the rules core's interface did not change between them. One worker process per
benchmark process and commit serves every seat and deal.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import random
import struct
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO

from engine.actions import SeatAction
from engine.view import SeatView

_SERVER = """\
import pickle, struct, sys
from engine.ai.levels import make_agent
agents = {}
read, write = sys.stdin.buffer, sys.stdout.buffer
while True:
    head = read.read(4)
    if len(head) < 4:
        break
    size = struct.unpack("<I", head)[0]
    level, scale, use_clock, view, rng, budget = pickle.loads(read.read(size))
    key = (level, scale, use_clock)
    if key not in agents:
        agents[key] = make_agent(level, scale, use_clock=use_clock)
    body = pickle.dumps(agents[key].decide(view, rng, budget))
    write.write(struct.pack("<I", len(body)) + body)
    write.flush()
"""

_workers: dict[str, subprocess.Popen[bytes]] = {}


def _checkout(commit: str) -> Path:
    """The ``engine`` of ``commit``, extracted once into a cached directory."""
    root = Path(tempfile.gettempdir()) / f"tysyacha-legacy-{commit}"
    if not (root / "engine").is_dir():
        part = root.with_name(f"{root.name}.{os.getpid()}")
        part.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "archive", commit, "engine"],
            check=True,
            capture_output=True,
            cwd=Path(__file__).resolve().parent.parent,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(part)], input=archive, check=True)
        with contextlib.suppress(OSError):  # another process extracted it first
            part.rename(root)
    (root / "legacy_server.py").write_text(_SERVER, encoding="utf-8")
    return root


def _worker(commit: str) -> subprocess.Popen[bytes]:
    worker = _workers.get(commit)
    if worker is None or worker.poll() is not None:
        root = _checkout(commit)
        worker = subprocess.Popen(
            [sys.executable, "legacy_server.py"],
            cwd=root,
            env={**os.environ, "PYTHONPATH": str(root)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        _workers[commit] = worker
        atexit.register(worker.kill)
    return worker


def _read(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size)
    if len(data) < size:
        raise RuntimeError("the legacy worker stopped")
    return data


class LegacyAgent:
    """``level`` as played by the ``engine`` of ``commit``."""

    def __init__(self, level: str, commit: str, scale: float, use_clock: bool) -> None:
        self.name = f"{level}@{commit}"
        self.level, self.commit, self.scale, self.use_clock = level, commit, scale, use_clock

    def decide(self, view: SeatView, rng: random.Random, budget: float) -> SeatAction:
        worker = _worker(self.commit)
        assert worker.stdin is not None and worker.stdout is not None
        body = pickle.dumps((self.level, self.scale, self.use_clock, view, rng, budget))
        worker.stdin.write(struct.pack("<I", len(body)) + body)
        worker.stdin.flush()
        size = struct.unpack("<I", _read(worker.stdout, 4))[0]
        action: SeatAction = pickle.loads(_read(worker.stdout, size))
        return action


def legacy_agent(spec: str, scale: float, use_clock: bool) -> LegacyAgent:
    """The agent named ``LEVEL@COMMIT``."""
    level, _, commit = spec.partition("@")
    return LegacyAgent(level, commit, scale, use_clock)
