#!/usr/bin/env python3
"""Generates the SDK's resource classes from the repository's openapi.json.

    python scripts/generate_resources.py            write async_resources.py and resources.py
    python scripts/generate_resources.py --check    exit 1, naming the drift, when a committed file differs

One class per ``x-sdk-resource`` (``conversations.messages`` is ``client.conversations.messages``), one method
per ``x-sdk-method``: path parameters positional-only, the query and JSON body fields as keyword-only
arguments typed with models.py's names (required ones without a default, the others NOT_GIVEN), ``if_match=``
where If-Match is honoured, ``options=`` last, and the operation's summary and description as its docstring.
An ``x-sdk-paginated`` list returns a paginator and gets a ``…page`` twin for one page. Operations marked
``x-sdk-core`` (login, refresh, logout) belong to the hand-written session code. A class whose name has a
``…Extension`` in ``_async_extensions.py`` (hand-written: ``customers.find_by_phone``, the session's
``auth.logout``) inherits from it.

async_resources.py is written here; resources.py is made from it by scripts/generate_sync.py's rules, as
before. Standard library only; runs on Python 3.9+.
"""
from __future__ import annotations

import argparse
import ast
import difflib
import importlib.util
import json
import keyword
import re
import sys
import textwrap
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple



def _sibling(name: str) -> Any:
    """Another script of this folder, as a module (the model names and the unasync rules are theirs)."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parent / f"{name}.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[name] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


_models = _sibling("generate_models")
_sync = _sibling("generate_sync")
DEFAULT_SPEC, HTTP_METHODS, PACKAGE, SDK_ROOT = _models.DEFAULT_SPEC, _models.HTTP_METHODS, _models.PACKAGE, _models.SDK_ROOT
QUERY_ENUM_NAMES, ModelGenerator, operations_source = _models.QUERY_ENUM_NAMES, _models.ModelGenerator, _models.operations_source
pascal, union = _models.pascal, _models.union
DOCSTRINGS, unasync = _sync.DOCSTRINGS, _sync.unasync

ASYNC_RESOURCES = PACKAGE / "async_resources.py"
SYNC_RESOURCES = PACKAGE / "resources.py"
EXTENSIONS = PACKAGE / "_async_extensions.py"
WIDTH = 110

HEADER = '''"""Generated from openapi.json by scripts/generate_resources.py: do not edit (run it after `npm run openapi`).

The asynchronous client's resources, one class per group of operations; scripts/generate_sync.py makes
``resources.py`` from this file by taking the coroutine syntax out.

Each method builds its request from the operation table generated from openapi.json (``_operations.py``),
so the keyword arguments map one to one to the API's fields. Optional arguments default to NOT_GIVEN (left
out); ``None`` sends JSON null, which clears a nullable field. Every method takes ``options=`` (per-call
:class:`~messaging_platform.RequestOptions`); updates take ``if_match=`` (a ``version``, or an ETag).
Methods are coroutines, except list methods, which return an :class:`AsyncPaginator` to ``async for``
over (or ``await paginator.page()``).
"""
# fmt: off
from __future__ import annotations

from datetime import datetime
from typing import Dict, List, Optional, Union

from ._core import NOT_GIVEN, NotGivenOr, RequestOptions
from ._async import AsyncResource, AsyncTransport
'''


def snake_arg(name: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return f"{name}_" if keyword.iskeyword(name) else name


def singular(plural: str) -> str:
    return re.sub(r"s$", "", re.sub(r"ies$", "y", plural))


def docstring(text: str, indent: str) -> List[str]:
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"').strip()
    if text.endswith('"'):  # it would run into the closing quotes
        text = text[:-1] + '\\"'
    lines = textwrap.wrap(text, WIDTH - len(indent) - 3, break_on_hyphens=False, break_long_words=False)
    if not lines:
        return []
    if len(lines) == 1 and len(indent) + len(lines[0]) + 6 <= WIDTH:
        return [f'{indent}"""{lines[0]}"""']
    lines[0] = f'"""{lines[0]}'
    lines[-1] = f'{lines[-1]}"""'
    return [f"{indent}{line}" for line in lines]


