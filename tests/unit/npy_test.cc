#include "common/npy.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

namespace hpcab {
namespace {

namespace fs = std::filesystem;

constexpr DType kAllTypes[] = {DType::kFloat64, DType::kFloat32, DType::kInt64, DType::kInt32,
                               DType::kUint16,  DType::kUint8,   DType::kInt8,  DType::kBool};

class NpyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "hpcab_npy_test_XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

// Distinct, type-exercising values: negatives, extremes and specials where the type has them.
NdArray filled(DType dtype, const std::vector<int64_t>& shape) {
  NdArray a(dtype, shape);
  for (int64_t i = 0; i < a.size(); ++i) {
    switch (dtype) {
      case DType::kFloat64:
        a.as<double>()[i] = i == 1   ? std::numeric_limits<double>::quiet_NaN()
                            : i == 2 ? -std::numeric_limits<double>::infinity()
                            : i == 3 ? std::numeric_limits<double>::denorm_min()
                            : i == 4 ? -0.0
                                     : static_cast<double>(i) / 3.0 - 1.0;
        break;
      case DType::kFloat32:
        a.as<float>()[i] =
            i == 1 ? std::numeric_limits<float>::infinity() : static_cast<float>(i) / 3.0f - 2.0f;
        break;
      case DType::kInt64:
        a.as<int64_t>()[i] = (int64_t{1} << 62) + 1 - 3 * i;
        break;
      case DType::kInt32:
        a.as<int32_t>()[i] = i == 0 ? INT32_MIN : static_cast<int32_t>(-7 * i);
        break;
      case DType::kUint16:
        a.as<uint16_t>()[i] = static_cast<uint16_t>(65535 - 1000 * i);
        break;
      case DType::kUint8:
        a.as<uint8_t>()[i] = static_cast<uint8_t>(255 - 11 * i);
        break;
      case DType::kInt8:
        a.as<int8_t>()[i] = static_cast<int8_t>(i == 0 ? -128 : 127 - 13 * i);
        break;
      case DType::kBool:
        a.as<uint8_t>()[i] = i % 3 == 0 ? 1 : 0;
        break;
    }
  }
  return a;
}

std::string read_file(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const std::string& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A .npy file built by hand: magic, version, header length of the version's width, header.
std::string npy_bytes(int major, const std::string& header, const std::string& data) {
  std::string s("\x93NUMPY", 6);
  s += static_cast<char>(major);
  s += '\0';
  const std::size_t n = header.size();
  s += static_cast<char>(n & 0xff);
  s += static_cast<char>((n >> 8) & 0xff);
  if (major >= 2) {
    s += static_cast<char>((n >> 16) & 0xff);
    s += static_cast<char>((n >> 24) & 0xff);
  }
  return s + header + data;
}

std::string doubles(std::initializer_list<double> v) {
  std::string s(v.size() * sizeof(double), '\0');
  std::memcpy(s.data(), std::data(v), s.size());
  return s;
}

TEST_F(NpyTest, RoundTripEveryDtypeAndShape) {
  const std::vector<std::vector<int64_t>> shapes = {{}, {0}, {5}, {2, 3, 4}};
  for (DType t : kAllTypes) {
    for (const auto& shape : shapes) {
      const NdArray a = filled(t, shape);
      const std::string p = path("rt.npy");
      ASSERT_TRUE(write_npy(p, a).ok());
      Result<NdArray> b = read_npy(p);
      ASSERT_TRUE(b.ok()) << b.error().message;
      EXPECT_EQ(b->dtype(), t);
      EXPECT_EQ(b->shape(), shape);
      EXPECT_TRUE(b->bytes_equal(a)) << dtype_name(t) << " rank " << shape.size();
    }
  }
}

TEST_F(NpyTest, ShapeConventions) {
  ASSERT_TRUE(write_npy(path("s.npy"), filled(DType::kFloat64, {})).ok());
  Result<NdArray> s = read_npy(path("s.npy"));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->size(), 1);  // shape () is one element
  EXPECT_EQ(s->as<double>()[0], -1.0);
  ASSERT_TRUE(write_npy(path("e.npy"), NdArray(DType::kInt32, {0})).ok());
  Result<NdArray> e = read_npy(path("e.npy"));
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->size(), 0);
  EXPECT_EQ(e->shape(), std::vector<int64_t>{0});
}

TEST_F(NpyTest, WritesVersion1HeaderPaddedTo64) {
  ASSERT_TRUE(write_npy(path("h.npy"), filled(DType::kFloat64, {2, 3, 4})).ok());
  const std::string bytes = read_file(path("h.npy"));
  ASSERT_GE(bytes.size(), 10u);
  EXPECT_EQ(bytes.substr(0, 6), std::string("\x93NUMPY", 6));
  EXPECT_EQ(bytes[6], 1);
  EXPECT_EQ(bytes[7], 0);
  const std::size_t header_len = static_cast<unsigned char>(bytes[8]) |
                                 static_cast<std::size_t>(static_cast<unsigned char>(bytes[9]))
                                     << 8;
  EXPECT_EQ((10 + header_len) % 64, 0u);
  EXPECT_EQ(bytes.size(), 10 + header_len + 24 * sizeof(double));
  const std::string header = bytes.substr(10, header_len);
  EXPECT_EQ(header.rfind("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3, 4), }", 0), 0u)
      << header;
  EXPECT_EQ(header.back(), '\n');

  ASSERT_TRUE(write_npy(path("v.npy"), filled(DType::kBool, {5})).ok());
  EXPECT_NE(read_file(path("v.npy")).find("'descr': '|b1'"), std::string::npos);
  EXPECT_NE(read_file(path("v.npy")).find("'shape': (5,)"), std::string::npos);
}

TEST_F(NpyTest, ReadsVersions2And3AndLooseSpelling) {
  const std::string data = doubles({1.5, -2.5});
  for (int major : {2, 3}) {
    write_file(
        path("v.npy"),
        npy_bytes(major, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n", data));
    Result<NdArray> a = read_npy(path("v.npy"));
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a->as<double>()[1], -2.5);
  }
  // Any key order, double quotes, no trailing commas, Python 2 long literals, no padding.
  write_file(
      path("l.npy"),
      npy_bytes(1, "{\"shape\": (1L, 2L), \"fortran_order\": False, \"descr\": \"<f8\"}", data));
  Result<NdArray> b = read_npy(path("l.npy"));
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->shape(), (std::vector<int64_t>{1, 2}));
}

TEST_F(NpyTest, BoolBytesAreNormalized) {
  write_file(path("b.npy"),
             npy_bytes(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }\n",
                       std::string("\x00\x01\x07", 3)));
  Result<NdArray> a = read_npy(path("b.npy"));
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->as<uint8_t>()[2], 1);
}

