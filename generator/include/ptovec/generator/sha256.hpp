// SHA-256 (OpenSSL EVP) of a byte stream, as the manifest and results files record it.
#pragma once

#include <cstddef>
#include <string>

namespace ptovec::generator {

/// SHA-256 of the bytes given so far (OpenSSL EVP), as lower-case hex.
class Sha256 {
 public:
  Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  ~Sha256();
  void Update(const void* data, std::size_t bytes);
  /// The digest (64 lower-case hex digits); the object cannot be updated afterwards.
  std::string HexDigest();

 private:
  void* ctx_ = nullptr;  // EVP_MD_CTX
};

}  // namespace ptovec::generator
