#include "common/npy.h"

#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace hpcab {

// The descr strings below and the raw data copies assume a little-endian host.
static_assert(std::endian::native == std::endian::little, "npy.cc assumes a little-endian host");

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLen = 6;
// NumPy caps headers at 10000 bytes by default; anything far larger is a corrupt length field.
constexpr std::size_t kMaxHeaderLen = std::size_t{1} << 20;
// np.save pads so the data starts on a 64-byte boundary; write_npy matches it.
constexpr std::size_t kDataAlign = 64;

struct DescrEntry {
  std::string_view descr;
  DType dtype;
};
constexpr DescrEntry kDescrs[] = {
    {"<f8", DType::kFloat64}, {"<f4", DType::kFloat32}, {"<i8", DType::kInt64},
    {"<i4", DType::kInt32},   {"<u2", DType::kUint16},  {"|u1", DType::kUint8},
    {"|i1", DType::kInt8},    {"|b1", DType::kBool},
};

std::string_view descr_of(DType t) {
  for (const auto& d : kDescrs) {
    if (d.dtype == t) return d.descr;
  }
  return "";
}

std::optional<DType> dtype_of(std::string_view descr) {
  for (const auto& d : kDescrs) {
    if (d.descr == descr) return d.dtype;
  }
  return std::nullopt;
}

std::string shape_tuple(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

struct Header {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

// Parses the header's Python dict literal, restricted to what np.save writes: string keys,
// string / True / False / tuple-of-non-negative-int values. Exactly the keys 'descr',
// 'fortran_order' and 'shape', as NumPy itself requires.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : s_(text) {}

  // Empty on success, else what is wrong.
  std::string parse(Header* out) {
    bool have_descr = false, have_fortran = false, have_shape = false;
    skip_ws();
    if (!eat('{')) return "header is not a dict";
    while (true) {
      skip_ws();
      if (eat('}')) break;
      std::string key;
      if (!string_literal(&key)) return "header dict key is not a string";
      skip_ws();
      if (!eat(':')) return "expected ':' after key '" + key + "'";
      skip_ws();
      if (key == "descr") {
        if (have_descr) return "duplicate key 'descr'";
        have_descr = true;
        if (!string_literal(&out->descr)) {
          return "'descr' is not a simple type string (structured dtypes are not supported)";
        }
      } else if (key == "fortran_order") {
        if (have_fortran) return "duplicate key 'fortran_order'";
        have_fortran = true;
        if (eat_word("True")) {
          out->fortran_order = true;
        } else if (eat_word("False")) {
          out->fortran_order = false;
        } else {
          return "'fortran_order' is not True or False";
        }
      } else if (key == "shape") {
        if (have_shape) return "duplicate key 'shape'";
        have_shape = true;
        std::string err = tuple(&out->shape);
        if (!err.empty()) return err;
      } else {
        return "unexpected key '" + key + "'";
      }
      skip_ws();
      if (eat(',')) continue;
      skip_ws();
      if (eat('}')) break;
      return "expected ',' or '}' in header dict";
    }
    skip_ws();
    if (pos_ != s_.size()) return "trailing characters after the header dict";
    if (!have_descr) return "header lacks 'descr'";
    if (!have_fortran) return "header lacks 'fortran_order'";
    if (!have_shape) return "header lacks 'shape'";
    return "";
  }

 private:
  void skip_ws() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool eat(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool eat_word(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  // A quoted string without escapes (no descr or key np.save writes needs one).
  bool string_literal(std::string* out) {
    if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) return false;
    const char quote = s_[pos_++];
    const std::size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != quote) {
      if (s_[pos_] == '\\') return false;
      ++pos_;
    }
    if (pos_ >= s_.size()) return false;
    *out = std::string(s_.substr(start, pos_ - start));
    ++pos_;
    return true;
  }
  std::string tuple(std::vector<int64_t>* out) {
    out->clear();
    if (!eat('(')) return "'shape' is not a tuple";
    while (true) {
      skip_ws();
      if (eat(')')) return "";
      if (pos_ < s_.size() && s_[pos_] == '-') return "'shape' has a negative dimension";
      if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9') {
        return "'shape' holds something other than non-negative integers";
      }
      int64_t v = 0;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
        const int digit = s_[pos_++] - '0';
        if (v > (std::numeric_limits<int64_t>::max() - digit) / 10) {
          return "'shape' dimension overflows int64";
        }
        v = v * 10 + digit;
      }
      eat('L');  // Python 2 long literals, as in files written by old NumPy.
      out->push_back(v);
      skip_ws();
      if (eat(',')) continue;
      skip_ws();
      if (eat(')')) return "";
      return "expected ',' or ')' in 'shape'";
    }
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

Error read_error(const std::string& path, const std::string& what) {
  return Error{"read_npy " + path + ": " + what};
}

// `err`: the errno of a failed system call (0: the array itself is at fault), so a full or
// read-only filesystem carries its code to whoever decides whose fault it was.
Error write_error(const std::string& path, const std::string& what, int err = 0) {
  return Error{"write_npy " + path + ": " + what, err ? errc_from_errno(err) : Errc::kInvalid};
}

bool read_exact(std::FILE* f, void* buf, std::size_t n) {
  return n == 0 || std::fread(buf, 1, n, f) == n;
}

}  // namespace

