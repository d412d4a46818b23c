import json
import os
import subprocess
import urllib.request
from pathlib import Path

from conftest import SECRET, msgctl_command

EXAMPLE = Path(__file__).resolve().parents[1]


def app_call(url: str, method: str = "GET", body: dict | None = None):
    request = urllib.request.Request(
        url, data=None if body is None else json.dumps(body).encode(), method=method,
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_an_inbound_text_reaches_the_app(sandbox, app_url):
    url, _ = app_url
    sandbox.ok("POST", "/sandbox/v1/simulate/inbound", {"from": "+14155550191", "to": sandbox.number, "text": "hello"})
    sandbox.ok("POST", "/sandbox/v1/settle")  # every delivery due has reached the app
    assert app_call(f"{url}/api/last-inbound") == (200, {"from": "+14155550191", "text": "hello"})


def test_the_app_texts_and_hears_it_was_read(sandbox, app_url):
    url, _ = app_url
    status, sent = app_call(f"{url}/api/notify", "POST", {"to": "+14155550191", "text": "Your order shipped"})
    assert status == 202
    sandbox.ok("POST", "/sandbox/v1/clock/advance", {"duration": "5s"})  # sent, delivered, read
    sandbox.ok("POST", "/sandbox/v1/settle")
    assert sandbox.ok("GET", f"/v1/messages/{sent['id']}")["status"] == "read"
    assert app_call(f"{url}/api/messages/{sent['id']}") == (200, {"id": sent["id"], "status": "read"})


def test_a_restore_forgets_what_came_after_the_snapshot(sandbox, app_url):
    url, _ = app_url
    _, sent = app_call(f"{url}/api/notify", "POST", {"to": "+14155550191", "text": "soon gone"})
    sandbox.ok("POST", "/sandbox/v1/snapshots/app-ready/restore")
    status, answer = sandbox.call("GET", f"/v1/messages/{sent['id']}")
    assert (status, answer["error"]) == (404, "not_found")


def test_the_scenario_file_passes(sandbox, app_url, tmp_path):
    url, _ = app_url
    junit = tmp_path / "scenario.xml"
    run = subprocess.run(
        [*msgctl_command(), "run", str(EXAMPLE / "scenario.yaml"), "--junit", str(junit),
         "--base-url", sandbox.base_url, "--otp-url", sandbox.otp_url, "--api-key", sandbox.api_key],
        env={**os.environ, "APP_URL": url, "NO_COLOR": "1"},
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed, 0 failed" in run.stdout
    assert 'tests="1" failures="0" errors="0"' in junit.read_text()


def test_the_webhook_handler_passes_msgctl_webhooks_check(sandbox, app_url):
    """Signatures, replays, repeats, order, new fields: the handler answers each probe as it should."""
    url, _ = app_url
    check = subprocess.run(
        [*msgctl_command(), "webhooks", "check", "--url", f"{url}/hooks", "--secret", SECRET, "--json",
         "--base-url", sandbox.base_url, "--api-key", sandbox.api_key],
        capture_output=True, text=True, timeout=180,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert json.loads(check.stdout)["passed"] is True
