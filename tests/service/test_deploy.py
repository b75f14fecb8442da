"""deploy/compose.yaml and deploy/k8s/ read as their tools read them: every setting the service
reads is set there or documented, every one set there is read, the probes ask routes that exist,
and the images and commands are the package's own."""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask import Flask

from service.app import DEFAULTS, create_app
from service.embedded_redis import EmbeddedRedis
from service.worker_http import ROUTES as WORKER_ROUTES

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
#: Where the service's settings are read: the server, the rules' search budgets, gunicorn's file.
READERS = [*(ROOT / "service").rglob("*.py"), *(ROOT / "ai").rglob("*.py"), DEPLOY / "gunicorn.conf.py"]
DOCS = [ROOT / "README.md", DEPLOY / "CLUSTER.md", *(ROOT / "docs").glob("*.md")]
#: Set for the interpreter in the image, not for the service.
INTERPRETER = {"PYTHONUNBUFFERED"}
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
IMAGE = f"archipelago:{PYPROJECT['project']['version']}"
ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]*")


# --- what the service reads ------------------------------------------------------------------


def _constants(tree: ast.Module) -> dict[str, Any]:
    """Module-level NAME = <literal> assignments."""
    found = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
        if isinstance(node, ast.AnnAssign):
            target = node.target
        if isinstance(target, ast.Name) and node.value is not None:
            try:
                found[target.id] = ast.literal_eval(node.value)
            except ValueError:
                continue
    return found


def _is_environment(node: ast.expr) -> bool:
    text = ast.unparse(node)
    return text.endswith("environ") or text in ("env", "self.env", "os")


def _wsgi_environ_nodes(tree: ast.Module) -> set[int]:
    """The nodes of functions where `environ` is a request's WSGI environ, not the process's."""
    found: set[int] = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        assigns = [n for n in ast.walk(function) if isinstance(n, ast.Assign)]
        if any("request" in ast.unparse(a.value) and "environ" in ast.unparse(a.targets[0]) for a in assigns):
            found.update(id(n) for n in ast.walk(function))
    return found


def variables_read(path: Path) -> set[str]:
    """The environment variables a module reads: os.environ / env lookups by literal or constant,
    `_int_env(env, NAME)` helpers, and the keys of a module's ENVIRONMENT mapping."""
    tree = ast.parse(path.read_text(), str(path))
    constants = _constants(tree)

    def resolve(node: ast.expr) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name) and isinstance(constants.get(node.id), str):
            return str(constants[node.id])
        return None

    names: set[str | None] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Dict):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and target.id == "ENVIRONMENT":
                names.update(resolve(key) for key in node.value.keys if key is not None)
    wsgi = _wsgi_environ_nodes(tree)
    for node in ast.walk(tree):
        if id(node) in wsgi:
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            if node.func.attr in ("get", "getenv", "setdefault", "pop") and _is_environment(node.func.value):
                names.add(resolve(node.args[0]))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.endswith("_env"):
            names.add(resolve(node.args[1]) if len(node.args) > 1 else None)
        if isinstance(node, ast.Subscript) and _is_environment(node.value):
            names.add(resolve(node.slice))
    return {n for n in names if n is not None and ENV_NAME.fullmatch(n)}


def service_variables() -> set[str]:
    return set().union(*(variables_read(path) for path in READERS))


def documented() -> set[str]:
    return {name for doc in DOCS for name in re.findall(r"`([A-Z][A-Z0-9_]+)[`=]", doc.read_text())}


# --- what the deployments say ----------------------------------------------------------------


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return loaded


def manifests() -> list[dict[str, Any]]:
    return [
        document
        for path in sorted((DEPLOY / "k8s").glob("*.yaml"))
        for document in yaml.safe_load_all(path.read_text())
        if document and "kind" in document and document["kind"] != "Kustomization"
    ]


def kustomization() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "k8s" / "kustomization.yaml").read_text())
    return loaded


def of_kind(kind: str) -> dict[str, dict[str, Any]]:
    return {m["metadata"]["name"]: m for m in manifests() if m["kind"] == kind}


def containers(name: str) -> dict[str, Any]:
    (container,) = of_kind("Deployment")[name]["spec"]["template"]["spec"]["containers"]
    return dict(container)


def container_environment(container: dict[str, Any]) -> dict[str, str]:
    """Its variables: its env entries and the ConfigMaps and Secrets it takes whole."""
    maps, secrets = of_kind("ConfigMap"), of_kind("Secret")
    found: dict[str, str] = {}
    for source in container.get("envFrom", []):
        if "configMapRef" in source:
            found.update(maps[source["configMapRef"]["name"]]["data"])
        if "secretRef" in source:
            found.update(secrets[source["secretRef"]["name"]]["stringData"])
    for entry in container.get("env", []):
        found[entry["name"]] = str(entry.get("value", "<from a reference>"))
    return found


