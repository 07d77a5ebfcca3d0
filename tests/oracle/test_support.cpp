#include "test_support.hpp"

#include <sstream>

namespace ptovec::oracle::test_support {

Real Pow2(int e) {
  Integer magnitude = 1;
  magnitude <<= static_cast<unsigned>(e >= 0 ? e : -e);
  if (e >= 0) return Real(magnitude);
  return Real(Integer(1), magnitude);
}

Real Q(long long n, long long d) { return Real(Integer(n), Integer(d)); }

std::string Hex(Word w) {
  std::ostringstream out;
  out << "0x" << std::hex << w;
  return out.str();
}

std::string Show(const Encoded& e) {
  std::ostringstream out;
  out << "{0x" << std::hex << e.word << ", 0x" << static_cast<int>(e.status) << "}";
  return out.str();
}

}  // namespace ptovec::oracle::test_support

namespace ptovec::oracle {

void PrintTo(const Encoded& e, std::ostream* os) {
  *os << "{word 0x" << std::hex << e.word << ", status 0x" << static_cast<unsigned>(e.status)
      << std::dec << "}";
}

}  // namespace ptovec::oracle
