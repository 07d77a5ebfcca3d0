// ptovec_dut_stream.hpp: a streaming harness that turns a clocked, pipelined RTL unit (a
// verilated model, or any C++ model with the same kind of ports) into a `ptovec run --dut`
// device (ptovec_dut.h, ABI version 3). C++17, header only; installed beside ptovec_dut.h and
// given by find_package(ptovec) as part of the imported target ptovec::dut (docs/rtl.md).
//
// What it does with a batch of n cases (ptovec_dut_evaluate_batch):
//   - cases the unit does not implement (Ports::Supported false) get PTOVEC_DUT_UNSUPPORTED and
//     never reach the model;
//   - the others enter one per clock while the input side is ready, so the pipeline stays full;
//     each carries a tag, its sequence number modulo 2^tag_bits, and at most 2^tag_bits (and at
//     most max_in_flight) are in flight, so a result out of order is seen;
//   - results leave when the output side is valid and the harness is ready: with
//     out_ready_percent below 100 the harness lowers out_ready at random clocks (back-pressure,
//     from a seeded generator: the same seed gives the same clocks); a unit without out_valid
//     gives its result `latency` clocks after it took the case (0: combinational, the same clock);
//   - each result's status port is read in `flag_order` (RISC-V fflags order is the reverse of
//     ptovec's) and converted to ptovec's bit 0 NV .. bit 4 NX;
//   - a result whose tag is not the oldest case's, or no progress for timeout_cycles clocks, is a
//     device failure: the cases still in flight and those not yet sent get PTOVEC_DUT_ERROR, the
//     call returns PTOVEC_DUT_ERROR, the model is reset and StreamHarness::last_error() (the
//     device's ptovec_dut_last_error, which ptovec's error quotes) says what happened.
//
// One clock is: clk low, this clock's inputs set (the case offered or in_valid 0, out_ready),
// eval (combinational settle), then the handshakes are read (in_valid && in_ready: the case is
// taken and in flight from this clock; out_valid && out_ready: the result is read now, before
// the edge), then clk high, eval (the edge). Reset holds rst active for reset_cycles clocks with
// nothing offered; it runs when the harness is made and after a failure.
//
// The handshake rule (a unit or wrapper that breaks it loses or duplicates cases under
// back-pressure): the unit acts at the rising edge on exactly the handshakes read before it. So
//   - every register of the unit moves on the rising edge of the clock Clock() drives: no
//     falling-edge registers, no latch or clock gate that changes between the two evals, no
//     clock the model divides or makes itself;
//   - in_ready and out_valid are functions of the unit's state and this clock's inputs (in_ready
//     may depend on out_ready and in_valid, as a pipeline's ready chain does);
//   - the Ports functions only write or read ports: no eval, no clock change, no reading
//     in_ready before out_ready is set (the harness calls them in the order above);
//   - a result may come in the clock its case is taken (a fall-through while the pipeline is
//     empty) or any later clock, in the order the cases were taken.
// A protocol failure names which way the unit broke it (a case taken twice, cases lost, a result
// with nothing in flight), the clock, and the tag due; ptovec_dut_last_error gives ptovec that
// text, so its error quotes it instead of a case of the batch that did not cause it.
//
// Ports, the user's traits struct, says how to drive the model (static members; the optional
// ones are only used when their kHas* constant is true):
//   using Model = Vmy_unit;                         the verilated class
//   static constexpr bool kHasInReady  = true;      in_ready exists (else always ready)
//   static constexpr bool kHasOutValid = true;      out_valid exists (else fixed latency)
//   static constexpr bool kHasOutReady = true;      out_ready exists (else no back-pressure)
//   static constexpr bool kHasTag      = true;      a tag goes in and comes back out
//   static bool Supported(const ptovec_dut_case&);  the cases the unit implements
//   static void Clock(Model&, bool high);
//   static void Reset(Model&, bool active);         e.g. m.rst_n = !active
//   static void Offer(Model&, const ptovec_dut_case*, uint32_t tag);  nullptr: in_valid = 0
//   static bool InReady(Model&);                    if kHasInReady
//   static void SetOutReady(Model&, bool);          if kHasOutReady
//   static bool OutValid(Model&);                   if kHasOutValid
//   static uint32_t OutTag(Model&);                 if kHasTag
//   static int Result(Model&, ptovec_dut_result&);  word and the port's raw status bits into r
//                                                   (r.flags, converted afterwards); returns
//                                                   PTOVEC_DUT_OK or PTOVEC_DUT_ERROR
//
// Threads: a StreamHarness owns its model (and its VerilatedContext when the model is verilated:
// Ports may construct it so); it is not shared. PTOVEC_DUT_STREAM_DEVICE gives each calling thread
// its own harness and declares the device PTOVEC_DUT_THREAD_SAFE, so `ptovec run --threads N`
// runs N models at once.
//
// PTOVEC_DUT_STREAM_DEVICE(Ports, "name", config) defines the device's exported functions (with
// ptovec_dut_clock_counts: every harness's cases sent and clocks run, which `ptovec run` prints
// as cases per clock, and ptovec_dut_last_error: the calling thread's harness's error); its
// `--dut-arg` text may change the config: comma-separated key=value of out_ready_percent, seed,
// timeout_cycles, max_in_flight, flag_order (a name of ptovec_dut_flag_order_code); a bad key or
// value makes ptovec_dut_init refuse with one line on stderr.
#ifndef PTOVEC_DUT_STREAM_HPP
#define PTOVEC_DUT_STREAM_HPP

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <utility>