// The error must name the file and contain `what`.
void expect_rejected(const std::string& p, const std::string& what) {
  Result<NdArray> r = read_npy(p);
  ASSERT_FALSE(r.ok()) << p << " was accepted, expected: " << what;
  EXPECT_NE(r.error().message.find(p), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().message;
}

TEST_F(NpyTest, RejectsMissingAndEmptyFiles) {
  expect_rejected(path("absent.npy"), "cannot");
  write_file(path("empty.npy"), "");
  expect_rejected(path("empty.npy"), "truncated");
}

TEST_F(NpyTest, RejectsBadMagicAndVersion) {
  std::string good =
      npy_bytes(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }\n", doubles({1.0}));
  std::string bad_magic = good;
  bad_magic[1] = 'M';
  write_file(path("m.npy"), bad_magic);
  expect_rejected(path("m.npy"), "magic");
  std::string v4 = good;
  v4[6] = 4;
  write_file(path("v4.npy"), v4);
  expect_rejected(path("v4.npy"), "version 4.0");
  std::string v11 = good;
  v11[7] = 1;
  write_file(path("v11.npy"), v11);
  expect_rejected(path("v11.npy"), "version 1.1");
}

TEST_F(NpyTest, RejectsUnsupportedDescr) {
  for (const char* descr : {">f8", ">i4", "<c16", "<f2", "<u1", "<i2", "<u8", "O", "<U3"}) {
    write_file(path("d.npy"), npy_bytes(1,
                                        std::string("{'descr': '") + descr +
                                            "', 'fortran_order': False, 'shape': (1,), }\n",
                                        doubles({1.0})));
    expect_rejected(path("d.npy"), "unsupported dtype");
  }
  write_file(path("s.npy"),
             npy_bytes(1, "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (1,), }\n",
                       doubles({1.0})));
  expect_rejected(path("s.npy"), "structured");
}

TEST_F(NpyTest, RejectsFortranOrder) {
  write_file(path("f.npy"),
             npy_bytes(1, "{'descr': '<f8', 'fortran_order': True, 'shape': (1, 2), }\n",
                       doubles({1.0, 2.0})));
  expect_rejected(path("f.npy"), "fortran_order");
}

TEST_F(NpyTest, RejectsCorruptedHeaders) {
  const std::string data = doubles({1.0});
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{'descr': '<f8', 'fortran_order': False, }", "lacks 'shape'"},
      {"{'fortran_order': False, 'shape': (1,), }", "lacks 'descr'"},
      {"{'descr': '<f8', 'shape': (1,), }", "lacks 'fortran_order'"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'x': 1}", "unexpected key 'x'"},
      {"{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (1,)}", "duplicate"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }", "negative"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': [1], }", "not a tuple"},
      {"{'descr': '<f8', 'fortran_order': 0, 'shape': (1,), }", "True or False"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (1,) ", "bad header"},
      {"{'descr': '<f8' 'fortran_order': False, 'shape': (1,)}", "bad header"},
      {"\x01\x02garbage", "not a dict"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (1,)} extra", "trailing"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,)}", "overflow"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", "too large"},
  };
  for (const auto& [header, what] : cases) {
    write_file(path("c.npy"), npy_bytes(1, header, data));
    expect_rejected(path("c.npy"), what);
  }
}

