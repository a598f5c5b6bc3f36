"""The Dockerfile, .dockerignore and compose.yaml, checked statically against the code (there
is no Docker engine here): the entry point and the health check are the bot's modules, the
user is not root, the database lies on the volume, every environment name is a setting; the
dependencies are a layer of their own pinned by constraints.txt and the project is installed
from its wheel; the build context holds the sources only; compose rotates its logs and
publishes the webhook port on the loopback interface."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DATA = Path("/data")
NOT_SETTINGS = re.compile(r"(PYTHON|PIP)[A-Z_]*")
"""Environment names of the image that are Python's or pip's, not the bot's."""


@dataclass(frozen=True)
class Instruction:
    name: str
    args: str

    def exec_form(self, text: str | None = None) -> list[str]:
        value = json.loads(self.args if text is None else text)
        assert isinstance(value, list) and all(isinstance(v, str) for v in value), self
        return value


def _dockerfile() -> list[Instruction]:
    lines: list[str] = []
    pending = ""
    for raw in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        lines.append(pending + line)
        pending = ""
    assert not pending, "a continued line at the end of the Dockerfile"
    found = []
    for line in lines:
        name, _, args = line.partition(" ")
        found.append(Instruction(name.upper(), args.strip()))
    return found


def _one(instructions: list[Instruction], name: str) -> Instruction:
    matching = [i for i in instructions if i.name == name]
    assert len(matching) == 1, f"expected one {name}, found {matching}"
    return matching[0]


def _env(instructions: list[Instruction]) -> dict[str, str]:
    found: dict[str, str] = {}
    for instruction in instructions:
        if instruction.name == "ENV":
            for word in shlex.split(instruction.args):
                name, _, value = word.partition("=")
                found[name] = value
    return found


def _settings() -> set[str]:
    return {name.upper() for name in Settings.model_fields}


