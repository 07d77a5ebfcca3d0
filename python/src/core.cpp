// ptovec._core: the nanobind extension under `import ptovec` (python/ptovec/__init__.py), a thin
// layer over the C API (include/ptovec/ptovec.h, libptovec_c.so.0): every call takes an edition
// code (ptovec_edition_code; 0 "0.58.3", the default) and calls the C API's "_edition" twin.
// Lookups pass through; evaluation raises ValueError with ptovec_last_error()'s one line on bad
// input (RuntimeError for PTOVEC_ERROR_INTERNAL) and never aborts. evaluate_batch runs
// ptovec_evaluate_batch with the GIL released, in chunks, into two new numpy arrays (words uint64,
// status uint8).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/ptovec.h"

namespace nb = nanobind;

namespace {

// Cases per ptovec_evaluate_batch call: the ptovec_result buffer (16 bytes a case) stays 1 MiB.
constexpr std::size_t kChunk = std::size_t{1} << 16;

// Raises the Python exception of a failed C API call: ValueError with the C API's one line (and
// "case N: " before it for an error of one case of a batch), RuntimeError for an internal error.
[[noreturn]] void Raise(ptovec_error error, std::optional<std::size_t> failed_case) {
  std::string message = ptovec_last_error();
  if (failed_case && (error == PTOVEC_ERROR_INPUT_WIDTH || error == PTOVEC_ERROR_DOMAIN)) {
    message = "case " + std::to_string(*failed_case) + ": " + message;
  }
  if (error == PTOVEC_ERROR_INTERNAL) throw std::runtime_error(message);
  throw nb::value_error(message.c_str());
}

int EditionCode(const std::string& name) {
  const int code = ptovec_edition_code(name.c_str());
  if (code < 0) Raise(PTOVEC_ERROR_UNKNOWN_EDITION, std::nullopt);
  return code;
}

int OpInputCount(const std::string& op, int edition) {
  const int count = ptovec_op_input_count_edition(edition, op.c_str());
  if (count < 0) Raise(PTOVEC_ERROR_UNKNOWN_OP, std::nullopt);
  return count;
}

std::vector<std::string> OpNames(int edition) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < ptovec_op_count_edition(edition); ++i) {
    names.emplace_back(ptovec_op_name_edition(edition, i));
  }
  return names;
}

std::optional<std::string> TypeName(int code, int edition) {
  const char* name = ptovec_type_name_edition(edition, code);
  return name ? std::optional<std::string>(name) : std::nullopt;
}

std::pair<std::uint64_t, std::uint8_t> EvaluateOne(const std::string& op, int src_code,
                                                   int dst_code, int rmode, bool sat,
                                                   const std::vector<std::uint64_t>& inputs,
                                                   int edition) {
  ptovec_result result{};
  const ptovec_error error =
      ptovec_evaluate_edition(edition, op.c_str(), src_code, dst_code, rmode, sat ? 1 : 0,
                              inputs.data(), inputs.size(), &result);
  if (error != PTOVEC_OK) Raise(error, std::nullopt);
  return {result.word, result.status};
}

using InputMatrix = nb::ndarray<const std::uint64_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Words = nb::ndarray<nb::numpy, std::uint64_t, nb::ndim<1>>;
using Statuses = nb::ndarray<nb::numpy, std::uint8_t, nb::ndim<1>>;

// A numpy array that owns `data` (freed with the array).
template <typename Array, typename T>
Array OwningArray(std::unique_ptr<T[]> data, std::size_t n) {
  T* raw = data.release();
  nb::capsule owner(raw, [](void* p) noexcept { delete[] static_cast<T*>(p); });
  return Array(raw, {n}, owner);
}

std::pair<Words, Statuses> EvaluateBatch(const std::string& op, int src_code, int dst_code,
                                         int rmode, bool sat, const InputMatrix& inputs,
                                         int edition) {
  const std::size_t n = inputs.shape(0), slots = inputs.shape(1);
  auto words = std::make_unique<std::uint64_t[]>(n);
  auto statuses = std::make_unique<std::uint8_t[]>(n);
  ptovec_error error = PTOVEC_OK;
  std::size_t failed = 0;
  if (n == 0) {
    // ptovec_evaluate_batch accepts n = 0 without checking its arguments: check them on a case
    // of zeros so an empty batch fails exactly as a non-empty one does for the op, types, mode,
    // Sat and slot count (a zero word of a width or domain error is not reported).
    const std::vector<std::uint64_t> zeros(slots);
    ptovec_result unused{};
    error = ptovec_evaluate_edition(edition, op.c_str(), src_code, dst_code, rmode, sat ? 1 : 0,
                                    zeros.data(), zeros.size(), &unused);
    if (error == PTOVEC_ERROR_INPUT_WIDTH || error == PTOVEC_ERROR_DOMAIN) error = PTOVEC_OK;
    if (error != PTOVEC_OK) Raise(error, std::nullopt);
  }
  {
    nb::gil_scoped_release released;
    std::vector<ptovec_result> results(std::min(n, kChunk));
    for (std::size_t start = 0; start < n && error == PTOVEC_OK; start += kChunk) {
      const std::size_t count = std::min(kChunk, n - start);
      std::size_t failed_in_chunk = 0;
      error = ptovec_evaluate_batch_edition(edition, op.c_str(), src_code, dst_code, rmode,
                                            sat ? 1 : 0, inputs.data() + start * slots, slots,
                                            count, results.data(), &failed_in_chunk);
      failed = start + failed_in_chunk;
      for (std::size_t i = 0; error == PTOVEC_OK && i < count; ++i) {
        words[start + i] = results[i].word;
        statuses[start + i] = results[i].status;
      }
    }
  }
  if (error != PTOVEC_OK) Raise(error, failed);
  return {OwningArray<Words>(std::move(words), n), OwningArray<Statuses>(std::move(statuses), n)};
}

