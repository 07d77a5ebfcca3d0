// libFuzzer target: the lines of an `eval --batch` file, each run by EvalBatchLine as
// `ptovec eval --batch` runs it (CLI11 parse, cases built and evaluated by the oracle). A bad line
// must become its {"line", "error"} JSON line; nothing may crash or leak.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "eval_line.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::ostringstream out;
  std::ostringstream err;
  bool failed = false;
  std::uint64_t number = 0;
  // At most 8 lines: every line is parsed alone, so more only slows the search down.
  for (std::size_t start = 0; start <= text.size() && number < 8;) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const bool was_case = ptovec::cli::EvalBatchLine(std::string(text.substr(start, end - start)),
                                                     ++number, out, err, failed);
    (void)was_case;
    start = end + 1;
  }
  return 0;
}