#include "ptovec_dut.h"

namespace ptovec_dut {

#ifdef VERILATOR_VERILATED_H_
// A verilated top with a VerilatedContext of its own (include verilated.h and the top's header
// first), so models on different threads share nothing: Ports::Model = Verilated<Vtop>; its ports
// are reached through ->, e.g. m->clk = 1.
template <class Top>
struct Verilated {
  Verilated() : context(std::make_unique<VerilatedContext>()) {
    top = std::make_unique<Top>(context.get(), "top");
  }
  ~Verilated() { top->final(); }
  Verilated(const Verilated&) = delete;
  Verilated& operator=(const Verilated&) = delete;
  void eval() { top->eval(); }
  Top* operator->() { return top.get(); }
  std::unique_ptr<VerilatedContext> context;
  std::unique_ptr<Top> top;
};
#endif

// How the harness drives and reads the unit (see the header's comment).
struct StreamConfig {
  unsigned tag_bits = 8;             // the tag port's width (1..32); ignored without a tag
  unsigned max_in_flight = 0;        // 0: up to 2^tag_bits (a unit's own in_ready limits it too)
  unsigned latency = 0;              // clocks from taking a case to its result, without out_valid
  unsigned out_ready_percent = 100;  // out_ready high on this share of clocks (1..100)
  std::uint64_t seed = 1;            // the back-pressure clocks' generator
  unsigned timeout_cycles = 10000;   // clocks without progress that make a failure
  unsigned reset_cycles = 2;         // clocks of reset
  int flag_order = PTOVEC_DUT_FLAG_ORDER_SPEC;  // the status port's order
};

// Reads `--dut-arg` text into config (see the header); returns "" or one line naming the bad
// key or value and what is accepted.
inline std::string ParseStreamArg(const char* text, StreamConfig& config) {
  std::string arg = text == nullptr ? "" : text;
  std::size_t at = 0;
  while (at < arg.size()) {
    std::size_t end = arg.find(',', at);
    if (end == std::string::npos) end = arg.size();
    const std::string item = arg.substr(at, end - at);
    at = end + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
    const auto number = [&](std::uint64_t low, std::uint64_t high, std::uint64_t& out) {
      char* stop = nullptr;
      const unsigned long long v = std::strtoull(value.c_str(), &stop, 0);
      if (value.empty() || *stop != '\0' || value[0] == '-' || v < low || v > high) return false;
      out = v;
      return true;
    };
    std::uint64_t v = 0;
    if (key == "out_ready_percent" && number(1, 100, v)) {
      config.out_ready_percent = static_cast<unsigned>(v);
    } else if (key == "seed" && number(0, UINT64_MAX, v)) {
      config.seed = v;
    } else if (key == "timeout_cycles" && number(1, 1u << 30, v)) {
      config.timeout_cycles = static_cast<unsigned>(v);
    } else if (key == "max_in_flight" && number(0, 1u << 30, v)) {
      config.max_in_flight = static_cast<unsigned>(v);
    } else if (key == "flag_order" && ptovec_dut_flag_order_code(value.c_str()) >= 0) {
      config.flag_order = ptovec_dut_flag_order_code(value.c_str());
    } else {
      return "bad --dut-arg item '" + item +
             "': accepted out_ready_percent=1..100, seed=N, timeout_cycles=1..2^30, "
             "max_in_flight=0..2^30, flag_order=spec|riscv|ieee|softfloat|testfloat|mxcsr, "
             "comma-separated";
    }
  }
  return "";
}

// The harness over one model (see the header's comment).
template <class Ports>
class StreamHarness {
 public:
  using Model = typename Ports::Model;

