"""`ptovec coverage --ucis FILE`: the outcome coverage as a UCIS XML database, read back and merged
with pyucis (run by ctest with the .venv Python of scripts/install-deps, which has pyucis):

  test_bins_are_the_json_counts    every (covergroup, coverpoint, bin) of the file is a (pair,
                                   control, class) of --json with its count, unreachable classes
                                   as ignore bins; the file validates against the UCIS schema;
                                   the input-class bins of a coverpoint add up to its vectors; the
                                   same vectors give the same bytes
  test_merge_adds_the_counts       pyucis's DbMerger of the databases of two selections (one pair
                                   in both) holds each bin's summed count
  test_without_pyucis              a Python without pyucis: exit 2, one line naming pyucis and
                                   scripts/install-deps, no file

Two smoke-suite files, --scope present: a few seconds in all.
"""
import io
import json
import os
import subprocess

import pytest

from ptovec_cli import SOURCE, ClassScratch, error_of, ptovec

# pyucis, from the .venv of scripts/install-deps (scripts/venv-requirements.txt pins it).
from ucis.cover_type_t import CoverTypeT
from ucis.mem.mem_factory import MemFactory
from ucis.merge.db_merger import DbMerger
from ucis.scope_type_t import ScopeTypeT
from ucis.xml import validate_ucis_xml
from ucis.xml.xml_reader import XmlReader
from ucis.xml.xml_writer import XmlWriter

SMOKE = os.path.join(SOURCE, "vectors", "smoke")
TCVT = os.path.join(SMOKE, "tcvt_fp16_e8m0.bin")
SHIFT = os.path.join(SMOKE, "shift_s32_s16.bin")
BINS = CoverTypeT.CVGBIN | CoverTypeT.IGNOREBIN


def ucis_bins(db):
    """{(covergroup, coverpoint, bin): (count, ignore bin)} of the one instance `ptovec`."""
    out = {}
    instances = list(db.scopes(ScopeTypeT.INSTANCE))
    assert [i.getScopeName() for i in instances] == ["ptovec"]
    for group in instances[0].scopes(ScopeTypeT.COVERGROUP):
        (instance,) = group.scopes(ScopeTypeT.COVERINSTANCE)  # the XML's one cgInstance
        for point in instance.scopes(ScopeTypeT.COVERPOINT):
            for b in point.coverItems(BINS):
                data = b.getCoverData()
                key = (group.getScopeName(), point.getScopeName(), b.getName())
                assert key not in out, key
                out[key] = (data.data, data.type == CoverTypeT.IGNOREBIN)
    return out


def json_bins(coverage):
    """The same from `ptovec coverage --json` output."""
    out = {}
    for pair in coverage["pairs"]:
        group = f"{pair['op']}_{pair['src']}_{pair['dst']}"
        for control in pair["controls"]:
            point = f"{control['rmode']}_sat_{'on' if control['sat'] else 'off'}"
            for name, count, reachable in zip(pair["classes"], control["counts"],
                                              control["reachable"]):
                out[(group, point, name)] = (count, not reachable)
    return out


class TestCoverageUcis(ClassScratch):
    def coverage(self, tag, *vectors, env=None):
        """coverage --scope present of `vectors` with --json and --ucis; the finished command."""
        r = ptovec("coverage", "--vectors", *vectors, "--scope", "present", "--quiet", "--json",
                   self.path(f"{tag}.json"), "--ucis", self.path(f"{tag}.xml"))
        assert r.returncode == 0, r.stdout + r.stderr
        with open(self.path(f"{tag}.json")) as f:
            return json.load(f)

    def read(self, tag):
        with open(self.path(f"{tag}.xml")) as f:
            assert validate_ucis_xml(f)
        return ucis_bins(XmlReader().read(self.path(f"{tag}.xml")))

    def test_bins_are_the_json_counts(self):
        coverage = self.coverage("tcvt", TCVT)
        bins = self.read("tcvt")
        assert bins == json_bins(coverage)
        # 27 classes under 14 controls; an unreachable class is an ignore bin with no vector.
        assert len(bins) == 27 * 14
        assert any(ignore for _, ignore in bins.values())
        assert all(count == 0 for count, ignore in bins.values() if ignore)
        # The input classes partition the inputs: the smoke file's 14 inputs under each control.
        for control in {point for _, point, _ in bins}:
            assert sum(count for (_, point, name), (count, _) in bins.items()
                       if point == control and name.startswith("input ")) == 14, control
        with open(self.path("tcvt.xml"), "rb") as f:
            first = f.read()
        self.coverage("tcvt", TCVT)
        with open(self.path("tcvt.xml"), "rb") as f:
            assert f.read() == first

    def test_merge_adds_the_counts(self):
        self.coverage("a", TCVT)
        self.coverage("b", TCVT, SHIFT)
        a, b = self.read("a"), self.read("b")
        merged = MemFactory.create()
        DbMerger().merge(merged, [XmlReader().read(self.path(f"{t}.xml")) for t in "ab"])
        text = io.StringIO()
        XmlWriter().write(text, merged)
        with open(self.path("merged.xml"), "w") as f:
            f.write(text.getvalue())
        total = self.read("merged")
        assert set(total) == set(a) | set(b) and len(set(b) - set(a)) == 20  # shift's classes
        for key, (count, ignore) in total.items():
            assert count == a.get(key, (0,))[0] + b.get(key, (0,))[0], key
            assert ignore == (a.get(key) or b.get(key))[1], key
        assert total[("tcvt_fp16_e8m0", "RNE_sat_off", "input +zero")] == (2, False)

    def test_without_pyucis(self):
        python = "/usr/bin/python3"
        if subprocess.run([python, "-c", "import ucis"], capture_output=True).returncode == 0:
            pytest.skip(f"{python} has pyucis")
        r = subprocess.run([os.environ["PTOVEC"], "coverage", "--vectors", TCVT, "--quiet",
                            "--ucis", self.path("none.xml")], capture_output=True, text=True,
                           env=dict(os.environ, PTOVEC_PYTHON=python))
        assert r.returncode == 2
        assert r.stderr.count("\n") == 1, r.stderr
        assert error_of(r).startswith(f"ptovec: error: --ucis needs the Python package pyucis, "
                                      f"which {python} cannot import: run scripts/install-deps")
        assert not [n for n in os.listdir(self.tmp) if n.startswith("none.xml")]
