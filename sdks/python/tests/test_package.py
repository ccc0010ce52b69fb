"""The package is ready to publish, runs on Python 3.9+ with httpx as its only dependency, and its README's
examples are valid Python that call real methods, one example per resource at least."""
from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Set

import messaging_platform
from messaging_platform import resources

SDK = Path(__file__).resolve().parent.parent
PACKAGE = SDK / "src" / "messaging_platform"
RESOURCES = {
    "conversations": resources.Conversations, "messages": resources.Messages, "bookings": resources.Bookings,
    "saved_replies": resources.SavedReplies, "schedules": resources.Schedules, "ai": resources.Ai, "channels": resources.Channels, "events": resources.Events,
    "webhooks": resources.Webhooks, "webhook_deliveries": resources.WebhookDeliveries, "api_keys": resources.ApiKeys, "users": resources.Users,
    "auth": resources.Auth, "tenants": resources.Tenants, "meta": resources.Meta,
}


def pyproject() -> Dict[str, Any]:
    text = (SDK / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib
    except ImportError:  # Python < 3.11: the few keys checked below, read by pattern
        return {"project": {key: re.search(rf'^{key} = "([^"]+)"', text, re.M).group(1)  # type: ignore[union-attr]
                            for key in ("name", "requires-python", "license")},
                "raw": text}
    return {**tomllib.loads(text), "raw": text}


def test_pyproject_is_complete_and_names_httpx_as_the_only_dependency() -> None:
    meta = pyproject()
    project = meta["project"]
    assert project["name"] == "messaging-platform"
    assert project["requires-python"] == ">=3.9"
    assert project["license"] == "MIT"
    if "dependencies" in project:
        assert [re.split(r"[<>=!~ ]", d)[0] for d in project["dependencies"]] == ["httpx"]
        assert project["dynamic"] == ["version"]
        assert project["readme"] == "README.md"
        assert "Typing :: Typed" in project["classifiers"]
        assert meta["build-system"]["build-backend"] == "hatchling.build"
        assert meta["tool"]["hatch"]["version"]["path"] == "src/messaging_platform/_version.py"
    for file in ("README.md", "CHANGELOG.md", "LICENSE", "src/messaging_platform/py.typed", "scripts/generate_models.py", "scripts/generate_sync.py"):
        assert (SDK / file).is_file(), file


def run_generate_sync(*args: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, str(SDK / "scripts" / "generate_sync.py"), *args], capture_output=True, text=True, timeout=60)


def test_the_synchronous_client_is_generated_from_the_asynchronous_one() -> None:
    result = run_generate_sync("--check")
    assert result.returncode == 0, result.stderr
    assert "match their asynchronous sources" in result.stdout


def test_the_sync_check_fails_when_the_asynchronous_source_changes(tmp_path: Path) -> None:
    # The generator reads the package next to its own folder: copy both, change the async source.
    shutil.copytree(SDK / "scripts", tmp_path / "scripts")
    shutil.copytree(PACKAGE, tmp_path / "src" / "messaging_platform")
    source = tmp_path / "src" / "messaging_platform" / "async_resources.py"
    source.write_text(source.read_text(encoding="utf-8").replace("async def page(", "async def first_page(", 1), encoding="utf-8")
    result = subprocess.run([sys.executable, str(tmp_path / "scripts" / "generate_sync.py"), "--check"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "resources.py is out of date" in result.stderr
    assert "+    def first_page(" in result.stderr


def test_the_changelog_describes_this_version() -> None:
    assert re.search(rf"^## {re.escape(messaging_platform.__version__)}$", (SDK / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)


def test_the_sources_are_python_3_9_and_import_only_the_standard_library_and_httpx() -> None:
    allowed: Set[str] = set(getattr(sys, "stdlib_module_names", ())) | {"httpx", "__future__"}
    for path in sorted(PACKAGE.glob("*.py")) + sorted((SDK / "scripts").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path), feature_version=(3, 9))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            for name in names:
                assert not allowed or name.split(".")[0] in allowed, f"{path.name} imports {name}"


def test_the_package_exports_its_surface() -> None:
    for name in messaging_platform.__all__:
        assert getattr(messaging_platform, name) is not None, name
    for name in ("MessagingClient", "AsyncMessagingClient", "PlatformClient", "AsyncPlatformClient", "verify_webhook",
                 "RateLimitError", "ConflictError", "ValidationError", "AuthenticationError"):
        assert name in messaging_platform.__all__


def test_readme_examples_compile_and_call_real_methods() -> None:
    readme = (SDK / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert len(blocks) >= 15
    for index, code in enumerate(blocks, 1):
        ast.parse(code, f"README example {index}", feature_version=(3, 9))
    calls = re.findall(rf"\.({'|'.join(RESOURCES)})\.([a-z_]+)\(", "".join(blocks))
    assert sorted({resource for resource, _ in calls}) == sorted(RESOURCES), "one example per resource"
    for resource, method in calls:
        assert hasattr(RESOURCES[resource], method), f"README calls {resource}.{method}, which does not exist"