  // Makes the model (Ports::Make() when Ports has it, else Model's default constructor) and
  // resets it.
  explicit StreamHarness(StreamConfig config = {})
      : config_(config), model_(MakeModel()), backpressure_(config.seed) {
    ResetModel();
  }

  // Fills results[i] and status[i] for i < n as ptovec_dut_evaluate_batch does; returns
  // PTOVEC_DUT_OK, or PTOVEC_DUT_ERROR after a protocol failure or an error result.
  int EvaluateBatch(const ptovec_dut_case* cases, ptovec_dut_result* results, std::uint8_t* status,
                    std::uint64_t n) {
    std::uint64_t next = 0;  // the next case to send
    const auto skip_unsupported = [&] {
      while (next < n && !Ports::Supported(cases[next])) status[next++] = PTOVEC_DUT_UNSUPPORTED;
    };
    skip_unsupported();
    in_flight_.clear();
    last_error_.clear();
    unsigned idle = 0;  // clocks without a case in or out
    int batch = PTOVEC_DUT_OK;
    while (next < n || !in_flight_.empty()) {
      const bool offer = next < n && in_flight_.size() < Limit();
      Handshake h = Settle(offer ? &cases[next] : nullptr);
      // A case is in flight from the clock it is taken: a unit may answer it before the edge (a
      // combinational path, or a fall-through while its pipeline is empty).
      if (h.took) in_flight_.push_back({next, cycles_, sent_});
      if constexpr (!Ports::kHasOutValid) {
        h.out_valid = !in_flight_.empty() && cycles_ - in_flight_.front().taken == config_.latency;
      }
      bool progress = h.took;
      if (h.out_valid && h.out_ready) {
        const std::string why = TakeResult(results, status, batch);
        if (!why.empty()) return Fail(next, n, status, why);
        progress = true;
      }
      Ports::Clock(*model_, true);
      model_->eval();
      ++cycles_;
      if (h.took) {
        ++sent_;
        ++next;
        skip_unsupported();
      }
      if (progress) {
        idle = 0;
      } else if (++idle > config_.timeout_cycles) {
        return Fail(next, n, status,
                    std::to_string(config_.timeout_cycles) + " clocks without a case in or out (" +
                        std::to_string(in_flight_.size()) + " in flight)");
      }
    }
    return batch;
  }

  // Clocks run, cases sent and results taken since the harness was made.
  std::uint64_t cycles() const { return cycles_; }
  std::uint64_t sent() const { return sent_; }
  std::uint64_t results() const { return results_; }
  // What the last failure was ("" if none).
  const std::string& last_error() const { return last_error_; }
  const StreamConfig& config() const { return config_; }
  Model& model() { return *model_; }

 private:
  struct Sent {
    std::uint64_t index;     // into the batch
    std::uint64_t taken;     // the clock it was taken at
    std::uint64_t sequence;  // its sequence number (the tag's source)
  };

  // One clock's handshakes as the unit acts on them at the rising edge.
  struct Handshake {
    bool took = false;  // in_valid && in_ready
    bool out_valid = false;
    bool out_ready = true;
  };

  // The first half of a clock: clk low, this clock's inputs (the case offered or none, out_ready),
  // eval; then in_ready and out_valid are read (the handshake rule, in the header's comment).
  Handshake Settle(const ptovec_dut_case* offered) {
    Ports::Clock(*model_, false);
    Ports::Offer(*model_, offered, Tag(sent_));
    Handshake h;
    if constexpr (Ports::kHasOutReady) {
      h.out_ready =
          config_.out_ready_percent >= 100 || backpressure_() % 100 < config_.out_ready_percent;
      Ports::SetOutReady(*model_, h.out_ready);
    }
    model_->eval();
    h.took = offered != nullptr;
    if constexpr (Ports::kHasInReady) h.took = h.took && Ports::InReady(*model_);
    if constexpr (Ports::kHasOutValid) h.out_valid = Ports::OutValid(*model_);
    return h;
  }

  // The result on the output side, checked against the oldest case in flight and read into its
  // slot; returns "" or what the unit did wrong.
  std::string TakeResult(ptovec_dut_result* results, std::uint8_t* status, int& batch) {
    if (in_flight_.empty()) return NoCaseText();
    const Sent oldest = in_flight_.front();
    if constexpr (Ports::kHasTag) {
      const std::uint32_t tag = Ports::OutTag(*model_);
      if (tag != Tag(oldest.sequence)) return WrongTagText(tag, oldest);
    }
    in_flight_.pop_front();
    ptovec_dut_result& r = results[oldest.index];
    r = ptovec_dut_result{};
    const int got = Ports::Result(*model_, r);
    r.flags = ptovec_dut_flags_to_spec(r.flags, config_.flag_order);
    status[oldest.index] = static_cast<std::uint8_t>(got);
    if (got == PTOVEC_DUT_ERROR) batch = PTOVEC_DUT_ERROR;
    ++results_;
    answered_ = {oldest.sequence, cycles_, true};
    return "";
  }

