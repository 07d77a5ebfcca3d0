// Helpers shared by the oracle tests. They are written independently of the oracle (2^e from an
// integer shift, not PowerOfTwo or ReferencePowerOfTwo, which are under test).
#pragma once

#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "ptovec/oracle/numeric.hpp"

namespace ptovec::oracle {

/// gtest's printer for an Encoded (found by argument-dependent lookup): "{word 0x<hex>, status
/// 0x<hex>}".
void PrintTo(const Encoded& e, std::ostream* os);

}  // namespace ptovec::oracle

namespace ptovec::oracle::test_support {

/// 2^e as an exact real, from an integer shift. Defined out of line (test_support.cpp): GCC's
/// -Wmaybe-uninitialized misfires on Boost's rational code when this is inlined into a loop.
Real Pow2(int e);

/// The rational n / d.
Real Q(long long n, long long d = 1);

/// "0x" and the lower-case hex digits of w, without padding.
std::string Hex(Word w);

/// "{0x<word>, 0x<status>}".
std::string Show(const Encoded& e);

/// Counts fast-vs-literal comparisons and reports the first 20 mismatches in full.
class Mismatches {
 public:
  void Check(const Encoded& fast, const Encoded& literal, const std::string& what) {
    ++checked_;
    if (fast == literal) return;
    if (++count_ <= 20) {
      ADD_FAILURE() << what << ": fast " << Show(fast) << " literal " << Show(literal);
    }
  }
  int count() const { return count_; }
  long checked() const { return checked_; }

 private:
  int count_ = 0;
  long checked_ = 0;
};

}  // namespace ptovec::oracle::test_support
