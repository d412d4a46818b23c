"""A small Flask app that texts customers through the messaging API and takes its webhooks.

Configured by environment variables: MSGCTL_BASE_URL and MSGCTL_API_KEY (the API to call: the
sandbox here, the real service in production), WEBHOOK_SECRET (the endpoint's signing secret) and
FROM_NUMBER (the number it texts from).
"""

import hashlib
import hmac
import json
import os
import re
import time
import urllib.error
import urllib.request

from flask import Flask, jsonify, request


def verify_signature(raw_body: bytes, header: str | None, secret: str, tolerance_seconds: int = 300) -> bool:
    """True when `header` (X-service-Signature) signs `raw_body` (the bytes as received) with `secret`."""
    if not header:
        return False
    timestamp = None
    signatures = []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and value.isdigit():
            timestamp = int(value)
        elif key == "v1" and re.fullmatch(r"[0-9a-f]{64}", value):
            signatures.append(value)
    if timestamp is None or not signatures or abs(time.time() - timestamp) > tolerance_seconds:
        return False
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + raw_body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(signature, expected) for signature in signatures)


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__)
    settings = {
        "base_url": os.environ.get("MSGCTL_BASE_URL", "http://127.0.0.1:4010"),
        "api_key": os.environ.get("MSGCTL_API_KEY", ""),
        "secret": os.environ.get("WEBHOOK_SECRET", ""),
        "from_number": os.environ.get("FROM_NUMBER", "+14155550101"),
        **(config or {}),
    }
    # What the app has learnt from webhooks: the last text in, each message's latest status.
    state = {"last_inbound": None, "statuses": {}, "seen_event_ids": set()}
    app.config["STATE"] = state

    @app.post("/hooks")
    def hooks():
        body = request.get_data()
        if not verify_signature(body, request.headers.get("X-service-Signature"), settings["secret"]):
            return "bad signature", 400
        event_id = request.headers.get("X-Msgctl-Event-Id")
        if event_id in state["seen_event_ids"]:
            return "", 204  # delivered again (at least once): already handled
        state["seen_event_ids"].add(event_id)
        event = json.loads(body)
        if event["type"] == "message.received":
            state["last_inbound"] = {"from": event["from"], "text": event["text"]}
        elif event["type"].startswith("message."):
            state["statuses"][event["message_id"]] = event.get("status")
        return "", 204

    @app.get("/api/last-inbound")
    def last_inbound():
        if state["last_inbound"] is None:
            return jsonify(error="nothing received yet"), 404
        return jsonify(state["last_inbound"])

    @app.post("/api/notify")
    def notify():
        payload = request.get_json()
        call = urllib.request.Request(
            f"{settings['base_url']}/v1/messages",
            data=json.dumps({"to": payload["to"], "from_handle": settings["from_number"], "text": payload["text"]}).encode(),
            headers={"Authorization": f"Bearer {settings['api_key']}", "Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(call, timeout=10) as answer:
                message = json.load(answer)["data"]
        except urllib.error.HTTPError as error:
            return jsonify(json.load(error)), error.code
        return jsonify(id=message["id"], status=message["status"]), 202

    @app.get("/api/messages/<message_id>")
    def message_status(message_id: str):
        return jsonify(id=message_id, status=state["statuses"].get(message_id))

    return app


if __name__ == "__main__":
    create_app().run(host="127.0.0.1", port=int(os.environ.get("PORT", "5000")))