  static std::string Hex(std::uint64_t v) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
    return text;
  }

  // Why a result came with nothing in flight.
  std::string NoCaseText() {
    std::string tag;
    if constexpr (Ports::kHasTag) tag = " (tag " + Hex(Ports::OutTag(*model_)) + ")";
    return "clock " + std::to_string(cycles_) + ": a result" + tag +
           " with no case in flight: the unit answered a case the harness never saw it take "
           "(it takes one only where in_valid && in_ready read high before the rising edge: " +
           kRule;
  }

  // Why result tag `tag` is not the oldest case's: taken twice, cases lost, or a tag never sent.
  std::string WrongTagText(std::uint32_t tag, const Sent& oldest) {
    const std::string head = "clock " + std::to_string(cycles_) + ": result tag " + Hex(tag) +
                             " where tag " + Hex(Tag(oldest.sequence)) + " (taken at clock " +
                             std::to_string(oldest.taken) + ") is due: ";
    if (answered_.valid && tag == Tag(answered_.sequence)) {
      return head + "that tag's case was answered at clock " + std::to_string(answered_.clock) +
             ", so the unit took it twice: it acted on a clock where in_ready read low before " +
             "the rising edge (" + kRule;
    }
    for (std::size_t k = 1; k < in_flight_.size(); ++k) {
      if (tag != Tag(in_flight_[k].sequence)) continue;
      return head + "the unit lost the " + std::to_string(k) + " case(s) taken before it, or " +
             "answers out of order; a unit that takes cases only where in_valid && in_ready " +
             "read high before the rising edge keeps every one (" + kRule;
    }
    return head + "no case in flight has that tag (out of order, lost, duplicated or corrupted; " +
           kRule;
  }

  // The end of every protocol error: where the rule is.
  static constexpr const char* kRule = "the handshake rule of ptovec_dut_stream.hpp, docs/rtl.md)";

  template <class P>
  static auto MakeWith(int) -> decltype(P::Make()) {
    return P::Make();
  }
  template <class P>
  static std::unique_ptr<Model> MakeWith(long) {
    return std::make_unique<Model>();
  }
  static std::unique_ptr<Model> MakeModel() { return MakeWith<Ports>(0); }

  std::uint32_t Tag(std::uint64_t sequence) const {
    const unsigned bits = config_.tag_bits >= 32 ? 32 : config_.tag_bits;
    return static_cast<std::uint32_t>(bits == 32 ? sequence : sequence & ((1ull << bits) - 1));
  }

  std::size_t Limit() const {
    std::size_t limit = 1;
    if constexpr (Ports::kHasTag) {
      limit = config_.tag_bits >= 32 ? SIZE_MAX : std::size_t{1} << config_.tag_bits;
    } else {
      limit = SIZE_MAX;
    }
    if (config_.max_in_flight != 0 && config_.max_in_flight < limit) limit = config_.max_in_flight;
    return limit;
  }

  void ResetModel() {
    Ports::Offer(*model_, nullptr, 0);
    if constexpr (Ports::kHasOutReady) Ports::SetOutReady(*model_, true);
    Ports::Reset(*model_, true);
    for (unsigned i = 0; i < config_.reset_cycles; ++i) {
      Ports::Clock(*model_, false);
      model_->eval();
      Ports::Clock(*model_, true);
      model_->eval();
      ++cycles_;
    }
    Ports::Clock(*model_, false);
    Ports::Reset(*model_, false);
    model_->eval();
    in_flight_.clear();
  }

  int Fail(std::uint64_t next, std::uint64_t n, std::uint8_t* status, std::string why) {
    for (const Sent& s : in_flight_) status[s.index] = PTOVEC_DUT_ERROR;
    for (std::uint64_t i = next; i < n; ++i) status[i] = PTOVEC_DUT_ERROR;
    last_error_ = std::move(why);
    std::fprintf(stderr, "ptovec_dut_stream: %s; the model is reset\n", last_error_.c_str());
    ResetModel();
    return PTOVEC_DUT_ERROR;
  }

  StreamConfig config_;
  std::unique_ptr<Model> model_;
  std::mt19937_64 backpressure_;
  std::deque<Sent> in_flight_;
  struct {
    std::uint64_t sequence = 0;  // the case last answered
    std::uint64_t clock = 0;     // and when
    bool valid = false;
  } answered_;
  std::uint64_t cycles_ = 0;
  std::uint64_t sent_ = 0;
  std::uint64_t results_ = 0;
  std::string last_error_;
};

