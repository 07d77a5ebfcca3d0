"""Shared by the tests/files scripts: where the ptovec binary and the source folder are, and the
committed JSON Schemas as checked validators.

The binary and the source folder come from the options --ptovec PATH --source DIR given before the
unittest arguments (removed from sys.argv here), else from the environment (PTOVEC,
PTOVEC_SOURCE_DIR); the source folder defaults to this file's ../..
"""
import json
import os
import sys

from jsonschema import Draft202012Validator


def take_option(name, env):
    """The value of `name VALUE` in sys.argv (removed from it), else the environment's `env`."""
    if name in sys.argv:
        i = sys.argv.index(name)
        value = sys.argv[i + 1]
        del sys.argv[i:i + 2]
        return value
    return os.environ.get(env)


def locate(script):
    """(ptovec binary, source folder); exits naming `script` when the binary is not given."""
    ptovec = take_option("--ptovec", "PTOVEC")
    source = take_option("--source", "PTOVEC_SOURCE_DIR") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..")
    if not ptovec:
        sys.exit(script + ": give the ptovec binary with --ptovec PATH or PTOVEC=PATH")
    return ptovec, source


def schema_validator(source, file_name):
    """A Draft 2020-12 validator of schemas/<file_name>, the schema itself checked first."""
    with open(os.path.join(source, "schemas", file_name)) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)
