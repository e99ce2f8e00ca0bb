"""axe-core, the accessibility engine the browser tests run in Chromium, at one pinned version.

It is fetched from the npm registry with npm itself (``npm pack axe-core@VERSION``), its tarball
checked against the registry's integrity digest pinned here, and its ``axe.min.js`` kept in
``.cache/axe-core/VERSION/`` at the top of the checkout (ignored by git): nothing of axe's code is
in the repository. ``.ci/run`` fetches it before the tests (``python -m tests.support.axe``); a
test that finds it missing fetches it the same way, and fails, saying why, if it cannot.

To move to another version: ``npm view axe-core@X.Y.Z dist.integrity``, then change both
constants below.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

AXE_VERSION = "4.14.1"
#: The registry's ``dist.integrity`` of that version's tarball (``npm view``).
AXE_INTEGRITY = (
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37Ogud"
    "VGtQ=="
)
ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "axe-core" / AXE_VERSION
SCRIPT = CACHE / "axe.min.js"
#: The members of the tarball kept: the engine and its licence (MPL-2.0).
KEPT = {"package/axe.min.js": "axe.min.js", "package/LICENSE": "LICENSE"}


class AxeUnavailable(RuntimeError):
    """axe-core could not be fetched (the message says why and what to do)."""


def integrity_of(data: bytes) -> str:
    """An npm ``integrity`` string (Subresource Integrity, SHA-512) of ``data``."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def _pack(folder: Path) -> Path:
    """``npm pack axe-core@AXE_VERSION`` into ``folder``: the tarball's path."""
    npm = shutil.which("npm")
    if npm is None:
        raise AxeUnavailable(
            "npm is not installed: install it (apt-get install npm), or run .ci/run, which does"
        )
    done = subprocess.run(
        [npm, "pack", f"axe-core@{AXE_VERSION}", "--json", "--pack-destination", str(folder)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        cwd=folder,
    )
    if done.returncode != 0:
        tail = " / ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
        raise AxeUnavailable(f"npm pack axe-core@{AXE_VERSION} failed: {tail}")
    packed = json.loads(done.stdout)
    return folder / str(packed[0]["filename"])


def fetch() -> Path:
    """The path of ``axe.min.js``, fetched first if it is not in the cache."""
    if SCRIPT.is_file():
        return SCRIPT
    with tempfile.TemporaryDirectory(prefix="axe-core-") as work:
        tarball = _pack(Path(work)).read_bytes()
        found = integrity_of(tarball)
        if found != AXE_INTEGRITY:
            raise AxeUnavailable(
                f"axe-core {AXE_VERSION} from npm has integrity {found}, not the pinned "
                f"{AXE_INTEGRITY}: refusing it"
            )
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=CACHE.parent))
        staging.chmod(0o755)
        try:
            with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
                for member, name in KEPT.items():
                    extracted = archive.extractfile(member)
                    if extracted is None:
                        raise AxeUnavailable(f"axe-core {AXE_VERSION}: no {member} in the tarball")
                    (staging / name).write_bytes(extracted.read())
            try:
                os.replace(staging, CACHE)  # whole or not at all (another worker may win)
            except OSError:
                if not SCRIPT.is_file():
                    raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return SCRIPT


def main() -> int:
    """``python -m tests.support.axe``: fetch axe-core if needed and print where it is."""
    try:
        print(fetch())
    except AxeUnavailable as error:
        print(f"axe-core: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
