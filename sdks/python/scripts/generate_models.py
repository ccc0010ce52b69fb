#!/usr/bin/env python3
"""Generates the SDK's typed models and operation table from the repository's openapi.json.

    python scripts/generate_models.py            write both files
    python scripts/generate_models.py --check    exit 1 when a committed file differs from a fresh generation

Writes, under src/messaging_platform/:

- models.py: a TypedDict for every object schema in components.schemas (inline objects get a name made of
  their parent's and their property's), a Literal alias for every enumeration, and a Union alias for every
  oneOf (events, entities, callers);
- _operations.py: every operation's method, path, credential, path/query/body parameters, If-Match and
  Idempotency-Key support and response schema, which the resources build their requests from and the
  tests check the resources' signatures against.

A schema change the SDK has not taken up therefore fails `--check` (run by tests/test_models.py).
Standard library only; runs on Python 3.9+.
"""
from __future__ import annotations

import argparse
import difflib
import json
import keyword
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

SDK_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SPEC = SDK_ROOT.parent.parent / "openapi.json"
PACKAGE = SDK_ROOT / "src" / "messaging_platform"
MODELS = PACKAGE / "models.py"
OPERATIONS = PACKAGE / "_operations.py"

# Names for enumerations whose first appearance would otherwise name them after a request body.
ENUM_NAMES = {
    "CreateWebhookRequest.events[]": "EventFilter",
    "ApiKey.role": "Role",
}
# Names for enumerations that appear first as a query parameter (otherwise named after the operation).
QUERY_ENUM_NAMES = {
    "listWebhookEndpointDeliveries.event_type": "EventType",
}
# Names for inline objects (used wherever the same object appears again).
CLASS_NAMES = {
    "CreateBookingRequest.customer": "CustomerInput",
    "CreateConversationRequest.customer": "CustomerInput",
}
HTTP_METHODS = ("get", "post", "put", "patch", "delete")


def pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", name) if part)


def is_identifier(name: str) -> bool:
    return name.isidentifier() and not keyword.iskeyword(name)


def literal(value: Any) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    if value is None:
        return "None"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def comment(text: str, indent: str) -> List[str]:
    return [f"{indent}#: {line}".rstrip() for line in text.strip().splitlines()]


