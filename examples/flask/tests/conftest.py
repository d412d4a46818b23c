"""The sandbox and the app, started once for the session; the sandbox restored before each test.

msgctl is the single binary named by MSGCTL_BIN, or this repository's bin/msgctl run by node.
"""

import json
import os
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from werkzeug.serving import make_server

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from app import create_app  # noqa: E402

SECRET = "whsec_flask_example_0123456789"
REPO = HERE.parents[2]


def msgctl_command() -> list[str]:
    binary = os.environ.get("MSGCTL_BIN")
    return [binary] if binary else ["node", str(REPO / "bin" / "msgctl")]


class Sandbox:
    """A `msgctl serve` process: its ready line, and calls to its API with the first account's key."""

    def __init__(self, ready: dict, process: subprocess.Popen):
        self.ready = ready
        self.process = process
        self.base_url = ready["base_url"]
        self.otp_url = ready["otp_url"]
        self.api_key = ready["accounts"][0]["api_key"]
        self.number = ready["accounts"][0]["numbers"][0]["handle"]

    def call(self, method: str, path: str, body: dict | None = None):
        request = urllib.request.Request(
            self.base_url + path,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.api_key}", "Content-Type": "application/json"},
            method=method,
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def ok(self, method: str, path: str, body: dict | None = None):
        status, answer = self.call(method, path, body)
        assert status < 300, answer
        return answer["data"]


@pytest.fixture(scope="session")
def sandbox():
    process = subprocess.Popen(
        [*msgctl_command(), "serve", "--json", "--quiet", "--port", "0", "--otp-port", "0",
         "--db", ":memory:", "--clock", "manual", "--no-state-file"],
        stdout=subprocess.PIPE,
        text=True,
    )
    ready = json.loads(process.stdout.readline())
    yield Sandbox(ready, process)
    process.terminate()
    assert process.wait(timeout=10) == 0


@pytest.fixture(scope="session")
def app_url(sandbox):
    app = create_app({"base_url": sandbox.base_url, "api_key": sandbox.api_key, "secret": SECRET,
                      "from_number": sandbox.number})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}"
    # The world every test starts from: the app's endpoint subscribed, saved once.
    sandbox.ok("POST", "/v1/webhooks", {"url": f"{url}/hooks", "secret": SECRET})
    sandbox.ok("POST", "/sandbox/v1/snapshots", {"name": "app-ready"})
    yield url, app
    server.shutdown()


@pytest.fixture(autouse=True)
def fresh(sandbox, app_url):
    """Each test starts from the snapshot (about 10 ms) with an app that has heard nothing."""
    sandbox.ok("POST", "/sandbox/v1/snapshots/app-ready/restore")
    state = app_url[1].config["STATE"]
    state.update(last_inbound=None, statuses={}, seen_event_ids=set())
