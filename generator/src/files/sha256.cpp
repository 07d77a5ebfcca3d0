// SHA-256 through OpenSSL EVP (sha256.hpp).
#include "ptovec/generator/sha256.hpp"

#include <openssl/evp.h>

#include <stdexcept>

#include "ptovec/generator/word_text.hpp"

namespace ptovec::generator {

Sha256::Sha256() {
  auto* ctx = EVP_MD_CTX_new();
  if (ctx == nullptr || EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr) != 1) {
    EVP_MD_CTX_free(ctx);
    throw std::runtime_error("cannot initialise SHA-256 (OpenSSL)");
  }
  ctx_ = ctx;
}

Sha256::~Sha256() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }

void Sha256::Update(const void* data, std::size_t bytes) {
  if (bytes > 0) EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), data, bytes);
}

std::string Sha256::HexDigest() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), digest, &length);
  return HexBytes(digest, length);
}

}  // namespace ptovec::generator
