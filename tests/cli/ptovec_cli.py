"""The helper of every tests/cli script (pytest): this build's programs and devices (from the
environment ctest sets), `ptovec(*args)`, the committed JSON Schemas as checked validators, and the readers of
python/ptovec/files.

ctest gives PTOVEC (the binary), PTOVEC_SOURCE_DIR and, when built, the devices
(PTOVEC_ORACLE_DUT, PTOVEC_ORACLE_DEVICE, ...: tests/cli/CMakeLists.txt). By hand, from the top
of the tree: `PTOVEC=build/tools/ptovec /usr/bin/python3 -m pytest tests/cli/test_eval.py`.
"""
import contextlib
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import pytest
from jsonschema import Draft202012Validator

PTOVEC = os.environ.get("PTOVEC")
if not PTOVEC:
    sys.exit("tests/cli: give the ptovec binary with PTOVEC=PATH")
SOURCE = os.environ.get("PTOVEC_SOURCE_DIR") or os.path.normpath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ORACLE_DUT = os.environ.get("PTOVEC_ORACLE_DUT")
ORACLE_DEVICE = os.environ.get("PTOVEC_ORACLE_DEVICE")
ALWAYS_UP = os.environ.get("PTOVEC_MUTANT_E8M0_ALWAYS_UP")  # the mutant e8m0_always_up

sys.path.insert(0, os.path.join(SOURCE, "python"))
from ptovec import files  # noqa: E402  (python/ptovec/files: the readers, pure Python and numpy)

MODES = ["RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"]
FIXED = struct.Struct("<8sHHIQQ")  # the fixed header of a binary vector or results file


def ptovec(*args, timeout=900, cwd=None, text=True, stdin=None):
    """Runs this build's ptovec with `args` (each made text), CI=1, output captured."""
    return subprocess.run([PTOVEC, *map(str, args)], capture_output=True, text=text,
                          timeout=timeout, cwd=cwd, input=stdin,
                          env=dict(os.environ, CI="1"))


def start(*args, stdout=subprocess.DEVNULL):
    """Starts this build's ptovec with `args` (stderr piped), without waiting for it."""
    return subprocess.Popen([PTOVEC, *map(str, args)], stdout=stdout, stderr=subprocess.PIPE,
                            env=dict(os.environ, CI="1"))


def schema_validator(file_name):
    """A Draft 2020-12 validator of schemas/<file_name>, the schema itself checked first."""
    with open(os.path.join(SOURCE, "schemas", file_name)) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def error_of(result):
    """The one error line of a failed command (exit 2)."""
    lines = result.stderr.strip().splitlines()
    return lines[-1] if lines else ""


def generate(out, *args):
    """`ptovec generate --out OUT --quiet ARGS`, which must pass; its manifest."""
    r = ptovec("generate", "--out", out, "--quiet", *args)
    if r.returncode != 0:
        raise AssertionError(f"ptovec generate {' '.join(map(str, args))} failed: {r.stderr}")
    with open(os.path.join(out, "manifest.json")) as f:
        return json.load(f)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def snapshot(root):
    """{path relative to root: SHA-256 of its bytes} of every file under root."""
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root)] = hashlib.sha256(f.read()).hexdigest()
    return out


def read_bin_header(path):
    """The fixed header (FIXED's fields) and the JSON header of a binary file."""
    with open(path, "rb") as f:
        fixed = FIXED.unpack(f.read(FIXED.size))
        return fixed, json.loads(f.read(fixed[3]))


class ClassScratch:
    """Tests sharing a temporary folder made for their class (cls.tmp, removed after the last)."""

    @classmethod
    def setup_class(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ptovec-cli-")

    @classmethod
    def teardown_class(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)


class Scratch:
    """A test with a fresh temporary folder (self.tmp, removed after it)."""

    @pytest.fixture(autouse=True)
    def scratch(self):
        self.tmp = tempfile.mkdtemp(prefix="ptovec-cli-")
        yield
        shutil.rmtree(self.tmp, True)

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    def generate(self, out, *args):
        """generate into the folder `out` of self.tmp, which must pass; its manifest."""
        r = ptovec("generate", "--out", self.path(out), "--quiet", *args)
        assert r.returncode == 0, r.stderr
        with open(self.path(out, "manifest.json")) as f:
            return json.load(f)

    def generate_fp16_e8m0(self, folder, *args):
        """tcvt fp16 -> e8m0 under RTZ, Sat off (65,536 vectors) into `folder`; its path."""
        self.generate(folder, "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--rmode", "RTZ",
                      "--sat", "off", *args)
        return self.path(folder)

    def assert_valid(self, schema, document):
        """`document` is valid under schemas/<schema>.schema.json (the first 3 errors shown)."""
        validators = Scratch.__dict__.get("_validators") or {}
        Scratch._validators = validators
        if schema not in validators:
            validators[schema] = schema_validator(schema + ".schema.json")
        errors = [e.message[:200] for e in validators[schema].iter_errors(document)][:3]
        assert errors == [], schema



@contextlib.contextmanager
def subtest(*what, **values):
    """Names the case of a loop in the failure it raises (as unittest's subTest, but the first
    failing case ends the test)."""
    try:
        yield
    except AssertionError as e:
        case = ", ".join([*map(str, what), *(f"{k}={v}" for k, v in values.items())])
        raise AssertionError(f"[{case}] {e}") from e
