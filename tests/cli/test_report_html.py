"""`--report-html FILE` (run, check) and `ptovec report RESULTS --html FILE`: the report as one
self-contained HTML page drawn from the JSON report (tools/cli/report_html.py), checked in a real
browser: Debian's headless Chromium through Selenium (chromium, chromium-driver; selenium in the
.venv of scripts/install-deps). The page loads without console errors, fetches nothing, shows
the JSON's numbers (verdict, environment, totals, causes and their symptom groups, per-pair
totals, unsupported per pair) and its filters by op, pair and cause hide what they should.

Run by ctest (tests/cli/CMakeLists.txt) with the .venv's python3 -m pytest (Debian's pytest seen
through --system-site-packages); ptovec_cli.py gives ptovec(*args) and the policy test device.
"""
import json
import os
import re
import shutil
import tempfile

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from ptovec_cli import ORACLE_DUT, SOURCE, ptovec

POLICY_DUT = os.environ.get("PTOVEC_POLICY_DUT")
HOST_IEEE_DUT = os.environ.get("PTOVEC_HOST_IEEE_DUT")  # examples/devices/host_ieee
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# Where the docs' screenshot is written when PTOVEC_REPORT_SCREENSHOT names a file
# (docs/images/report-html.png: `PTOVEC_REPORT_SCREENSHOT=$PWD/docs/images/report-html.png
# ctest --preset default -R ptovec_report_html`).
SCREENSHOT = os.environ.get("PTOVEC_REPORT_SCREENSHOT")


def load(path):
    with open(path) as f:
        return json.load(f)


def browser():
    """Headless Chromium with its console log kept. Fails (never skips) without it: CI installs
    it (scripts/install-deps)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        assert os.path.exists(path), f"{path} is missing: scripts/install-deps installs chromium " \
                                     "and chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--disable-extensions"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def pairs_of(doc):
    """The per-pair totals from per_control, independently of the page's script."""
    out = {}
    for row in doc["per_control"]:
        key = (row["op"], row["src"], row["dst"])
        p = out.setdefault(key, [0, 0, 0, 0, 0])
        bad = row["word"] + row["flags"] + row["both"]
        p[0] += row["vectors"]
        p[1] += row["vectors"] - row["waived"] - bad - row["unsupported"]
        p[2] += row["waived"]
        p[3] += bad
        p[4] += row["unsupported"]
    return out