TEST_F(NpyTest, RejectsTruncatedHeaderAndData) {
  const std::string full = npy_bytes(
      1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }\n", doubles({1, 2, 3}));
  write_file(path("t.npy"), full.substr(0, full.size() - 1));
  expect_rejected(path("t.npy"), "truncated data");
  write_file(path("h.npy"), full.substr(0, 30));
  expect_rejected(path("h.npy"), "truncated");
  write_file(path("l.npy"), full.substr(0, 9));
  expect_rejected(path("l.npy"), "truncated");
  write_file(path("x.npy"), full + "junk");
  expect_rejected(path("x.npy"), "unexpected bytes");
}

TEST_F(NpyTest, WriteFailureIsAnError) {
  const std::string p = path("no/such/dir/a.npy");
  Status s = write_npy(p, filled(DType::kFloat64, {2}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find(p), std::string::npos) << s.error().message;
  Status d = write_npy(path("d.npy"), NdArray());  // default-constructed: no element
  EXPECT_FALSE(d.ok());
}

// The interpreter the corpus check uses (CMake's HPCAB_PYTHON), else Debian's, which carries
// python3-numpy.
#ifdef HPCAB_DEFAULT_PYTHON
constexpr const char* kPython = HPCAB_DEFAULT_PYTHON;
#else
constexpr const char* kPython = "/usr/bin/python3";
#endif

// Runs python code (no single quotes) with `arg` as sys.argv[1]; true on exit status 0.
bool run_python(const std::string& code, const std::string& arg) {
  EXPECT_EQ(code.find('\''), std::string::npos);
  const std::string cmd = std::string(kPython) + " -c '" + code + "' '" + arg + "'";
  return std::system(cmd.c_str()) == 0;
}

bool python_has_numpy() {
  const std::string cmd = std::string(kPython) + " -c 'import numpy' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

TEST_F(NpyTest, ReadsFilesNumpyWrote) {
  if (!python_has_numpy()) GTEST_SKIP() << kPython << " cannot import numpy";
  const std::string code = R"PY(
import sys, numpy as np
d = sys.argv[1]
np.save(d + "/f8.npy", np.arange(24, dtype="<f8").reshape(2, 3, 4) / 3.0 - 1.0)
np.save(d + "/sp.npy", np.array([np.nan, np.inf, -np.inf, -0.0, 5e-324, 1.7976931348623157e308]))
np.save(d + "/f4.npy", np.arange(6, dtype=np.float32) / np.float32(3))
np.save(d + "/i8.npy", np.array([-2**62, 2**62 + 1, -1, 0], dtype=np.int64))
np.save(d + "/i4.npy", np.array([-2147483648, 2147483647, 7], dtype=np.int32))
np.save(d + "/u2.npy", np.array([0, 65535, 42], dtype=np.uint16))
np.save(d + "/u1.npy", np.array([0, 255, 1], dtype=np.uint8))
np.save(d + "/b1.npy", np.array([True, False, True]))
np.save(d + "/i1.npy", np.array([-128, 127, -1], dtype=np.int8))
np.save(d + "/scalar.npy", np.array(3.25))
np.save(d + "/empty.npy", np.zeros((0,), dtype=np.int32))
with open(d + "/v2.npy", "wb") as f:
    np.lib.format.write_array(f, np.array([1.5, 2.5]), version=(2, 0))
with open(d + "/v3.npy", "wb") as f:
    np.lib.format.write_array(f, np.array([7, 8], dtype=np.int64), version=(3, 0))
np.save(d + "/fortran.npy", np.asfortranarray(np.arange(6.0).reshape(2, 3)))
np.save(d + "/big.npy", np.arange(3, dtype=">f8"))
np.save(d + "/c16.npy", np.arange(3, dtype=np.complex128))
)PY";
  ASSERT_TRUE(run_python(code, dir_.string()));

  Result<NdArray> f8 = read_npy(path("f8.npy"));
  ASSERT_TRUE(f8.ok()) << f8.error().message;
  EXPECT_EQ(f8->dtype(), DType::kFloat64);
  EXPECT_EQ(f8->shape(), (std::vector<int64_t>{2, 3, 4}));
  for (int64_t i = 0; i < 24; ++i)
    EXPECT_EQ(f8->as<double>()[i], static_cast<double>(i) / 3.0 - 1.0);

  Result<NdArray> sp = read_npy(path("sp.npy"));
  ASSERT_TRUE(sp.ok()) << sp.error().message;
  const double* s = sp->as<double>();
  EXPECT_TRUE(std::isnan(s[0]));
  EXPECT_EQ(s[1], std::numeric_limits<double>::infinity());
  EXPECT_EQ(s[2], -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(s[3] == 0.0 && std::signbit(s[3]));
  EXPECT_EQ(s[4], std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(s[5], std::numeric_limits<double>::max());

  Result<NdArray> f4 = read_npy(path("f4.npy"));
  ASSERT_TRUE(f4.ok()) << f4.error().message;
  EXPECT_EQ(f4->dtype(), DType::kFloat32);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(f4->as<float>()[i], static_cast<float>(i) / 3.0f);

  Result<NdArray> i8 = read_npy(path("i8.npy"));
  ASSERT_TRUE(i8.ok()) << i8.error().message;
  EXPECT_EQ(i8->as<int64_t>()[0], -(int64_t{1} << 62));
  EXPECT_EQ(i8->as<int64_t>()[1], (int64_t{1} << 62) + 1);
  EXPECT_EQ(i8->as<int64_t>()[2], -1);

  Result<NdArray> i4 = read_npy(path("i4.npy"));
  ASSERT_TRUE(i4.ok()) << i4.error().message;
  EXPECT_EQ(i4->as<int32_t>()[0], INT32_MIN);
  EXPECT_EQ(i4->as<int32_t>()[1], INT32_MAX);

  Result<NdArray> u2 = read_npy(path("u2.npy"));
  ASSERT_TRUE(u2.ok()) << u2.error().message;
  EXPECT_EQ(u2->dtype(), DType::kUint16);
  EXPECT_EQ(u2->as<uint16_t>()[1], 65535);

  Result<NdArray> u1 = read_npy(path("u1.npy"));
  ASSERT_TRUE(u1.ok()) << u1.error().message;
  EXPECT_EQ(u1->dtype(), DType::kUint8);
  EXPECT_EQ(u1->as<uint8_t>()[1], 255);

  Result<NdArray> i1 = read_npy(path("i1.npy"));
  ASSERT_TRUE(i1.ok()) << i1.error().message;
  EXPECT_EQ(i1->dtype(), DType::kInt8);
  EXPECT_EQ(i1->as<int8_t>()[0], -128);
  EXPECT_EQ(i1->as<int8_t>()[2], -1);

  Result<NdArray> b1 = read_npy(path("b1.npy"));
  ASSERT_TRUE(b1.ok()) << b1.error().message;
  EXPECT_EQ(b1->dtype(), DType::kBool);
  EXPECT_EQ(b1->as<uint8_t>()[0], 1);
  EXPECT_EQ(b1->as<uint8_t>()[1], 0);

  Result<NdArray> scalar = read_npy(path("scalar.npy"));
  ASSERT_TRUE(scalar.ok()) << scalar.error().message;
  EXPECT_TRUE(scalar->shape().empty());
  EXPECT_EQ(scalar->size(), 1);
  EXPECT_EQ(scalar->as<double>()[0], 3.25);

  Result<NdArray> empty = read_npy(path("empty.npy"));
  ASSERT_TRUE(empty.ok()) << empty.error().message;
  EXPECT_EQ(empty->size(), 0);

  Result<NdArray> v2 = read_npy(path("v2.npy"));
  ASSERT_TRUE(v2.ok()) << v2.error().message;
  EXPECT_EQ(v2->as<double>()[1], 2.5);
  Result<NdArray> v3 = read_npy(path("v3.npy"));
  ASSERT_TRUE(v3.ok()) << v3.error().message;
  EXPECT_EQ(v3->as<int64_t>()[1], 8);

  expect_rejected(path("fortran.npy"), "fortran_order");
  expect_rejected(path("big.npy"), "unsupported dtype");
  expect_rejected(path("c16.npy"), "unsupported dtype");
}

TEST_F(NpyTest, NumpyReadsFilesWeWrote) {
  if (!python_has_numpy()) GTEST_SKIP() << kPython << " cannot import numpy";
  const std::vector<std::vector<int64_t>> shapes = {{}, {0}, {5}, {2, 3, 4}};
  for (DType t : kAllTypes) {
    for (std::size_t s = 0; s < shapes.size(); ++s) {
      const std::string name = std::string(dtype_name(t)) + "_" + std::to_string(s) + ".npy";
      ASSERT_TRUE(write_npy(path(name), filled(t, shapes[s])).ok());
    }
  }
  // Recomputes filled() in NumPy and checks dtype, shape, bits and the 64-byte data offset.
  const std::string code = R"PY(
import sys, numpy as np
d = sys.argv[1]
shapes = [(), (0,), (5,), (2, 3, 4)]
def expect(t, n):
    i = np.arange(n)
    if t == "float64":
        v = i.astype(np.float64) / 3.0 - 1.0
        specials = {1: np.nan, 2: -np.inf, 3: 5e-324, 4: -0.0}
        for k, x in specials.items():
            if k < n: v[k] = x
        return v
    if t == "float32":
        v = i.astype(np.float32) / np.float32(3.0) - np.float32(2.0)
        if n > 1: v[1] = np.inf
        return v
    if t == "int64": return (2**62 + 1 - 3 * i).astype(np.int64)
    if t == "int32":
        v = (-7 * i).astype(np.int32)
        if n > 0: v[0] = -2**31
        return v
    if t == "uint16": return (65535 - 1000 * i).astype(np.uint16)
    if t == "uint8": return (255 - 11 * i).astype(np.uint8)
    if t == "bool": return i % 3 == 0
for t in ["float64", "float32", "int64", "int32", "uint16", "uint8", "bool"]:
    for s, shape in enumerate(shapes):
        p = "%s/%s_%d.npy" % (d, t, s)
        with open(p, "rb") as f:
            assert np.lib.format.read_magic(f) == (1, 0), p
            np.lib.format.read_array_header_1_0(f)
            assert f.tell() % 64 == 0, (p, f.tell())
        a = np.load(p)
        assert a.dtype == np.dtype(t), (p, a.dtype)
        assert a.shape == shape, (p, a.shape)
        e = expect(t, a.size).reshape(shape)
        assert a.tobytes() == e.tobytes(), (p, a, e)
)PY";
  EXPECT_TRUE(run_python(code, dir_.string()));
}

}  // namespace
}  // namespace hpcab