class Operation:
    """What one method needs: names, arguments with their annotations, the response's annotation."""

    def __init__(self, op_id: str, method: str, path: str, op: Dict[str, Any], spec: Dict[str, Any], models: Any) -> None:
        self.id = op_id
        self.method = method
        self.resource: str = op["x-sdk-resource"]
        self.name: str = op["x-sdk-method"]
        self.paginated = op.get("x-sdk-paginated") is True
        self.doc = " ".join(part for part in (f"{op['summary']}." if op.get("summary") else "", op.get("description", "")) if part)
        parameters = [spec["components"]["parameters"][p["$ref"].split("/")[-1]] if "$ref" in p else p for p in op.get("parameters", [])]
        nested = "." in self.resource
        parent = self.resource.split(".")[-2] if nested else ""
        # The parent's `{id}` of a sub-resource is named after it: conversations.messages.list(conversation_id).
        self.path_args = [f"{singular(parent)}_id" if nested and p["name"] == "id" else snake_arg(p["name"]) for p in parameters if p["in"] == "path"]
        self.if_match = any(p["in"] == "header" and p["name"] == "If-Match" for p in parameters)
        fields: List[Tuple[str, str, bool]] = []  # (argument, annotation, required)
        for p in parameters:
            if p["in"] == "query":
                enum_name = QUERY_ENUM_NAMES.get(f"{op_id}.{p['name']}", pascal(op_id) + pascal(p["name"]))
                fields.append((snake_arg(p["name"]), annotation(p.get("schema", {}), enum_name, enum_name, models), bool(p.get("required"))))
        body_schema = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
        if body_schema:
            body_name = models.ref_name(body_schema["$ref"])
            schema = models.schemas[body_name]
            required = set(schema.get("required", []))
            for prop, sub in schema.get("properties", {}).items():
                fields.append((snake_arg(prop), annotation(sub, body_name + pascal(prop), f"{body_name}.{prop}", models), prop in required))
        paging = [f for f in fields if f[0] in ("limit", "cursor")] if self.paginated else []
        others = [f for f in fields if f not in paging]
        self.fields = [f for f in others if f[2]] + [f for f in others if not f[2]] + paging
        statuses = [(s, r) for s, r in op["responses"].items() if re.fullmatch(r"2\d\d", s)]
        refs = [r.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref") for _, r in statuses]
        names = [models.ref_name(ref) for ref in refs if ref]
        self.unwrap = False
        if self.paginated:
            self.returns = f"AsyncPaginator[{dict((f[0], f[1]) for f in models.class_fields[names[0]])['data'][len('List['):-1]}]"
        elif not names:
            self.returns = "None"
        elif len(names) == 1 and [f[0] for f in models.class_fields.get(names[0], [])] == ["data"]:
            # A list that is not paginated answers {"data": [...]}: the method returns the list.
            self.unwrap = True
            self.returns = models.class_fields[names[0]][0][1]
        else:
            self.returns = union(names)


def annotation(schema: Any, name: str, where: str, models: Any) -> str:
    """models.py's annotation for a field, with instants as ``Instant`` (a str or a datetime)."""
    if isinstance(schema, dict) and schema.get("format") == "date-time":
        return "Instant"
    for combinator in ("anyOf", "oneOf"):
        if isinstance(schema, dict) and combinator in schema and any(isinstance(m, dict) and m.get("format") == "date-time" for m in schema[combinator]):
            return union([annotation(m, name, where, models) for m in schema[combinator]])
    return models.render(schema, name, where)


def operations(spec: Dict[str, Any], models: Any) -> List[Operation]:
    out = []
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method in HTTP_METHODS and "x-sdk-resource" in op and not op.get("x-sdk-core"):
                out.append(Operation(op["operationId"], method.upper(), path, op, spec, models))
    return out


def signature(name: str, op: Operation, returns: str, is_async: bool) -> List[str]:
    args = ["self", *[f"{a}: str" for a in op.path_args]]
    if op.path_args:
        args.append("/")
    args.append("*")
    for arg, kind, required in op.fields:
        args.append(f"{arg}: {kind}" if required else f"{arg}: NotGivenOr[{kind}] = NOT_GIVEN")
    if op.if_match:
        args.append("if_match: IfMatch = None")
    args.append("options: Options = None")
    prefix = "async def" if is_async else "def"
    one_line = f"    {prefix} {name}({', '.join(args)}) -> {returns}:"
    if len(one_line) <= WIDTH:
        return [one_line]
    return [f"    {prefix} {name}(", *[f"        {a}," for a in args], f"    ) -> {returns}:"]


def call_args(op: Operation) -> str:
    if len(op.path_args) == 1:
        return f"({op.path_args[0]},)"
    return f"({', '.join(op.path_args)})"


def params_lines(op: Operation) -> List[str]:
    if not op.fields:
        return []
    items = [f'"{arg}": {arg}' for arg, _, _ in op.fields]
    one = f"        params = {{{', '.join(items)}}}"
    if len(one) <= WIDTH:
        return [one]
    return ["        params = {", *[f"            {item}," for item in items], "        }"]


def method_source(op: Operation) -> List[str]:
    lines: List[str] = []
    params = "params" if op.fields else "{}"
    if_match = ", if_match=if_match" if op.if_match else ""
    if op.paginated:
        lines += signature(op.name, op, op.returns, False)
        lines += docstring(op.doc, "        ")
        lines += params_lines(op)
        lines.append(f'        return self._list("{op.id}", {call_args(op)}, {params}, options)')
        page = "page" if op.name == "list" else f"{op.name}_page"
        lines.append("")
        lines += signature(page, op, op.returns.replace("AsyncPaginator[", "AsyncPage["), True)
        lines.append(f'        """One page of :meth:`{op.name}`."""')
        forwarded = [*op.path_args, *[f"{a}={a}" for a, _, _ in op.fields], "options=options"]
        one = f"        return await self.{op.name}({', '.join(forwarded)}).page()"
        if len(one) <= WIDTH:
            lines.append(one)
        else:
            lines += [f"        return await self.{op.name}(", *[f"            {a}," for a in forwarded], "        ).page()"]
        return lines
    lines += signature(op.name, op, op.returns, True)
    lines += docstring(op.doc, "        ")
    lines += params_lines(op)
    call = f'self._call("{op.id}", {call_args(op)}, {params}{if_match}, options=options)'
    if op.returns == "None":
        lines.append(f"        await {call}")
    elif op.unwrap:
        lines.append(f'        return (await {call})["data"]  # type: ignore[no-any-return]')
    else:
        lines.append(f"        return await {call}")
    return lines


def extension_classes() -> List[str]:
    tree = ast.parse(EXTENSIONS.read_text(encoding="utf-8"))
    return [node.name for node in tree.body if isinstance(node, ast.ClassDef) and node.name.endswith("Extension")]


def render(spec: Dict[str, Any]) -> str:
    models = ModelGenerator(spec)
    models.run()
    operations_source(spec, models)  # names the query enumerations as models.py does
    ops = operations(spec, models)
    resources: List[str] = []
    for op in ops:
        if op.resource not in resources:
            resources.append(op.resource)
    extensions = extension_classes()
    tags = {t["name"]: t.get("description", "") for t in spec.get("tags", [])}
    classes: List[Tuple[int, List[str]]] = []
    names: List[str] = []
    for resource in resources:
        own = [op for op in ops if op.resource == resource]
        class_name = "".join(pascal(part) for part in resource.split(".")[-1].split("_"))
        names.append(class_name)
        base = f"{class_name}Extension" if f"{class_name}Extension" in extensions else "AsyncResource"
        children = [r for r in resources if r.startswith(resource + ".") and "." not in r[len(resource) + 1:]]
        first = next(op for op in spec_ops(spec) if op.get("x-sdk-resource") == resource)
        about = tags.get((first.get("tags") or [""])[0], "") if "." not in resource else ""
        lines = [f"class {class_name}({base}):", *docstring(f"``client.{resource}``{': ' + about if about else '.'}", "    ")]
        if children:
            lines += ["", "    def __init__(self, transport: AsyncTransport) -> None:", "        super().__init__(transport)"]
            for child in children:
                leaf = child.split(".")[-1]
                lines.append(f"        self.{leaf} = {''.join(pascal(p) for p in leaf.split('_'))}(transport)")
        for op in own:
            lines += ["", *method_source(op)]
        classes.append((resource.count("."), lines))
    # Sub-resources first: a class is defined before the parent that makes it.
    ordered = [lines for _, lines in sorted(classes, key=lambda c: -c[0])]
    body = "\n\n\n".join("\n".join(lines) for lines in ordered)
    exported = set(models.classes) | set(models.enums.values()) | set(models.unions)
    used = sorted({word for word in re.findall(r"\b[A-Z][A-Za-z0-9]*\b", body) if word in exported})
    used_extensions = [e for e in extensions if re.search(rf"\b{e}\b", body)]
    head = [HEADER.rstrip("\n")]
    if used_extensions:
        head.append(f"from ._async_extensions import {', '.join(used_extensions)}")
    head += ["from .models import (", *[f"    {name}," for name in used], ")", "from .pagination import AsyncPage, AsyncPaginator", ""]
    head += [
        "#: An instant: an ISO 8601 string, or a datetime (a naive one is taken as UTC).",
        "Instant = Union[str, datetime]",
        "IfMatch = Union[int, str, None]",
        "Options = Optional[RequestOptions]",
        "",
        "__all__ = [",
        *[f'    "{name}",' for name in names],
        "]",
        "",
        "",
        "",
    ]
    text = "\n".join(head) + body + "\n"
    # Only the typing names the file uses.
    typing_names = [n for n in ("Dict", "List", "Optional", "Union", "Literal", "Any") if re.search(rf"\b{n}\[", text)]
    return text.replace("from typing import Dict, List, Optional, Union", f"from typing import {', '.join(typing_names)}", 1)


def spec_ops(spec: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [op for item in spec["paths"].values() for method, op in item.items() if method in HTTP_METHODS]


def outputs(spec_path: Path) -> Dict[Path, str]:
    fresh = render(json.loads(spec_path.read_text(encoding="utf-8")))
    return {ASYNC_RESOURCES: fresh, SYNC_RESOURCES: unasync(fresh, DOCSTRINGS["resources.py"])}


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed files differ from a fresh generation")
    parser.add_argument("--spec", type=Path, default=DEFAULT_SPEC, help="the OpenAPI document (default: the repository's openapi.json)")
    args = parser.parse_args(argv)
    if not args.spec.exists():
        print(f"{args.spec} is missing: run `npm run openapi` at the repository root first.", file=sys.stderr)
        return 2
    written = outputs(args.spec)
    if not args.check:
        for path, text in written.items():
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(SDK_ROOT)}")
        return 0
    stale = False
    for path, text in written.items():
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current != text:
            stale = True
            diff = list(difflib.unified_diff(current.splitlines(), text.splitlines(), str(path.relative_to(SDK_ROOT)), "fresh", lineterm="", n=1))
            print(f"{path.relative_to(SDK_ROOT)} is out of date with openapi.json:", file=sys.stderr)
            print("\n".join(diff[:40]), file=sys.stderr)
    if stale:
        print("Run `python3 scripts/generate_resources.py` in sdks/python.", file=sys.stderr)
        return 1
    print("async_resources.py and resources.py match openapi.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