Result<NdArray> read_npy(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t file_size = std::filesystem::file_size(path, ec);
  if (ec) return read_error(path, "cannot stat: " + ec.message());
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) return read_error(path, std::string("cannot open: ") + std::strerror(errno));

  unsigned char prefix[kMagicLen + 2];
  if (!read_exact(f.get(), prefix, sizeof prefix)) {
    return read_error(path, "truncated: shorter than the .npy magic and version");
  }
  if (std::memcmp(prefix, kMagic, kMagicLen) != 0) {
    return read_error(path, "not a .npy file (bad magic string)");
  }
  const int major = prefix[kMagicLen];
  const int minor = prefix[kMagicLen + 1];
  if (!(minor == 0 && (major == 1 || major == 2 || major == 3))) {
    return read_error(path, "unsupported .npy format version " + std::to_string(major) + "." +
                                std::to_string(minor) + " (1.0, 2.0 and 3.0 are read)");
  }
  // Version 1.0 has a 2-byte little-endian header length, 2.0 and 3.0 a 4-byte one.
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  unsigned char len_buf[4] = {0, 0, 0, 0};
  if (!read_exact(f.get(), len_buf, len_bytes)) {
    return read_error(path, "truncated: header length missing");
  }
  const std::size_t header_len =
      static_cast<std::size_t>(len_buf[0]) | static_cast<std::size_t>(len_buf[1]) << 8 |
      static_cast<std::size_t>(len_buf[2]) << 16 | static_cast<std::size_t>(len_buf[3]) << 24;
  const std::size_t data_offset = kMagicLen + 2 + len_bytes + header_len;
  if (header_len > kMaxHeaderLen) {
    return read_error(path, "header length " + std::to_string(header_len) + " is implausible");
  }
  if (data_offset > file_size) {
    return read_error(path, "truncated: header of " + std::to_string(header_len) +
                                " bytes runs past the end of the file");
  }
  std::string text(header_len, '\0');
  if (!read_exact(f.get(), text.data(), header_len)) {
    return read_error(path, "truncated: cannot read the header");
  }

  Header header;
  const std::string err = HeaderParser(text).parse(&header);
  if (!err.empty()) {
    const std::size_t end = text.find_last_not_of(" \n");
    return read_error(path, "bad header: " + err + " in " + text.substr(0, end + 1));
  }
  const std::optional<DType> dtype = dtype_of(header.descr);
  if (!dtype) {
    return read_error(path, "unsupported dtype descr '" + header.descr +
                                "' (supported: '<f8', '<f4', '<i8', '<i4', '<u2', '|u1', '|b1'; "
                                "big-endian data is not)");
  }
  if (header.fortran_order) {
    return read_error(path, "fortran_order is True; only C-order arrays are supported");
  }

  const std::size_t elem = dtype_size(*dtype);
  const uint64_t limit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / elem;
  uint64_t count = 1;
  for (int64_t d : header.shape) {
    const uint64_t ud = static_cast<uint64_t>(d);
    if (ud != 0 && count > limit / ud) {
      return read_error(path, "shape " + shape_tuple(header.shape) + " is too large");
    }
    count *= ud;
  }
  const uint64_t nbytes = count * elem;
  const uint64_t available = file_size - data_offset;
  if (available < nbytes) {
    return read_error(path, "truncated data: shape " + shape_tuple(header.shape) + " of " +
                                header.descr + " needs " + std::to_string(nbytes) +
                                " bytes, the file holds " + std::to_string(available));
  }
  if (available > nbytes) {
    return read_error(path, std::to_string(available - nbytes) +
                                " unexpected bytes after the data of shape " +
                                shape_tuple(header.shape));
  }

  // Every byte is read below; a short read discards the array.
  NdArray array = NdArray::uninitialized(*dtype, header.shape);
  if (!read_exact(f.get(), array.data(), static_cast<std::size_t>(nbytes))) {
    return read_error(path, "truncated data: read failed");
  }
  if (*dtype == DType::kBool) {
    // Any non-zero byte is True to NumPy; C requires a bool's byte to be exactly 0 or 1.
    uint8_t* p = array.as<uint8_t>();
    for (int64_t i = 0; i < array.size(); ++i) p[i] = p[i] != 0 ? 1 : 0;
  }
  return array;
}

