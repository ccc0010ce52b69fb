"""The SDK follows openapi.json: models.py and _operations.py are what scripts/generate_models.py makes from
it now, every operation is reachable through a resource method whose keyword arguments are the
operation's fields, and the asynchronous resources have the same signatures as the synchronous ones."""
from __future__ import annotations

import inspect
import json
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any, Dict, List, Set

import messaging_platform.async_resources as async_resources
import messaging_platform.models as models
import messaging_platform.resources as resources
from messaging_platform._operations import OPERATIONS

SDK = Path(__file__).resolve().parent.parent
OPENAPI = SDK.parent.parent / "openapi.json"
SCRIPT = SDK / "scripts" / "generate_models.py"
PACKAGE = SDK / "src" / "messaging_platform"
# Operations for Meta's and Stripe's servers (webhooks) and the customer's browser (the sandbox checkout
# page), not for API clients.
NOT_FOR_CLIENTS = {
    "verifyWhatsAppWebhook",
    "receiveWhatsAppWebhook",
    "receiveStripeWebhook",
    "paymentCheckoutPage",
    "paymentCheckoutPay",
    "paymentCheckoutDecline",
}


def generate(*args: str) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60)


def test_the_generated_files_match_openapi_json() -> None:
    result = generate("--check")
    assert result.returncode == 0, result.stderr
    assert "match openapi.json" in result.stdout


def test_the_check_fails_when_a_schema_changes(tmp_path: Path) -> None:
    document = json.loads(OPENAPI.read_text(encoding="utf-8"))
    document["components"]["schemas"]["Conversation"]["properties"]["mood"] = {"type": "string"}
    changed = tmp_path / "openapi.json"
    changed.write_text(json.dumps(document), encoding="utf-8")
    result = generate("--check", "--spec", str(changed))
    assert result.returncode == 1
    assert "models.py is out of date" in result.stderr
    assert "+    mood: str" in result.stderr


def test_every_operation_is_in_the_table_and_has_a_resource_method() -> None:
    document = json.loads(OPENAPI.read_text(encoding="utf-8"))
    # HEAD is served for GET's clients (caches, probes): no SDK calls it.
    ids = sorted(op["operationId"] for item in document["paths"].values() for method, op in item.items() if method != "head" and isinstance(op, dict) and "operationId" in op)
    assert ids == sorted(OPERATIONS)
    sources = "".join((PACKAGE / name).read_text(encoding="utf-8") for name in ("resources.py", "client.py", "_session.py"))
    missing = [op_id for op_id in ids if op_id not in NOT_FOR_CLIENTS and f'"{op_id}"' not in sources]
    assert missing == [], "operations without a resource method"


def resource_methods() -> Dict[str, Any]:
    """operationId -> the synchronous resource method that calls it."""
    found: Dict[str, Any] = {}
    for _, cls in inspect.getmembers(resources, inspect.isclass):
        if cls.__module__ != resources.__name__:
            continue
        for name, method in vars(cls).items():
            if not inspect.isfunction(method) or name.startswith("_"):
                continue
            source = inspect.getsource(method)
            for op_id in OPERATIONS:
                if f'"{op_id}"' in source:
                    found[op_id] = method
    return found


def test_resource_methods_take_exactly_the_operations_fields() -> None:
    methods = resource_methods()
    assert len(methods) >= 40
    for op_id, method in methods.items():
        op = OPERATIONS[op_id]
        parameters = inspect.signature(method).parameters
        positional = [p for p in parameters.values() if p.kind == p.POSITIONAL_ONLY and p.name != "self"]
        keywords = {p.name.rstrip("_"): p for p in parameters.values() if p.kind == p.KEYWORD_ONLY and p.name not in ("options", "if_match")}
        assert len(positional) == len(op.path_params), op_id
        assert set(keywords) == set(op.body) | set(op.query), op_id
        required: Set[str] = {name for name, p in keywords.items() if p.default is inspect.Parameter.empty}
        assert required == set(op.required_body) | set(op.required_query), op_id
        assert ("if_match" in parameters) == op.if_match, op_id
        assert "options" in parameters, op_id


def test_the_async_resources_mirror_the_sync_ones() -> None:
    for name, cls in inspect.getmembers(resources, inspect.isclass):
        if cls.__module__ != resources.__name__:
            continue
        twin = getattr(async_resources, name)
        public = sorted(n for n, m in vars(cls).items() if inspect.isfunction(m) and not n.startswith("_"))
        assert public == sorted(n for n, m in vars(twin).items() if inspect.isfunction(m) and not n.startswith("_")), name
        for method in public:
            sync_params = [(p.name, p.kind, p.default) for p in inspect.signature(getattr(cls, method)).parameters.values()]
            async_params = [(p.name, p.kind, p.default) for p in inspect.signature(getattr(twin, method)).parameters.values()]
            assert sync_params == async_params, f"{name}.{method}"
            is_list = "Paginator" in str(inspect.signature(getattr(cls, method)).return_annotation)
            assert inspect.iscoroutinefunction(getattr(twin, method)) is not is_list, f"{name}.{method}"


def test_every_model_resolves_its_types() -> None:
    resolved: List[str] = []
    for name in models.__all__:
        value = getattr(models, name)
        if isinstance(value, type) and issubclass(value, dict):
            typing.get_type_hints(value)
            resolved.append(name)
    assert len(resolved) > 60
    assert "version" in models.Conversation.__required_keys__
    assert "default_language" in models.Tenant.__required_keys__
    assert typing.get_args(models.ConversationStatus) == ("open", "pending", "snoozed", "resolved")
    assert models.ApiKeyCaller in typing.get_args(models.Me)
    assert len(typing.get_args(models.Event)) == 25
