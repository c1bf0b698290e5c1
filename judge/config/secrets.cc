#include "judge/config/secrets.h"

#include <fcntl.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace hpcab::judge {

namespace fs = std::filesystem;

namespace {
constexpr std::size_t kKeyBytes = 32;

Result<std::string> read_key(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return Error{"cannot open key file " + path + ": " + std::strerror(errno)};
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return Error{"key file " + path + " is not a regular file"};
  }
  if ((st.st_mode & 077) != 0) {
    close(fd);
    return Error{"key file " + path + " is readable by group or others (mode " +
                 std::to_string(st.st_mode & 0777) + " octal " +
                 [&] {
                   char b[8];
                   std::snprintf(b, sizeof b, "%03o", st.st_mode & 0777);
                   return std::string(b);
                 }() +
                 "); chmod 600 it"};
  }
  std::string key(kKeyBytes * 2, '\0');
  ssize_t n = read(fd, key.data(), key.size());
  close(fd);
  if (n < static_cast<ssize_t>(kKeyBytes)) {
    return Error{"key file " + path + " is shorter than " + std::to_string(kKeyBytes) + " bytes"};
  }
  key.resize(static_cast<std::size_t>(n));
  return key;
}
}  // namespace

Result<std::string> load_or_create_key(const std::string& path) {
  std::error_code ec;
  if (fs::exists(path, ec)) return read_key(path);
  fs::path dir = fs::path(path).parent_path();
  if (!dir.empty()) {
    fs::create_directories(dir, ec);
    if (ec) return Error{"cannot create " + dir.string() + ": " + ec.message()};
  }
  unsigned char bytes[kKeyBytes];
  if (RAND_bytes(bytes, sizeof bytes) != 1) return Error{"RAND_bytes failed"};
  // O_EXCL: two judges starting at once never overwrite each other's key.
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (errno == EEXIST) return read_key(path);
    return Error{"cannot create key file " + path + ": " + std::strerror(errno)};
  }
  ssize_t n = write(fd, bytes, sizeof bytes);
  int sync_rc = fsync(fd);
  close(fd);
  if (n != static_cast<ssize_t>(sizeof bytes) || sync_rc != 0) {
    unlink(path.c_str());
    return Error{"cannot write key file " + path};
  }
  return std::string(reinterpret_cast<const char*>(bytes), sizeof bytes);
}

}  // namespace hpcab::judge
