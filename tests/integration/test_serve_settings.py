"""`memdesk serve` follows the settings file while it runs, as `memdesk mcp` does."""

from __future__ import annotations

import httpx
import pytest
from tests.support.cli import MemdeskCommand, out
from tests.support.server import ServeProcess


@pytest.mark.engines("sqlite")  # settings file, not storage
def test_a_settings_change_holds_from_the_next_request(memdesk: MemdeskCommand, tmp_path):
    token = out(memdesk("token", "create", "bot")).strip()
    base = tmp_path / "base.md"
    base.write_text("You are Ada's travel helper.", encoding="utf-8")
    served = ServeProcess(memdesk.data_dir)
    try:
        client = httpx.Client(base_url=served.url, headers={"Authorization": f"Bearer {token}"})
        for number in range(3):
            body = {"key": f"train-{number}", "content": f"Train {number} leaves at nine from {number}."}
            assert client.post("/entries", json=body).status_code == 200
        before = client.get("/prompt", params={"message": "train"}).json()
        assert not before["text"].startswith("You are Ada's travel helper.")
        assert before["text"].count("- train-") == 3

        (memdesk.data_dir / "config.toml").write_text(
            f'[prompt]\nbase_file = "{base}"\n\n[memory]\nrecall_limit = 1\n\n'
            '[agents]\ndefault_trust = "review-everything"\n',
            encoding="utf-8",
        )
        after = client.get("/prompt", params={"message": "train"}).json()
        assert after["text"].startswith("You are Ada's travel helper.")
        assert after["text"].count("- train-") == 1
        held = client.post("/entries", json={"key": "hotel", "content": "Hotel near the station."})
        assert held.status_code == 202 and held.json()["held"] is True
    finally:
        served.stop()
