"""The bot installed as an operator installs it: a wheel (``pip wheel --no-deps``) in a new
virtual environment outside the checkout runs against the fake Bot API and plays a press, and
with a token Telegram rejects it says so in one line and exits at once.

The new environment reuses the test environment's installed dependencies through a ``.pth``
line (its own ``.pth`` files, among them the editable install of this checkout, are not read
from there), so nothing is downloaded and only the wheel's own files are the bot.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import sysconfig
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, Driver, bot_environment, bot_process
from tests.fakebot import FakeTelegramServer

ROOT = Path(__file__).resolve().parents[2]
REJECTED_WITHIN = 10.0
"""Seconds a start with a rejected token may take to end (it takes about two)."""


@dataclass(frozen=True)
class Installed:
    python: Path
    home: Path
    """A folder outside the checkout to run the bot in."""


def _run(*command: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, capture_output=True, text=True,
        timeout=600, check=False, env=bot_environment(),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("install")
    wheels = root / "wheels"
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--wheel-dir", wheels, ROOT)
    (wheel,) = wheels.glob("tysyacha-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for lang in ("ru", "en", "uk"):
        assert f"locales/{lang}/bot.ftl" in names, sorted(names)
    venv = root / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    _run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps",
         "--no-index", wheel)
    site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
                .strip())
    (site / "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    home = root / "home"
    home.mkdir()
    where = _run(python, "-c", "import bot, locales; print(bot.__file__, locales.__file__)",
                 cwd=home)
    assert all(Path(p).is_relative_to(venv) for p in where.split()), where
    return Installed(python, home)


async def test_the_installed_wheel_plays_a_press(
    server: FakeTelegramServer, cast: Cast, installed: Installed, tmp_path: Path
) -> None:
    log = tmp_path / "bot.log"
    async with bot_process(server, tmp_path / "bot.db", log, str(installed.python),
                           installed.home):
        driver = Driver(server, cast.group, [cast.alice, cast.bob])
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob])
        await server.wait_for(lambda: cast.bob.first_name in lobby.text, what="Bob seated")
        assert lobby.text.startswith(TR.text(LANG, "lobby-title", game="").split()[0])
    assert "Traceback" not in log.read_text(), log.read_text()


async def test_a_rejected_token_is_one_line_and_a_failed_exit(
    installed: Installed, tmp_path: Path
) -> None:
    async with FakeTelegramServer(accept_tokens={"999:other"}) as server:
        env = {
            **bot_environment(),
            "TELEGRAM_BOT_TOKEN": "123:rejected",
            "TELEGRAM_API_URL": server.root,
            "DATABASE_PATH": str(tmp_path / "bot.db"),
        }
        began = time.monotonic()
        process = await asyncio.create_subprocess_exec(
            str(installed.python), "-m", "bot", env=env, cwd=installed.home,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )
        output, _ = await asyncio.wait_for(process.communicate(), REJECTED_WITHIN)
    took = time.monotonic() - began
    lines = output.decode().strip().splitlines()
    assert process.returncode not in (0, None)
    assert len(lines) == 1 and "token" in lines[0], lines
    assert took < REJECTED_WITHIN