def app_services() -> dict[str, dict[str, Any]]:
    """The compose services that run the package's image (the web app and the workers)."""
    return {name: s for name, s in compose()["services"].items() if s.get("image") == IMAGE}


def deployments_and_services() -> Iterator[tuple[str, dict[str, str], list[str]]]:
    """(where, variables, command) of every container of the package's image, in both files."""
    for name, service in app_services().items():
        yield f"compose {name}", {k: str(v) for k, v in service["environment"].items()}, service["command"]
    for name in of_kind("Deployment"):
        container = containers(name)
        if container["image"] == "archipelago":
            yield f"k8s {name}", container_environment(container), container["command"]


@pytest.fixture
def app(redis_server: EmbeddedRedis, redis_client: object) -> Flask:
    return create_app({"REDIS_URL": redis_server.url, "RQ_REDIS_URL": redis_server.url})


# --- the tests -------------------------------------------------------------------------------


def test_the_scan_finds_the_settings_read_every_way_the_service_reads_them() -> None:
    """The checks below are only as good as this scan: it must see each way of reading."""
    assert service_variables() >= {
        "REDIS_URL",  # env.get("...")
        "ARCHIPELAGO_RATE_LIMITS",  # env.get(SWITCH)
        "ARCHIPELAGO_DICE_SEED",  # env.get(SEED_VARIABLE)
        "ARCHIPELAGO_SSE_MAX_SECONDS",  # the app's ENVIRONMENT mapping
        "ARCHIPELAGO_AI_GAMES_OVERALL",  # ai_games' ENVIRONMENT mapping
        "ARCHIPELAGO_STOP_TIMEOUT",  # _float_env(self.env, "...")
        "GUNICORN_THREADS",  # os.environ.get in deploy/gunicorn.conf.py
        "PROMETHEUS_MULTIPROC_DIR",  # os.environ[MULTIPROC_DIR]
        "ARCHIPELAGO_LOG_FORMAT",
        "ARCHIPELAGO_WORKER_PORT",
        "ARCHIPELAGO_AI_MAX_ITERATIONS",  # ai/policies.py
    }


def test_every_setting_the_service_reads_is_set_in_a_deployment_or_documented() -> None:
    set_somewhere = {name for _, variables, _ in deployments_and_services() for name in variables}

    missing = service_variables() - set_somewhere - documented()

    assert not missing, f"read by the service, set nowhere and documented nowhere: {sorted(missing)}"


def test_every_setting_a_deployment_sets_is_read_by_the_service() -> None:
    read = service_variables()
    for where, variables, _ in deployments_and_services():
        # A variable may exist only to be spelled into another one, as $(REDIS_PASSWORD) is.
        spelled = {ref for value in variables.values() for ref in re.findall(r"\$\((\w+)\)", value)}
        unknown = set(variables) - read - spelled - INTERPRETER
        assert not unknown, f"{where} sets what nothing reads (a typo?): {sorted(unknown)}"


def test_the_web_probes_ask_routes_of_the_app(app: Flask) -> None:
    routes = {rule.rule for rule in app.url_map.iter_rules()}
    web = containers("web")
    port = int(container_environment(web)["PORT"])
    (declared,) = web["ports"]
    assert declared["containerPort"] == port

    for probe in ("readinessProbe", "livenessProbe"):
        get = web[probe]["httpGet"]
        assert get["path"] in routes
        assert get["port"] in (declared["name"], port)
    assert web["readinessProbe"]["httpGet"]["path"] == "/health"
    assert web["livenessProbe"]["httpGet"]["path"] == "/health/live"
    check = " ".join(compose()["services"]["web"]["healthcheck"]["test"])
    assert re.search(r"http://127\.0\.0\.1:(\d+)(/[\w/]*)", check).groups() == (str(port), "/health")
    annotations = of_kind("Deployment")["web"]["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/path"] in routes


def test_the_worker_probes_ask_routes_of_the_workers_port() -> None:
    worker = containers("worker")
    port = int(container_environment(worker)["ARCHIPELAGO_WORKER_PORT"])
    (declared,) = worker["ports"]
    assert declared["containerPort"] == port

    for probe in ("readinessProbe", "livenessProbe"):
        assert worker[probe]["httpGet"]["path"] in WORKER_ROUTES
        assert worker[probe]["httpGet"]["port"] in (declared["name"], port)
    compose_worker = compose()["services"]["worker"]
    assert compose_worker["environment"]["ARCHIPELAGO_WORKER_PORT"] == str(port)
    check = " ".join(compose_worker["healthcheck"]["test"])
    assert re.search(r"http://127\.0\.0\.1:(\d+)(/[\w/]*)", check).groups() == (str(port), "/health/live")