Status write_npy(const std::string& path, const NdArray& array) {
  int64_t count = 1;
  for (int64_t d : array.shape()) count *= d;
  // A default-constructed NdArray has shape () but no element; it cannot be written honestly.
  if (count != array.size() || (array.size() > 0 && array.data() == nullptr)) {
    return write_error(path, "array has shape " + shape_tuple(array.shape()) + " but holds " +
                                 std::to_string(array.size()) + " elements");
  }
  std::string header = "{'descr': '" + std::string(descr_of(array.dtype())) +
                       "', 'fortran_order': False, 'shape': " + shape_tuple(array.shape()) + ", }";
  const std::size_t unpadded = kMagicLen + 2 + 2 + header.size() + 1;
  header.append((kDataAlign - unpadded % kDataAlign) % kDataAlign, ' ');
  header += '\n';
  if (header.size() > 0xffff) {
    return write_error(path, "header longer than a version 1.0 file allows");
  }

  File f(std::fopen(path.c_str(), "wb"));
  if (!f) {
    const int e = errno;
    return write_error(path, std::string("cannot create: ") + std::strerror(e), e);
  }
  unsigned char prefix[kMagicLen + 4];
  std::memcpy(prefix, kMagic, kMagicLen);
  prefix[kMagicLen] = 1;
  prefix[kMagicLen + 1] = 0;
  prefix[kMagicLen + 2] = static_cast<unsigned char>(header.size() & 0xff);
  prefix[kMagicLen + 3] = static_cast<unsigned char>(header.size() >> 8);
  const std::size_t nbytes = array.nbytes();
  bool ok = std::fwrite(prefix, 1, sizeof prefix, f.get()) == sizeof prefix &&
            std::fwrite(header.data(), 1, header.size(), f.get()) == header.size() &&
            (nbytes == 0 || std::fwrite(array.data(), 1, nbytes, f.get()) == nbytes);
  int saved_errno = errno;
  if (std::fclose(f.release()) != 0 && ok) {
    ok = false;
    saved_errno = errno;
  }
  if (!ok) {
    std::error_code ec;
    std::filesystem::remove(path, ec);  // a partial file would later read as truncated
    return write_error(path, std::string("write failed: ") + std::strerror(saved_errno),
                       saved_errno);
  }
  return Ok{};
}

}  // namespace hpcab
