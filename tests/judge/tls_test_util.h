// Test-time TLS material: a fresh self-signed certificate (EC P-256) for 127.0.0.1 and
// localhost, made with the OpenSSL C API so no tool or fixture key is needed. The certificate
// is its own CA: clients trust it by passing the certificate file as their CA file.
#pragma once

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <cstdio>
#include <string>

namespace hpcab::tls_testing {

struct TestCertificate {
  std::string cert_file;  // PEM certificate (also the CA file clients trust)
  std::string key_file;   // PEM private key, mode 0600
};

namespace tls_detail {

inline bool AddExtension(X509* cert, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  if (ext == nullptr) return false;
  const bool ok = X509_add_ext(cert, ext, -1) == 1;
  X509_EXTENSION_free(ext);
  return ok;
}

}  // namespace tls_detail

// Writes <dir>/<name>.pem and <dir>/<name>.key; empty paths on failure. `san`: the names the
// certificate is valid for (X.509 subjectAltName syntax).
inline TestCertificate MakeSelfSignedCertificate(
    const std::string& dir, const std::string& name = "judge",
    const std::string& san = "IP:127.0.0.1,DNS:localhost") {
  TestCertificate out;
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  bool ok = key != nullptr && cert != nullptr;
  if (ok) {
    ok = X509_set_version(cert, 2) == 1 &&  // v3
         ASN1_INTEGER_set(X509_get_serialNumber(cert), 1) == 1 &&
         X509_gmtime_adj(X509_getm_notBefore(cert), -3600) != nullptr &&
         X509_gmtime_adj(X509_getm_notAfter(cert), 24 * 3600) != nullptr &&
         X509_set_pubkey(cert, key) == 1;
  }
  if (ok) {
    X509_NAME* subject = X509_get_subject_name(cert);
    const std::string cn = "hpcab test " + name;
    ok = X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC,
                                    reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1,
                                    0) == 1 &&
         X509_set_issuer_name(cert, subject) == 1;
  }
  ok = ok && tls_detail::AddExtension(cert, NID_basic_constraints, "critical,CA:TRUE") &&
       tls_detail::AddExtension(cert, NID_key_usage,
                                "critical,digitalSignature,keyCertSign,keyEncipherment") &&
       tls_detail::AddExtension(cert, NID_subject_alt_name, san.c_str()) &&
       tls_detail::AddExtension(cert, NID_subject_key_identifier, "hash") &&
       X509_sign(cert, key, EVP_sha256()) > 0;
  const std::string cert_path = dir + "/" + name + ".pem";
  const std::string key_path = dir + "/" + name + ".key";
  if (ok) {
    FILE* f = std::fopen(cert_path.c_str(), "w");
    ok = f != nullptr && PEM_write_X509(f, cert) == 1;
    if (f != nullptr) std::fclose(f);
  }
  if (ok) {
    FILE* f = std::fopen(key_path.c_str(), "w");
    ok = f != nullptr && chmod(key_path.c_str(), 0600) == 0 &&
         PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr) == 1;
    if (f != nullptr) std::fclose(f);
  }
  X509_free(cert);
  EVP_PKEY_free(key);
  if (ok) {
    out.cert_file = cert_path;
    out.key_file = key_path;
  }
  return out;
}

}  // namespace hpcab::tls_testing
