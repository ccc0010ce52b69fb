#!/usr/bin/env python3
"""Generates the synchronous client from the asynchronous one, so the two never drift.

    python scripts/generate_sync.py            write client.py and resources.py
    python scripts/generate_sync.py --check    exit 1 when a committed file differs from a fresh generation

``async_client.py`` and ``async_resources.py`` are the sources. Their synchronous twins are the same code
with the coroutine syntax taken out (``async def``, ``await``, ``async for``/``with``, ``__aenter__``…)
and the asynchronous types renamed to the synchronous ones (``AsyncTransport`` → ``SyncTransport``,
``httpx.AsyncClient`` → ``httpx.Client``…), the way the ``unasync`` tool makes httpcore's. Only each module's
docstring is written here. `--check` runs in tests/test_package.py.
Standard library only; runs on Python 3.9+.
"""
from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path
from typing import List, Tuple

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "messaging_platform"

# Applied in order, to each line.
RULES: List[Tuple[str, str]] = [
    # Coroutine syntax.
    (r"\basync def ", "def "),
    (r"\basync (for|with) ", r"\1 "),
    (r"\(await ([^()]+\([^()]*\))\)", r"\1"),
    (r"\bawait ", ""),
    (r"_maybe_await\((.*)\)$", r"\1"),
    (r"\b__aenter__\b", "__enter__"),
    (r"\b__aexit__\b", "__exit__"),
    # Types and modules.
    (r"\bhttpx\.AsyncClient\b", "httpx.Client"),
    (r"\bAsync(Resource|Session|Transport)\b", r"Sync\1"),
    (r"\bAsync(Page|Paginator|MessagingClient|PlatformClient)\b", r"\1"),
    (r"from \._async import", "from ._sync import"),
    (r"from \._sync import (.*), _maybe_await$", r"from ._sync import \1"),
    (r"\basync_resources\b", "resources"),
    (r"\b_async_extensions\b", "_extensions"),
    # Prose in docstrings.
    (r"an async context manager", "a context manager"),
    (r"``await`` :meth:`close`", "call :meth:`close`"),
    (r"; a coroutine function is awaited", ""),
    (r" Make it inside the event loop that uses it\.", ""),
    (r", asynchronous \(``httpx\.Client``\)", ", synchronous"),
]

DOCSTRINGS = {
    "client.py": '''"""Generated from ``async_client.py`` by scripts/generate_sync.py: edit that file.

The synchronous clients: :class:`MessagingClient` (a tenant's API) and :class:`PlatformClient` (the
operator API)."""''',
    "resources.py": '''"""Generated from openapi.json by scripts/generate_resources.py and scripts/generate_sync.py: do not edit.

The synchronous client's resources, one class per group of operations.

Each method builds its request from the operation table generated from openapi.json (``_operations.py``),
so the keyword arguments map one to one to the API's fields. Optional arguments default to NOT_GIVEN (left
out); ``None`` sends JSON null, which clears a nullable field. Every method takes ``options=`` (per-call
:class:`~messaging_platform.RequestOptions`); updates take ``if_match=`` (a ``version``, or an ETag).
List methods return a :class:`Paginator` to ``for`` over (or ``paginator.page()``). Made from
``async_resources.py`` by scripts/generate_sync.py.
"""''',
    "_extensions.py": '''"""Generated from ``_async_extensions.py`` by scripts/generate_sync.py: edit that file.

The synchronous resources' hand-written parts, which the generated classes of resources.py inherit."""''',
}

SOURCES = {"client.py": "async_client.py", "resources.py": "async_resources.py", "_extensions.py": "_async_extensions.py"}


def unasync(source: str, docstring: str) -> str:
    if not source.startswith('"""'):
        raise SystemExit("the asynchronous module must open with its docstring")
    body = source[source.index('"""', 3) + 3 :]
    lines = []
    for line in body.split("\n"):
        for pattern, replacement in RULES:
            line = re.sub(pattern, replacement, line)
        lines.append(line)
    return docstring + "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    stale = False
    for target, source in SOURCES.items():
        fresh = unasync((PACKAGE / source).read_text(encoding="utf-8"), DOCSTRINGS[target])
        path = PACKAGE / target
        if not args.check:
            path.write_text(fresh, encoding="utf-8")
            continue
        committed = path.read_text(encoding="utf-8")
        if committed != fresh:
            stale = True
            diff = difflib.unified_diff(committed.splitlines(), fresh.splitlines(), target, f"{target} (generated)", lineterm="")
            print(f"{target} is out of date: run scripts/generate_sync.py\n" + "\n".join(diff), file=sys.stderr)
    if args.check and not stale:
        print("client.py, resources.py and _extensions.py match their asynchronous sources")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