// ptovec_compare_policy: the status bits compared under a policy name.
unsigned ComparePolicyMask(const std::string& policy) {
  std::uint8_t mask = 0;
  const ptovec_error error = ptovec_compare_policy(policy.c_str(), &mask);
  if (error != PTOVEC_OK) Raise(error, std::nullopt);
  return mask;
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() =
      "ptovec's C API (libptovec_c.so.0, ptovec/ptovec.h) for Python. Private: use the functions "
      "of the ptovec package, which name types and modes and check numpy inputs.";
  m.def("version", &ptovec_version,
        "The C library's version, \"MAJOR.MINOR.PATCH\" (ptovec_version).");
  m.def("edition_code", &EditionCode, nb::arg("name"),
        "The edition code of an edition name (\"0.58.3\" 0, \"2026-09\" 1; "
        "ptovec_edition_code). Raises ValueError naming the accepted names for another.");
  m.def("op_names", &OpNames, nb::arg("edition") = 0,
        "The ops of `ptovec list --edition`, in its order (ptovec_op_name_edition).");
  m.def("op_input_count", &OpInputCount, nb::arg("op"), nb::arg("edition") = 0,
        "The number of input words (slots) of `op` (case-insensitive; "
        "ptovec_op_input_count_edition). Raises ValueError naming the accepted ops for an "
        "unknown op.");
  m.def("type_code", &ptovec_type_code_edition, nb::arg("edition"), nb::arg("name"),
        "The spec's 5-bit TileDataType code of a type name of the edition, case-insensitive "
        "(\"fp16\" -> 4; FP19 is 32); -1 for an unknown name (ptovec_type_code_edition).");
  m.def("type_name", &TypeName, nb::arg("code"), nb::arg("edition") = 0,
        "The lower-case name of a type code of the edition; None for a code none of its types "
        "has (ptovec_type_name_edition).");
  m.def("type_width", &ptovec_type_width_edition, nb::arg("edition"), nb::arg("code"),
        "The bits of one element of a type code of the edition (FP16 16, S4X2 4, FP19 19); 0 for "
        "an unknown code (ptovec_type_width_edition).");
  m.def("rounding_mode", &ptovec_rounding_mode, nb::arg("name"),
        "The rounding mode index 0..6 of a name (RNE RTM RTP RTZ RNA RTO RHB), case-insensitive; "
        "-1 when unknown (ptovec_rounding_mode).");
  m.def("evaluate_one", &EvaluateOne, nb::arg("op"), nb::arg("src_code"), nb::arg("dst_code"),
        nb::arg("rmode"), nb::arg("sat"), nb::arg("inputs"), nb::arg("edition") = 0,
        "One case through ptovec_evaluate_edition: (result word, 5 status bits NV DZ OF UF NX in "
        "bits "
        "0..4). Raises ValueError with the C API's message for bad input, RuntimeError for an "
        "internal error.");
  m.def("compare_policy", &ComparePolicyMask, nb::arg("policy"),
        "The status bits (bit 0 NV .. bit 4 NX) compared under a policy name: \"word+flags\" "
        "0x1f, \"word\" 0, \"word+flags:NV,OF\" 0x05 (ptovec_compare_policy). Raises ValueError "
        "with the C API's message for an unknown name.");
  m.def("evaluate_batch", &EvaluateBatch, nb::arg("op"), nb::arg("src_code"), nb::arg("dst_code"),
        nb::arg("rmode"), nb::arg("sat"), nb::arg("inputs"), nb::arg("edition") = 0,
        "Cases of one op, pair and control through ptovec_evaluate_batch_edition with the GIL "
        "released: "
        "`inputs` a C-contiguous uint64 array of shape (n, slots); returns (words: uint64 (n,), "
        "status: uint8 (n,)). Raises ValueError with the C API's message (\"case N: \" before a "
        "width or domain error of case N), RuntimeError for an internal error.");
}