class TestReportHtml:
    @classmethod
    def setup_class(cls):
        assert HOST_IEEE_DUT, "the host IEEE device is not built (PTOVEC_HOST_IEEE_DUT)"
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name
        cls.vectors = os.path.join(cls.dir, "smoke")
        shutil.copytree(os.path.join(SOURCE, "vectors", "smoke"), cls.vectors)
        cls.json = os.path.join(cls.dir, "run.json")
        cls.html = os.path.join(cls.dir, "run.html")
        # The host's own IEEE arithmetic (x86: five causes, the x86 model's deviations and Sat
        # ignored) without --known-differences; unsupported answers for the modes fenv lacks.
        cls.run = ptovec("run", "--dut", HOST_IEEE_DUT, "--allow-unsupported", "--vectors",
                         cls.vectors, "--quiet", "--max-report", "0", "--report-json", cls.json,
                         "--report-html", cls.html)
        cls.doc = load(cls.json) if cls.run.returncode == 1 else None
        cls.driver = browser()
        cls.driver.get("file://" + cls.html)
        if SCREENSHOT:
            cls.driver.find_element(By.CSS_SELECTOR, "details.cause summary").click()
            cls.driver.execute_script(
                "document.getElementById('causes').scrollIntoView({block: 'start'});")
            cls.driver.save_screenshot(SCREENSHOT)
            cls.driver.find_element(By.CSS_SELECTOR, "details.cause summary").click()

    @classmethod
    def teardown_class(cls):
        cls.driver.quit()
        cls.tmp.cleanup()

    def cells(self, css):
        return [e.get_attribute("textContent") for e in self.driver.find_elements(By.CSS_SELECTOR,
                                                                                   css)]

    def test_run_fails_and_writes_both(self):
        assert self.run.returncode == 1, self.run.stdout + self.run.stderr
        assert self.doc["totals"]["mismatched"] == 128

    def test_page_loads_without_console_errors_or_fetches(self):
        errors = [e for e in self.driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
        assert errors == []
        fetched = [json.loads(e["message"])["message"] for e in self.driver.get_log("performance")]
        # The heat map's images are inline (data: URLs); nothing else is loaded.
        urls = {m["params"]["request"]["url"] for m in fetched
                if m["method"] == "Network.requestWillBeSent"}
        assert {u for u in urls if not u.startswith("data:image/png;base64,")} == {
            "file://" + self.html}
        with open(self.html) as f:
            page = f.read()
        assert not re.search(r"""(src|href)\s*=\s*["'](https?:|//)""", page)

    def test_verdict_environment_and_totals_are_the_json(self):
        assert self.driver.find_element(By.ID, "verdict").text == "FAIL"
        assert self.driver.title == "ptovec report: FAIL (host-ieee)"
        env = {e.get_attribute("data-env"): e.text
               for e in self.driver.find_elements(By.CSS_SELECTOR, "#environment td")}
        assert env["device"] == self.doc["device"] == "host-ieee"
        assert env["compare"] == self.doc["environment"]["compare"] == "word+flags"
        assert env["spec_edition"] == "0.58.3"
        assert env["vectors"] == self.vectors
        assert env["known_differences"] == "none"
        totals = {e.get_attribute("data-total"): int(e.text)
                  for e in self.driver.find_elements(By.CSS_SELECTOR, "#totals td")}
        assert totals == {k: self.doc["totals"][k] for k in totals}
        assert (totals["vectors"], totals["mismatched"]) == (24945, 128)

    def test_causes_and_their_groups_are_the_json(self):
        causes = self.driver.find_elements(By.CSS_SELECTOR, "details.cause")
        assert [c["text"] for c in self.doc["causes"]] == [
            "deviation invalid-integer (indefinite)", "deviation signed-zero",
            "deviation ieee-overflow", "Sat ignored", "deviation tininess-after-rounding"]
        assert len(causes) == 5
        for number, (element, cause) in enumerate(zip(causes, self.doc["causes"]), 1):
            summary = element.find_element(By.TAG_NAME, "summary").get_attribute("textContent")
            assert summary.startswith(f"cause {number}: {cause['text']}: ")
            assert int(element.find_element(By.CSS_SELECTOR, "[data-cause-vectors]")
                       .get_attribute("textContent")) == cause["vectors"]
            rows = element.find_elements(By.CSS_SELECTOR, "tr[data-op]")
            assert [int(r.find_element(By.CSS_SELECTOR, "[data-vectors]")
                        .get_attribute("textContent")) for r in rows] == \
                [g["vectors"] for g in cause["symptom_groups"]]
            assert element.find_element(By.CSS_SELECTOR, "code.eval").get_attribute(
                "textContent") == cause["eval"]
            assert element.find_element(By.CSS_SELECTOR, "code.simplest").get_attribute(
                "textContent") == cause["simplest_eval"]
        assert [c["vectors"] for c in self.doc["causes"]] == [56, 24, 22, 18, 8]
        # The simplest case seen of IEEE overflow: 65536.0 under RTM (IEEE: the largest finite),
        # where the first in run order is -FLT_MAX under RTP.
        overflow = self.doc["causes"][2]
        assert overflow["eval"] == "ptovec eval --op encode --src fp32 --dst fp16 --rmode RTP " \
                                   "0xff7fffff"
        assert overflow["simplest_eval"] == "ptovec eval --op encode --src fp32 --dst fp16 " \
                                            "--rmode RTM 0x47800000"

    def test_per_pair_totals_are_the_json(self):
        rows = self.driver.find_elements(By.CSS_SELECTOR, "#pairs tr.pair")
        shown = {}
        for r in rows:
            op, src, dst = r.get_attribute("data-pair").split(":")
            shown[(op, src, dst)] = [int(c.get_attribute("textContent"))
                                     for c in r.find_elements(By.CSS_SELECTOR, "td.n")]
        expected = pairs_of(self.doc)
        assert shown == expected
        assert sum(v[0] for v in shown.values()) == self.doc["totals"]["vectors"]
        assert sum(v[4] for v in shown.values()) == self.doc["totals"]["unsupported"]

    def test_unsupported_by_pair_is_the_json(self):
        rows = self.driver.find_elements(By.CSS_SELECTOR, "#unsupported tr[data-pair]")
        shown = [(r.get_attribute("data-pair"),
                  int(r.find_element(By.CSS_SELECTOR, "td.n").get_attribute("textContent")))
                 for r in rows]
        expected = [(":".join(k), v[4]) for k, v in pairs_of(self.doc).items() if v[4]]
        assert shown == expected
        assert [u["vectors"] for u in self.doc["unsupported"]] == [n for _, n in shown]

    def test_heat_map_is_inline_svg(self):
        svg = self.driver.find_elements(By.CSS_SELECTOR, ".heatmap svg")
        assert len(svg) == 1
        assert svg[0].size["width"] > 600

    def test_filters_hide_what_they_should(self):
        op = Select(self.driver.find_element(By.ID, "filter-op"))
        op.select_by_value("encode")
        visible = [r for r in self.driver.find_elements(By.CSS_SELECTOR, "#pairs tr.pair")
                   if r.is_displayed()]
        assert visible and all(r.get_attribute("data-op") == "encode" for r in visible)
        assert len(visible) == sum(1 for k in pairs_of(self.doc) if k[0] == "encode")
        groups = self.doc["symptom_groups"]
        on_encode = [i + 1 for i, c in enumerate(self.doc["causes"])
                     if any(groups[g["group"] - 1]["op"] == "encode" for g in c["symptom_groups"])]
        shown = [int(e.get_attribute("data-cause"))
                 for e in self.driver.find_elements(By.CSS_SELECTOR, "details.cause")
                 if e.is_displayed()]
        assert shown == on_encode == [1, 2, 3, 4, 5]
        # Only ieee-overflow (cause 3) is seen on tdequant too.
        op.select_by_value("tdequant")
        shown = [int(e.get_attribute("data-cause"))
                 for e in self.driver.find_elements(By.CSS_SELECTOR, "details.cause")
                 if e.is_displayed()]
        assert shown == [3]
        op.select_by_value("")
        cause = Select(self.driver.find_element(By.ID, "filter-cause"))
        cause.select_by_value("4")
        shown = [int(e.get_attribute("data-cause"))
                 for e in self.driver.find_elements(By.CSS_SELECTOR, "details.cause")
                 if e.is_displayed()]
        assert shown == [4]
        cause.select_by_value("")

    def test_report_renders_the_same_page_from_the_results_file(self):
        again = os.path.join(self.dir, "again.html")
        results = os.path.join(self.vectors, "results.bin")
        r = ptovec("report", results, "--vectors", self.vectors, "--html", again)
        assert r.returncode == 0, r.stderr
        assert "FAIL, 128 mismatched vectors of 24945" in r.stderr
        with open(again, "rb") as a, open(self.html, "rb") as b:
            assert a.read() == b.read()
        # Without --vectors: those the results file's header names, the same numbers.
        found = os.path.join(self.dir, "found.json")
        r = ptovec("report", results, "--json", found)
        assert r.returncode == 0, r.stderr
        doc = load(found)
        assert doc["totals"] == self.doc["totals"] and doc["pairs"] == self.doc["pairs"]
        assert doc["environment"]["manifest_sha256"] == self.doc["environment"]["manifest_sha256"]


class TestShrunkPage:
    """`ptovec shrink --from RESULTS --triage --report-html`: the page of the results file with
    each cause's shrunk case under it and the table of shrunk cases, read back in Chromium."""

    @classmethod
    def setup_class(cls):
        assert POLICY_DUT, "the policy test device is not built (PTOVEC_POLICY_DUT)"
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name
        smoke = os.path.join(SOURCE, "vectors", "smoke")
        results = os.path.join(cls.dir, "results.bin")
        device = ("--dut", POLICY_DUT, "--dut-arg", "two-faults")
        # tcvt fp16 -> e8m0 without NV (one cause), fpatr unsupported (four groups).
        ran = ptovec("run", *device, "--vectors", os.path.join(smoke, "tcvt_fp16_e8m0.bin"),
                     os.path.join(smoke, "fpatr_u32_u32.bin"), "--results", results, "--quiet")
        assert ran.returncode == 1, ran.stdout + ran.stderr
        cls.json = os.path.join(cls.dir, "shrunk.json")
        cls.html = os.path.join(cls.dir, "shrunk.html")
        cls.shrink = ptovec("shrink", *device, "--from", results, "--triage", "--report-json",
                            cls.json, "--report-html", cls.html, cwd=cls.dir)
        cls.doc = load(cls.json)
        cls.driver = browser()
        cls.driver.get("file://" + cls.html)

    @classmethod
    def teardown_class(cls):
        cls.driver.quit()
        cls.tmp.cleanup()

    def text(self, element, css):
        return element.find_element(By.CSS_SELECTOR, css).get_attribute("textContent")

    def test_page_loads_without_console_errors(self):
        assert self.shrink.returncode == 1, self.shrink.stdout + self.shrink.stderr
        assert [e for e in self.driver.get_log("browser")
                if e["level"] in ("SEVERE", "WARNING")] == []

    def test_cause_shows_its_shrunk_case(self):
        cause = self.driver.find_element(By.CSS_SELECTOR, "details.cause")
        shrunk = self.doc["shrunk"][0]
        assert shrunk["cause"] == 1
        assert self.text(cause, "code.shrunk") == shrunk["counterexample"]["eval"] == (
            "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RNE 0xbc00")
        assert "shrunk (exact minimum, shrunk-tcvt-fp16-e8m0-1.bin)" in cause.get_attribute(
            "textContent")

    def test_shrunk_table_is_the_json(self):
        rows = self.driver.find_elements(By.CSS_SELECTOR, "#shrunk tr.shrunk")
        shown = [[c.get_attribute("textContent") for c in r.find_elements(By.TAG_NAME, "td")]
                 for r in rows]
        expected = []
        for x in self.doc["shrunk"]:
            found = x["counterexample"]
            got = found["got"]
            expected.append([str(x["number"]), x["minimum"], found["eval"],
                             f"{found['eval_line']['out']}/{found['eval_line']['flags']}",
                             got if isinstance(got, str) else f"{got['out']}/{got['flags']}",
                             x["label"], x["file"]])
        assert shown == expected
        assert [r[1] for r in shown] == ["exact", "local", "local", "local", "local"]
        # A cause chosen: only its shrunk case stays (unsupported groups are of no cause).
        cause = Select(self.driver.find_element(By.ID, "filter-cause"))
        cause.select_by_value("1")
        assert [r.get_attribute("data-pair") for r in rows if r.is_displayed()] == [
            "tcvt:fp16:e8m0"]
        cause.select_by_value("")
        assert all(r.is_displayed() for r in rows)


class TestReportCommandInput:
    def test_needs_an_output(self):
        r = ptovec("report", os.path.join(SOURCE, "vectors", "smoke", "manifest.json"))
        assert r.returncode == 2
        assert r.stderr.strip() == ("ptovec: error: report writes files: give --html FILE, "
                                    "--json FILE or --junit FILE (or several)")

    def test_names_a_missing_results_file(self):
        r = ptovec("report", "/nonexistent/results.bin", "--html", "x.html")
        assert r.returncode == 2
        assert "results file /nonexistent/results.bin does not exist" in r.stderr

    @pytest.mark.parametrize("flag", ["--html", "--json"])
    def test_refuses_to_overwrite_the_results(self, flag, tmp_path):
        vectors = tmp_path / "smoke"
        shutil.copytree(os.path.join(SOURCE, "vectors", "smoke"), vectors)
        r = ptovec("run", "--dut", ORACLE_DUT, "--in-process", "--vectors", vectors, "--quiet",
                   "--op", "tcvt", "--max-report", "0")
        assert r.returncode == 0, r.stdout + r.stderr
        results = vectors / "results.bin"
        before = results.read_bytes()
        r = ptovec("report", results, flag, results)
        assert r.returncode == 2
        assert results.read_bytes() == before
