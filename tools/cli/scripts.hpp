// The Python scripts ptovec runs: to draw (matplotlib) the coverage heat map and the HTML report,
// and to write the coverage as a UCIS database (pyucis).
#pragma once

#include <filesystem>
#include <string>

namespace ptovec::cli {

/// The script `name` (e.g. "report_html.py"): DATADIR/ptovec/NAME of the prefix this ptovec is
/// installed in (the executable's folder is PREFIX/BINDIR; cmake/install.cmake puts the scripts
/// there), else tools/cli/NAME of the source tree this ptovec was built from.
std::filesystem::path ToolScript(const std::string& name);

/// Draws file `out` with script `name` run by Debian's /usr/bin/python3 (python3-matplotlib)
/// from JSON text `json`: the script reads a temporary copy
/// (`OUT.tmp-json`, removed after) and writes the drawing on its standard output, which becomes
/// `out` under a temporary name, renamed when the script succeeded (generator::AtomicFile).
/// Throws generator::InputError naming the script and what it needs when it fails.
void DrawFromJson(const std::string& name, const std::string& json,
                  const std::filesystem::path& out);

/// The Python that runs a script needing the packages of the .venv of scripts/install-deps
/// (pyucis): $PTOVEC_PYTHON, else that .venv's python3 in the source tree this ptovec was built
/// from, else python3 on PATH.
std::string VenvPython();

/// Writes `out`, the UCIS XML database of coverage JSON text `json`, with coverage_ucis.py run by
/// VenvPython() as DrawFromJson runs its scripts. Throws generator::InputError (one line) when
/// that Python is not there or cannot import pyucis, naming it and how to get pyucis, or when
/// the script fails; `out` is then left as it was.
void WriteUcisFromJson(const std::string& json, const std::filesystem::path& out);

}  // namespace ptovec::cli