class ModelGenerator:
    """Turns components.schemas into TypedDicts, Literal aliases and Union aliases."""

    def __init__(self, spec: Dict[str, Any]) -> None:
        self.spec = spec
        self.schemas: Dict[str, Any] = spec["components"]["schemas"]
        self.classes: Dict[str, Tuple[Dict[str, Any], str]] = {}  # name -> (schema, where)
        self.roots: Dict[str, str] = {}  # class name -> the component schema it was found in
        self.shapes: Dict[str, str] = {}  # an inline object's JSON -> the class already made for it
        self.root = ""
        self.enums: Dict[Tuple[Any, ...], str] = {}  # values -> alias name
        self.unions: Dict[str, Tuple[str, List[str], Optional[str]]] = {}  # name -> (annotation, deps, doc)
        self.class_fields: Dict[str, List[Tuple[str, str, bool, Optional[str]]]] = {}

    # Types --------------------------------------------------------------------------------------

    def ref_name(self, ref: str) -> str:
        prefix = "#/components/schemas/"
        if not ref.startswith(prefix):
            raise ValueError(f"unsupported $ref {ref}")
        name = ref[len(prefix):]
        if name not in self.schemas:
            raise ValueError(f"$ref to a missing schema: {ref}")
        return name

    def enum_alias(self, values: List[Any], name: str, where: str) -> str:
        key = tuple(values)
        if key not in self.enums:
            alias = name
            if alias in self.enums.values() or alias in self.schemas:
                raise ValueError(f"enumeration name {alias} ({where}) is taken")
            self.enums[key] = alias
        return self.enums[key]

    def render(self, schema: Any, name: str, where: str) -> str:
        """The annotation for `schema`; `name` names an inline object or enumeration found in it."""
        if schema is True or schema == {} or not isinstance(schema, dict):
            return "Any"
        if "$ref" in schema:
            return self.ref_name(schema["$ref"])
        for combinator in ("oneOf", "anyOf"):
            if combinator in schema:
                members = schema[combinator]
                objects = [m for m in members if isinstance(m, dict) and m.get("type") == "object"]
                rendered = []
                for index, member in enumerate(members):
                    member_name = name if len(objects) <= 1 else f"{name}{index + 1}"
                    rendered.append(self.render(member, member_name, where))
                return union(rendered)
        if "allOf" in schema:
            raise ValueError(f"allOf is not supported ({where})")
        if "const" in schema:
            return f"Literal[{literal(schema['const'])}]"
        if "enum" in schema:
            values = schema["enum"]
            return self.enum_alias(values, name, where)
        kind = schema.get("type")
        if isinstance(kind, list):
            return union([self.render({**schema, "type": k}, name, where) for k in kind])
        if kind == "object":
            extra = schema.get("additionalProperties", True)
            if "properties" in schema or extra is False:
                # The same inline object in several places (a conversation's `handoff`) is one class.
                shape = json.dumps(schema, sort_keys=True)
                if shape in self.shapes:
                    return self.shapes[shape]
                name = CLASS_NAMES.get(where, name)
                self.add_class(name, schema, where)
                self.shapes[shape] = name
                return name
            return f"Dict[str, {self.render(extra, name + 'Value', where + '{}')}]"
        if kind == "array":
            return f"List[{self.render(schema.get('items', {}), name + 'Item', where + '[]')}]"
        basic = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}
        if kind in basic:
            return basic[kind]
        if kind is None:
            return "Any"
        raise ValueError(f"unsupported type {kind!r} ({where})")

    def add_class(self, name: str, schema: Dict[str, Any], where: str) -> None:
        if name in self.classes:
            if self.classes[name][0] is not schema:
                raise ValueError(f"two schemas would be named {name} ({where}, {self.classes[name][1]})")
            return
        if name in self.schemas and where != name:
            raise ValueError(f"inline schema at {where} would take the name of the schema {name}")
        self.classes[name] = (schema, where)
        self.roots[name] = self.root
        required = set(schema.get("required", []))
        fields = []
        for prop, sub in schema.get("properties", {}).items():
            annotation = self.render(sub, name + pascal(prop), f"{where}.{prop}")
            description = sub.get("description") if isinstance(sub, dict) else None
            fields.append((prop, annotation, prop in required, description))
        self.class_fields[name] = fields

    def preseed_enum_names(self) -> None:
        """Names from ENUM_NAMES win wherever the enumeration appears first."""
        for where, alias in ENUM_NAMES.items():
            node: Any = self.schemas
            for part in re.findall(r"[^.\[\]]+|\[\]", where):
                node = node["items"] if part == "[]" else (node[part] if node is self.schemas else node["properties"][part])
            self.enums[tuple(node["enum"])] = alias

    def run(self) -> None:
        self.preseed_enum_names()
        # Resources before request bodies, so that shared enumerations are named after the resource
        # (`TenantPlan`, not `CreateTenantRequestPlan`).
        order = [n for n in self.schemas if not n.endswith("Request")] + [n for n in self.schemas if n.endswith("Request")]
        for name in order:
            schema = self.schemas[name]
            self.root = name
            if isinstance(schema, dict) and schema.get("type") == "object" and ("properties" in schema or schema.get("additionalProperties") is False):
                self.add_class(name, schema, name)
            else:
                annotation = self.render(schema, name, name)
                deps = [ref for ref in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", annotation) if ref in self.schemas]
                self.unions[name] = (annotation, deps, schema.get("description") if isinstance(schema, dict) else None)

    def query_enum(self, values: List[Any], name: str) -> str:
        return self.enum_alias(values, name, name)

    # Output -------------------------------------------------------------------------------------

    def class_source(self, name: str) -> List[str]:
        schema, where = self.classes[name]
        fields = self.class_fields[name]
        required = [f for f in fields if f[2]]
        optional = [f for f in fields if not f[2]]
        doc = schema.get("description")
        parts = [doc.strip()] if doc else []
        if where != name:
            parts.append(f"``{where}`` in openapi.json.")
        docstring = "\n\n".join(parts)
        out: List[str] = []

        def functional(alias: str, part: List[Tuple[str, str, bool, Optional[str]]], total: bool) -> List[str]:
            lines = comment(docstring, "") if docstring and alias == name else []
            lines += [f'{alias} = TypedDict(', f'    "{alias}",', "    {"]
            for prop, annotation, _, description in part:
                if description:
                    lines += comment(description, "        ")
                lines.append(f"        {json.dumps(prop)}: {json.dumps(annotation)},")
            lines.append("    },")
            if not total:
                lines.append("    total=False,")
            lines.append(")")
            return lines

        def body(part: List[Tuple[str, str, bool, Optional[str]]], with_doc: bool) -> List[str]:
            lines = []
            if with_doc and docstring:
                lines.append('    """' + docstring.replace("\n", "\n    ").replace("    \n", "\n") + '"""')
                lines.append("")
            for prop, annotation, _, description in part:
                if description:
                    lines += comment(description, "    ")
                lines.append(f"    {prop}: {annotation}")
            if not lines:
                lines.append("    pass")
            if lines and lines[-1] == "":
                lines.pop()
            return lines

        simple_required = all(is_identifier(f[0]) for f in required)
        simple_optional = all(is_identifier(f[0]) for f in optional)
        if not optional:
            if simple_required:
                out.append(f"class {name}(TypedDict):")
                out += body(required, True)
            else:
                out += functional(name, required, True)
        elif not required:
            if simple_optional:
                out.append(f"class {name}(TypedDict, total=False):")
                out += body(optional, True)
            else:
                out += functional(name, optional, False)
        elif simple_optional:
            base = f"_{name}Required"
            if simple_required:
                out.append(f"class {base}(TypedDict):")
                out += body(required, False)
            else:
                out += functional(base, required, True)
            out += ["", ""]
            out.append(f"class {name}({base}, total=False):")
            out += body(optional, True)
        else:
            base_required, base_optional = f"_{name}Required", f"_{name}Optional"
            out += functional(base_required, required, True)
            out += ["", ""]
            out += functional(base_optional, optional, False)
            out += ["", ""]
            out.append(f"class {name}({base_required}, {base_optional}):")
            out += body([], True)
        return out

    def ordered_unions(self) -> List[str]:
        done: List[str] = []

        def visit(name: str, trail: Tuple[str, ...]) -> None:
            if name in done or name not in self.unions:
                return
            if name in trail:
                raise ValueError(f"alias cycle: {' -> '.join(trail + (name,))}")
            for dep in self.unions[name][1]:
                visit(dep, trail + (name,))
            done.append(name)

        for name in self.unions:
            visit(name, ())
        return done

    def source(self, version: str) -> str:
        lines = [
            '"""The API\'s types, generated from openapi.json (API version ' + version + ").",
            "",
            "Every resource is a TypedDict (responses are plain dicts, typed with these), every enumeration a",
            "Literal alias, every oneOf a Union alias. Generated by scripts/generate_models.py: do not edit; run",
            "`python scripts/generate_models.py` in sdks/python after the API changes.",
            '"""',
            "# fmt: off",
            "from __future__ import annotations",
            "",
            "from typing import Any, Dict, List, Literal, Optional, TypedDict, Union",
            "",
        ]
        names = sorted(set(self.enums.values()) | set(self.classes) | set(self.unions))
        lines.append("__all__ = [")
        lines += [f"    {json.dumps(n)}," for n in names]
        lines += ["]", "", "# Enumerations", ""]
        for values, alias in sorted(self.enums.items(), key=lambda item: item[1]):
            rendered = ", ".join(literal(v) for v in values)
            single = f"{alias} = Literal[{rendered}]"
            if len(single) <= 110:
                lines.append(single)
            else:
                lines.append(f"{alias} = Literal[")
                lines += [f"    {literal(v)}," for v in values]
                lines.append("]")
        lines += ["", "", "# Objects"]
        for root in self.schemas:
            for name in [n for n in self.classes if self.roots[n] == root]:
                lines += ["", ""]
                lines += self.class_source(name)
        lines += ["", "", "# Unions (discriminated by the property named in each comment)"]
        for name in self.ordered_unions():
            annotation, _, description = self.unions[name]
            schema = self.schemas[name]
            lines.append("")
            if description:
                lines += comment(description, "")
            discriminator = schema.get("discriminator", {}).get("propertyName") if isinstance(schema, dict) else None
            if discriminator:
                lines.append(f"#: Discriminated by ``{discriminator}``.")
            if annotation.startswith("Union[") and len(annotation) > 100:
                members = split_union(annotation)
                lines.append(f"{name} = Union[")
                lines += [f"    {m}," for m in members]
                lines.append("]")
            else:
                lines.append(f"{name} = {annotation}")
        lines.append("")
        return "\n".join(lines)


def union(members: List[str]) -> str:
    flat: List[str] = []
    for member in members:
        for part in split_union(member) if member.startswith("Union[") else [member]:
            if part not in flat:
                flat.append(part)
    has_none = "None" in flat
    rest = [m for m in flat if m != "None"]
    if not rest:
        return "None"
    core = rest[0] if len(rest) == 1 else f"Union[{', '.join(rest)}]"
    if has_none:
        return f"Optional[{core}]" if len(rest) == 1 else f"Union[{', '.join(rest)}, None]"
    return core


def split_union(annotation: str) -> List[str]:
    inner = annotation[len("Union["):-1]
    parts, depth, current = [], 0, ""
    for char in inner:
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    parts.append(current.strip())
    return parts


# Operations ---------------------------------------------------------------------------------------


def operations_source(spec: Dict[str, Any], models: ModelGenerator) -> str:
    parameters = spec["components"].get("parameters", {})
    entries = []
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method not in HTTP_METHODS:
                continue
            op_id = op["operationId"]
            params = []
            for p in list(item.get("parameters", [])) + list(op.get("parameters", [])):
                if "$ref" in p:
                    p = parameters[p["$ref"].split("/")[-1]]
                params.append(p)
            path_params = tuple(p["name"] for p in params if p["in"] == "path")
            query = tuple(p["name"] for p in params if p["in"] == "query")
            required_query = tuple(p["name"] for p in params if p["in"] == "query" and p.get("required"))
            for p in params:
                if p["in"] == "query" and isinstance(p.get("schema"), dict) and "enum" in p["schema"]:
                    name = QUERY_ENUM_NAMES.get(f"{op_id}.{p['name']}", pascal(op_id) + pascal(p["name"]))
                    models.query_enum(p["schema"]["enum"], name)
            headers = {p["name"].lower(): p for p in params if p["in"] == "header"}
            tenant = headers.get("x-tenant-id")
            security = op.get("security", spec.get("security", []))
            schemes = {name for requirement in security for name in requirement}
            auth = "none" if not schemes else "platform" if schemes == {"PlatformToken"} else "tenant"
            body_schema_name = None
            body, required_body = (), ()
            request = op.get("requestBody")
            if request:
                schema = request.get("content", {}).get("application/json", {}).get("schema", {})
                if "$ref" in schema:
                    body_schema_name = models.ref_name(schema["$ref"])
                    schema = models.schemas[body_schema_name]
                body = tuple(schema.get("properties", {}))
                required_body = tuple(schema.get("required", []))
            responses = {}
            item_schema = None
            for status, response in op.get("responses", {}).items():
                if not status.startswith("2"):
                    continue
                schema = response.get("content", {}).get("application/json", {}).get("schema")
                name = models.ref_name(schema["$ref"]) if isinstance(schema, dict) and "$ref" in schema else None
                responses[int(status)] = name
                if name:
                    props = models.schemas[name].get("properties", {})
                    if "pagination" in props and "data" in props:
                        item_schema = props["data"].get("items", {}).get("$ref", "").split("/")[-1] or None
            entries.append(
                {
                    "id": op_id,
                    "method": method.upper(),
                    "path": path,
                    "auth": auth,
                    "path_params": path_params,
                    "query": query,
                    "required_query": required_query,
                    "has_body": request is not None,
                    "body_required": bool(request and request.get("required")),
                    "body_schema": body_schema_name,
                    "body": body,
                    "required_body": required_body,
                    "if_match": "if-match" in headers,
                    "idempotency_key": "idempotency-key" in headers,
                    "tenant_header": None if tenant is None else "required" if tenant.get("required") else "optional",
                    "responses": responses,
                    "page_item": item_schema,
                }
            )
    lines = [
        '"""Every operation of openapi.json: how to call it. Generated by scripts/generate_models.py: do not edit."""',
        "# fmt: off",
        "from typing import Dict, NamedTuple, Optional, Tuple",
        "",
        "",
        "class Operation(NamedTuple):",
        '    """One operation of the API, as the resources build its requests."""',
        "",
        "    id: str",
        "    method: str",
        "    #: Relative to /api/v1, with {name} placeholders for the path parameters.",
        "    path: str",
        "    #: 'tenant' (API key or access token, with X-Tenant-ID), 'platform' (the operator token) or 'none'.",
        "    auth: str",
        "    path_params: Tuple[str, ...]",
        "    query: Tuple[str, ...]",
        "    required_query: Tuple[str, ...]",
        "    has_body: bool",
        "    body_required: bool",
        "    #: The request body's schema in models.py.",
        "    body_schema: Optional[str]",
        "    #: The JSON body's properties.",
        "    body: Tuple[str, ...]",
        "    required_body: Tuple[str, ...]",
        "    #: Whether If-Match is honoured.",
        "    if_match: bool",
        "    #: Whether Idempotency-Key is honoured.",
        "    idempotency_key: bool",
        "    #: X-Tenant-ID: 'required', 'optional' or None.",
        "    tenant_header: Optional[str]",
        "    #: Success statuses and their response schema (None: no body).",
        "    responses: Dict[int, Optional[str]]",
        "    #: For paginated lists: the schema of the items.",
        "    page_item: Optional[str]",
        "",
        "",
        "OPERATIONS: Dict[str, Operation] = {",
    ]
    for entry in entries:
        lines.append(f"    {json.dumps(entry['id'])}: Operation(")
        for key, value in entry.items():
            lines.append(f"        {key}={py(value)},")
        lines.append("    ),")
    lines += ["}", ""]
    return "\n".join(lines)


def py(value: Any) -> str:
    if isinstance(value, tuple):
        if len(value) == 1:
            return f"({py(value[0])},)"
        return "(" + ", ".join(py(v) for v in value) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py(k)}: {py(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def generate(spec_path: Path) -> Dict[Path, str]:
    spec = json.loads(spec_path.read_text(encoding="utf-8"))
    models = ModelGenerator(spec)
    models.run()
    operations = operations_source(spec, models)
    return {MODELS: models.source(spec["info"]["version"]), OPERATIONS: operations}


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed files differ from a fresh generation")
    parser.add_argument("--spec", type=Path, default=DEFAULT_SPEC, help="the OpenAPI document (default: the repository's openapi.json)")
    args = parser.parse_args(argv)
    if not args.spec.exists():
        print(f"{args.spec} is missing: run `npm run openapi` at the repository root first.", file=sys.stderr)
        return 2
    outputs = generate(args.spec)
    if args.check:
        stale = []
        for path, text in outputs.items():
            current = path.read_text(encoding="utf-8") if path.exists() else ""
            if current != text:
                diff = list(difflib.unified_diff(current.splitlines(), text.splitlines(), str(path.relative_to(SDK_ROOT)), "fresh", lineterm="", n=1))
                stale.append((path, diff))
        if stale:
            for path, diff in stale:
                print(f"{path.relative_to(SDK_ROOT)} is out of date with openapi.json:", file=sys.stderr)
                print("\n".join(diff[:40]), file=sys.stderr)
            print("Run `python scripts/generate_models.py` in sdks/python and adapt the SDK to the change.", file=sys.stderr)
            return 1
        print("models.py and _operations.py match openapi.json")
        return 0
    for path, text in outputs.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(SDK_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