def _module_runs(module: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", module, "--help"], cwd=ROOT, capture_output=True, text=True,
        check=False, timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def dockerfile() -> list[Instruction]:
    return _dockerfile()


def _final_stage(dockerfile: list[Instruction]) -> list[Instruction]:
    last = max(n for n, i in enumerate(dockerfile) if i.name == "FROM")
    return dockerfile[last:]


def test_the_image_is_a_slim_python_the_project_supports(dockerfile: list[Instruction]) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    minimum = re.fullmatch(r">=(\d+)\.(\d+)", project["requires-python"])
    assert minimum is not None
    for stage in (i for i in dockerfile if i.name == "FROM"):
        image = stage.args.split()[0]
        found = re.fullmatch(r"python:(\d+)\.(\d+)-slim(-\w+)?", image)
        assert found, f"not a slim Python image: {image}"
        assert (int(found[1]), int(found[2])) >= (int(minimum[1]), int(minimum[2]))


def test_the_dependencies_are_a_pinned_layer_before_the_code(
    dockerfile: list[Instruction],
) -> None:
    final = _final_stage(dockerfile)
    runs = [n for n, i in enumerate(final) if i.name == "RUN"]
    deps = next(n for n in runs if "-c /tmp/deps/constraints.txt" in final[n].args)
    copied_before = [shlex.split(i.args)[:-1] for i in final[:deps] if i.name == "COPY"]
    assert copied_before == [["pyproject.toml", "constraints.txt"]], copied_before
    project = next(n for n in runs if ".whl" in final[n].args)
    assert deps < project and "--no-deps" in final[project].args
    installs = " ".join(i.args for i in dockerfile if i.name == "RUN")
    assert not re.search(r"pip install[^&]* -e\b", installs), "the project is installed editable"
    sources = [i for i in final if i.name == "COPY" and not i.args.startswith("--from=")]
    assert all("bot" not in shlex.split(i.args) for i in sources), "the final image copies code"


def test_the_entry_point_is_the_bot(dockerfile: list[Instruction]) -> None:
    assert _one(dockerfile, "CMD").exec_form() == ["python", "-m", "bot"]
    assert (ROOT / "bot" / "__main__.py").is_file()


def test_the_health_check_runs_bot_health(dockerfile: list[Instruction]) -> None:
    check = _one(dockerfile, "HEALTHCHECK").args
    options, _, command = check.partition("CMD ")
    assert _one(dockerfile, "HEALTHCHECK").exec_form(command) == ["python", "-m", "bot.ops.health"]
    _module_runs("bot.ops.health")
    given = dict(re.findall(r"--([a-z-]+)=(\d+)s", options))
    interval, timeout = int(given["interval"]), int(given["timeout"])
    heartbeat = Settings.model_fields["heartbeat_seconds"].default
    max_age = Settings.model_fields["health_max_age_seconds"].default
    assert heartbeat < max_age, "the heartbeat must come more often than it may be old"
    assert interval <= max_age and timeout >= 5
    assert int(given["start-period"]) >= 30


def test_the_user_is_not_root(dockerfile: list[Instruction]) -> None:
    user = _one(dockerfile, "USER").args
    assert user not in ("root", "0") and not user.startswith(("root:", "0:"))
    runs = " ".join(i.args for i in _final_stage(dockerfile) if i.name == "RUN")
    assert re.search(rf"useradd\b[^&]*\b{re.escape(user)}\b", runs), "the user is not created"
    assert re.search(rf"chown\b[^&]*\b{re.escape(user)}\b[^&]*{DATA}", runs), (
        "the volume's folder must belong to the user"
    )
    last_user = max(n for n, i in enumerate(dockerfile) if i.name == "USER")
    assert last_user > max(n for n, i in enumerate(dockerfile) if i.name == "RUN")


def test_the_database_is_on_the_volume(dockerfile: list[Instruction]) -> None:
    volumes = _one(dockerfile, "VOLUME").exec_form()
    assert volumes == [str(DATA)]
    env = _env(dockerfile)
    assert Path(env["DATABASE_PATH"]).parent == DATA


def test_every_environment_name_is_a_setting(dockerfile: list[Instruction]) -> None:
    names = {n for n in _env(dockerfile) if not NOT_SETTINGS.fullmatch(n)}
    assert names and names <= _settings(), names - _settings()


def test_the_image_holds_every_package(dockerfile: list[Instruction]) -> None:
    copied = {
        part.rstrip("/") for i in dockerfile if i.name == "COPY"
        for part in shlex.split(i.args)[:-1]
    }
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = {p.rstrip("*") for p in include if (ROOT / p.rstrip("*")).is_dir()}
    needed = packages | {"locales", "pyproject.toml", pyproject["project"]["readme"]}
    assert needed <= copied, needed - copied


def test_the_exposed_port_is_the_webhook_s(dockerfile: list[Instruction]) -> None:
    assert _one(dockerfile, "EXPOSE").args == str(Settings.model_fields["webhook_port"].default)


# ---------------------------------------------------------------- .dockerignore


def _ignored(path: str) -> bool:
    """Whether .dockerignore keeps ``path`` out of the build context (Docker's rules: the
    last matching pattern wins, ``!`` includes again, a pattern matching a folder matches
    what it holds; ``**`` is any number of folders)."""
    ignored = False
    for raw in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        include = line.startswith("!")
        pattern = line.lstrip("!").strip("/")
        regex = re.escape(pattern).replace(r"\*\*/", "(.*/)?").replace(r"\*", "[^/]*")
        parts = path.split("/")
        prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
        if any(re.fullmatch(regex, prefix) for prefix in prefixes):
            ignored = not include
    return ignored


@pytest.mark.parametrize(
    "path",
    [".git/HEAD", ".venv/bin/python", "data/tysyacha.db", "bot/__pycache__/app.cpython-311.pyc",
     "tests/bot/harness.py", "local.db", "bot/tysyacha.db-wal", ".env"],
)
def test_the_build_context_leaves_out(path: str) -> None:
    assert _ignored(path)


def test_the_build_context_holds_what_the_image_copies(dockerfile: list[Instruction]) -> None:
    copied = [
        part for i in dockerfile if i.name == "COPY" and not i.args.startswith("--from=")
        for part in shlex.split(i.args)[:-1]
    ]
    for source in copied:
        found = [p for p in (ROOT / source).rglob("*") if p.is_file()] or [ROOT / source]
        kept = [p for p in found if "__pycache__" not in p.parts]
        assert kept and not any(_ignored(str(p.relative_to(ROOT))) for p in kept), source


# ---------------------------------------------------------------- compose.yaml


def _compose_service() -> dict[str, list[str] | dict[str, str]]:
    """The keys of the one service of compose.yaml: lists and name: value maps (a small
    reader for this file's shape: two-space indents, no flow style)."""
    lines = [
        line.rstrip() for line in (ROOT / "compose.yaml").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    service_lines = []
    inside = False
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if line == "services:":
            inside = True
            continue
        if inside and indent == 0:
            break
        if inside:
            service_lines.append(line)
    assert sum(1 for line in service_lines if len(line) - len(line.lstrip()) == 2) == 1
    found: dict[str, list[str] | dict[str, str]] = {}
    key = ""
    for line in service_lines[1:]:
        indent = len(line) - len(line.lstrip())
        text = line.strip()
        if indent == 4:
            key, _, value = text.partition(":")
            found[key] = value.strip() if value.strip() else {}  # type: ignore[assignment]
        elif text.startswith("- "):
            items = found.get(key)
            found[key] = [*(items if isinstance(items, list) else []), text[2:].strip('"')]
        else:
            name, _, value = text.partition(":")
            entries = found.setdefault(key, {})
            assert isinstance(entries, dict)
            entries[name] = value.strip()
    return found


def test_compose_names_are_settings() -> None:
    environment = _compose_service()["environment"]
    assert isinstance(environment, dict)
    assert set(environment) <= _settings(), set(environment) - _settings()
    assert environment["TELEGRAM_BOT_TOKEN"].startswith("${TELEGRAM_BOT_TOKEN:?")
    for name, value in environment.items():
        default = re.fullmatch(r"\$\{(\w+):?-(.*)\}", value)
        if default is None:
            continue
        assert default[1] == name
        field = Settings.model_fields[name.lower()]
        if default[2] and field.default is not None:
            assert default[2] == str(field.default), f"{name} defaults differ"


def test_compose_keeps_the_database_on_the_volume() -> None:
    service = _compose_service()
    volumes = service["volumes"]
    assert isinstance(volumes, list) and any(v.endswith(f":{DATA}") for v in volumes)
    assert "build" in service and "restart" in service


def test_compose_publishes_the_webhook_port_on_loopback() -> None:
    ports = _compose_service()["ports"]
    port = Settings.model_fields["webhook_port"].default
    published = f"${{WEBHOOK_PORT:-{port}}}"
    loopback = "${WEBHOOK_HOST:-127.0.0.1}"
    assert isinstance(ports, list) and ports == [f"{loopback}:{published}:{published}"]


def test_compose_rotates_the_logs() -> None:
    logging = _compose_service()["logging"]
    assert isinstance(logging, dict)
    assert logging["driver"] == "json-file"
    size = re.fullmatch(r'"(\d+)m"', logging["max-size"])
    files = re.fullmatch(r'"(\d+)"', logging["max-file"])
    assert size and files and int(size[1]) * int(files[1]) <= 100, logging