// The cases sent and clocks run by every harness of a device (ptovec_dut_clock_counts).
struct StreamCounts {
  std::atomic<std::uint64_t> cases{0};
  std::atomic<std::uint64_t> clocks{0};
};

// harness.EvaluateBatch, its cases sent and clocks run added to counts.
template <class Harness>
int CountedBatch(Harness& harness, StreamCounts& counts, const ptovec_dut_case* cases,
                 ptovec_dut_result* results, std::uint8_t* status, std::uint64_t n) {
  const std::uint64_t sent = harness.sent();
  const std::uint64_t cycles = harness.cycles();
  const int rc = harness.EvaluateBatch(cases, results, status, n);
  counts.cases += harness.sent() - sent;
  counts.clocks += harness.cycles() - cycles;
  return rc;
}

}  // namespace ptovec_dut

// Defines a device's exported functions over StreamHarness<PORTS>: one harness per calling
// thread (PTOVEC_DUT_THREAD_SAFE), made on the thread's first batch with CONFIG as changed by
// `--dut-arg`. Use it once, in one source file of the device library, at namespace scope.
#define PTOVEC_DUT_STREAM_DEVICE(PORTS, NAME, CONFIG)                                              \
  namespace {                                                                                      \
  ::ptovec_dut::StreamConfig& PtovecStreamConfig() {                                               \
    static ::ptovec_dut::StreamConfig config = (CONFIG);                                           \
    return config;                                                                                 \
  }                                                                                                \
  ::ptovec_dut::StreamCounts& PtovecStreamCounts() {                                               \
    static ::ptovec_dut::StreamCounts counts;                                                      \
    return counts;                                                                                 \
  }                                                                                                \
  ::ptovec_dut::StreamHarness<PORTS>& PtovecStreamHarness() {                                      \
    thread_local ::ptovec_dut::StreamHarness<PORTS> harness(PtovecStreamConfig());                 \
    return harness;                                                                                \
  }                                                                                                \
  }                                                                                                \
  extern "C" {                                                                                     \
  __attribute__((visibility("default"))) uint32_t ptovec_dut_abi_version(void) {                   \
    return PTOVEC_DUT_ABI_VERSION;                                                                 \
  }                                                                                                \
  __attribute__((visibility("default"))) int ptovec_dut_evaluate_batch(                            \
      const ptovec_dut_case* cases, ptovec_dut_result* results, uint8_t* status, uint64_t n) {     \
    return ::ptovec_dut::CountedBatch(PtovecStreamHarness(), PtovecStreamCounts(), cases, results, \
                                      status, n);                                                  \
  }                                                                                                \
  __attribute__((visibility("default"))) int ptovec_dut_evaluate(const ptovec_dut_case* c,         \
                                                                 ptovec_dut_result* r) {           \
    uint8_t status = PTOVEC_DUT_ERROR;                                                             \
    const int batch =                                                                              \
        ::ptovec_dut::CountedBatch(PtovecStreamHarness(), PtovecStreamCounts(), c, r, &status, 1); \
    return batch == PTOVEC_DUT_OK ? status : PTOVEC_DUT_ERROR;                                     \
  }                                                                                                \
  __attribute__((visibility("default"))) int ptovec_dut_clock_counts(uint64_t* cases,              \
                                                                     uint64_t* clocks) {           \
    *cases = PtovecStreamCounts().cases.load();                                                    \
    *clocks = PtovecStreamCounts().clocks.load();                                                  \
    return 0;                                                                                      \
  }                                                                                                \
  __attribute__((visibility("default"))) const char* ptovec_dut_last_error(void) {                 \
    return PtovecStreamHarness().last_error().c_str();                                             \
  }                                                                                                \
  __attribute__((visibility("default"))) uint32_t ptovec_dut_properties(void) {                    \
    return PTOVEC_DUT_THREAD_SAFE;                                                                 \
  }                                                                                                \
  __attribute__((visibility("default"))) const char* ptovec_dut_name(void) { return (NAME); }      \
  __attribute__((visibility("default"))) int ptovec_dut_init(const char* arg) {                    \
    const std::string error = ::ptovec_dut::ParseStreamArg(arg, PtovecStreamConfig());             \
    if (error.empty()) return 0;                                                                   \
    std::fprintf(stderr, "%s: %s\n", (NAME), error.c_str());                                       \
    return 1;                                                                                      \
  }                                                                                                \
  }

#endif  // PTOVEC_DUT_STREAM_HPP