def test_images_and_commands_are_the_packages_own() -> None:
    scripts = PYPROJECT["project"]["scripts"]
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    copied = set(re.findall(r"^COPY (\w+) \1$", dockerfile, re.MULTILINE))
    packages = {p.rstrip("*") for p in PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]}
    assert packages <= copied, f"the image leaves out {sorted(packages - copied)}"
    assert "pip install --no-cache-dir ." in dockerfile
    assert "WORKDIR /app" in dockerfile

    for service in app_services().values():
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
    images = kustomization()["images"]
    assert [(i["name"], f"{i['newName']}:{i['newTag']}") for i in images] == [("archipelago", IMAGE)]
    for name in set(of_kind("Deployment")) - {"proxy"}:
        assert containers(name)["image"] == "archipelago"

    commands = {where: command for where, _, command in deployments_and_services()}
    assert set(commands) == {"compose web", "compose worker", "k8s web", "k8s worker"}
    for where, command in commands.items():
        if where.endswith("worker"):
            assert command == ["archipelago-worker"] and "archipelago-worker" in scripts
        else:
            assert command[:2] == ["gunicorn", "-c"]
            config = Path(command[2])
            assert config.parent == Path("/app/deploy") and (DEPLOY / config.name).is_file()


def test_redis_keeps_every_acknowledged_append() -> None:
    """AOF with appendfsync always and no eviction, on a persistent volume, in both files."""
    redis_compose = compose()["services"]["redis"]
    assert "${REDIS_APPENDFSYNC:-always}" in redis_compose["command"]
    assert any(v.endswith(":/data") for v in redis_compose["volumes"])
    (statefulset,) = of_kind("StatefulSet").values()
    args = statefulset["spec"]["template"]["spec"]["containers"][0]["args"]
    settings = dict(zip(args[1::2], args[2::2], strict=True))
    assert settings["--appendonly"] == "yes"
    assert settings["--appendfsync"] == "always"
    assert settings["--maxmemory-policy"] == "noeviction"
    assert statefulset["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "data"
    for _, variables, _ in deployments_and_services():
        host = re.search(r"@?([\w.-]+):6379", variables["REDIS_URL"])
        assert host and host.group(1).split(".")[0] in ("redis", "redis-0")


def test_rq_dashboard_watches_rqs_redis() -> None:
    dashboard = compose()["services"]["rq-dashboard"]
    assert (
        dashboard["environment"]["RQ_DASHBOARD_REDIS_URL"]
        == compose()["services"]["worker"]["environment"]["REDIS_URL"]
    )
    assert dashboard["command"][0] == "rq-dashboard"


def test_nginx_fronts_the_web_app_and_cuts_slow_clients_off_in_both_files() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    assert of_kind("ConfigMap")["archipelago-proxy"]["data"]["nginx.conf"] == conf
    mount = containers("proxy")["volumeMounts"][0]
    assert (mount["mountPath"], mount["subPath"]) == ("/etc/nginx/nginx.conf", "nginx.conf")
    assert "./nginx.conf:/etc/nginx/nginx.conf:ro" in compose()["services"]["proxy"]["volumes"]

    settings = dict(
        re.findall(r"^\s*(client_header_timeout|client_body_timeout|send_timeout) (\d+)s;", conf, re.M)
    )
    assert settings and all(0 < int(seconds) <= 30 for seconds in settings.values()) and len(settings) == 3
    upstream = re.search(r"server (\w+):(\d+);", conf)
    assert upstream and upstream.groups() == ("web", container_environment(containers("web"))["PORT"])
    (web_port,) = of_kind("Service")["web"]["spec"]["ports"]
    assert web_port["port"] == int(upstream.group(2))
    # The streams: unbuffered, and read longer than the app's heartbeat between two messages.
    stream = re.search(r"location ~ \^/\(games\|tournaments\)/\[\^/\]\+/stream\$ \{(.*?)\}", conf, re.S)
    assert stream and "proxy_buffering off;" in stream.group(1)
    read = re.search(r"proxy_read_timeout (\d+)s;", stream.group(1))
    assert read and int(read.group(1)) > DEFAULTS["SSE_HEARTBEAT_SECONDS"]
    # Only the proxy is published; the web app is reached through it.
    assert "ports" not in compose()["services"]["web"]
    assert compose()["services"]["proxy"]["ports"] == ["${PORT:-8000}:8080"]
