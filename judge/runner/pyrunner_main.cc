// hpcab-pyrunner: runs one Python kernel function inside the sandbox, call by call, under
// exactly the protocol and checks of hpcab-runner (judge/runner/runner_core.h): the same
// options except that --lib is --module FILE.py and --function NAME (default: the manifest
// id), the same replies, the same draws. Only the call differs: the function is called with
// keyword arguments as corpus/run_reference.py calls reference.py, on NumPy arrays that view
// the runner's own buffers. judge/README.md ("hpcab-pyrunner") describes the Python form.
//
// Start-up order: options, manifest and first draw (runner_core), CPython in isolated mode,
// NumPy and the handful of its functions this file calls (held before any candidate code runs:
// a module may monkeypatch numpy's attributes later), the argument views, the exec filter, and
// only then the candidate's module, imported from its file.
//
// The GIL: the main thread holds it from Py_InitializeFromConfig on and never releases it
// itself; only the Python code it calls inside the clock does (the interpreter's switch
// interval, blocking calls). So between two calls, while the runner prepares, checks and saves
// in C++, no other Python thread of the candidate can run Python code: a thread left running
// after the return is stopped at its next bytecode until the next call (when it runs inside
// that call's clock). Only code that runs without the GIL (a ctypes foreign call, a nogil
// extension or numba function) keeps running between calls, as any thread of a C kernel does,
// and the runner's late-write check (`posted late`) and the judge's thread census see it the
// same way.
//
// An exception raised by the call, or a result that cannot be delivered to the outputs, ends
// the runner with exit status 3 after printing the traceback to stderr (the log) and without
// replying `done`: the judge reports a runner that died mid-call, with its log. Every exit after
// the interpreter started is _exit: no Py_Finalize, so no candidate atexit handler, finalizer
// or thread shutdown runs.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "common/abi.h"
#include "judge/runner/runner_core.h"

using namespace hpcab;
namespace proto = hpcab::runner_protocol;

namespace {

// Leaves without running any exit handler (C's or Python's): stdio is flushed by hand.
[[noreturn]] void leave(int status) {
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(status);
}

// "TypeName: text" of an exception, on one line (the reply flattens newlines anyway).
std::string describe(PyObject* type, PyObject* value) {
  std::string text = type != nullptr ? PyExceptionClass_Name(type) : "unknown exception";
  if (value != nullptr) {
    if (PyObject* s = PyObject_Str(value)) {
      if (const char* u = PyUnicode_AsUTF8(s); u != nullptr && *u != '\0') {
        text += std::string(": ") + u;
      }
      Py_DECREF(s);
    }
    PyErr_Clear();
  }
  return text;
}

// The interpreter's own stderr at start-up, for tracebacks: a module replacing sys.stderr
// (with something that swallows or raises) does not hide its own failure from the log.
PyObject* g_stderr = nullptr;

// The pending exception: its traceback to stderr and its one-line description. Never
// PyErr_Print, which would act on SystemExit by finalizing and exiting the interpreter.
std::string report_exception() {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (g_stderr != nullptr) PySys_SetObject("stderr", g_stderr);
  if (type != nullptr) PyErr_Display(type, value, tb);
  PyErr_Clear();
  std::string text = describe(type, value);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
  return text;
}

// The kernel raised, or its result could not be delivered: the log gets the traceback, the
// judge gets a runner that died mid-call (no `done`).
[[noreturn]] void die_in_call(const std::string& function) {
  const std::string what = report_exception();
  std::fprintf(stderr, "hpcab-pyrunner: %s() failed: %s (exit status 3)\n", function.c_str(),
               what.c_str());
  leave(3);
}

PyStatus start_python(const char* argv0) {
  PyConfig config;
  PyConfig_InitIsolatedConfig(&config);  // no user site, PYTHON* ignored, no script dir in path
  // The standard library of the libpython this runner links, wherever the runner binary lies
  // and whatever python3 comes first in PATH (a pyenv or venv one would otherwise be taken as
  // the installation); sys.executable is the runner itself.
  PyStatus status = PyConfig_SetBytesString(&config, &config.home, HPCAB_PYTHON_HOME);
  if (!PyStatus_Exception(status)) {
    status = PyConfig_SetBytesString(&config, &config.program_name, argv0);
  }
  if (PyStatus_Exception(status)) {
    PyConfig_Clear(&config);
    return status;
  }
  config.install_signal_handlers = 0;  // SIGINT and the rest keep the runner's dispositions
  config.write_bytecode = 0;           // nothing written next to the module (or anywhere)
  config.buffered_stdio = 0;           // the kernel's prints reach the log in order
  status = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  return status;
}

// The NumPy functions the runner calls, looked up once before any candidate code runs.
struct Numpy {
  PyObject* frombuffer = nullptr;
  PyObject* copyto = nullptr;
  PyObject* asarray = nullptr;
  PyObject* dtype = nullptr;
  PyObject* float32 = nullptr;
  PyObject* copyto_kwargs = nullptr;  // {"casting": "same_kind"}

  bool load() {
    PyObject* np = PyImport_ImportModule("numpy");
    if (np == nullptr) return false;
    frombuffer = PyObject_GetAttrString(np, "frombuffer");
    copyto = PyObject_GetAttrString(np, "copyto");
    asarray = PyObject_GetAttrString(np, "asarray");
    dtype = PyObject_GetAttrString(np, "dtype");
    float32 = PyObject_GetAttrString(np, "float32");
    Py_DECREF(np);
    if (!frombuffer || !copyto || !asarray || !dtype || !float32) return false;
    copyto_kwargs = Py_BuildValue("{s:s}", "casting", "same_kind");
    return copyto_kwargs != nullptr;
  }
};

PyObject* shape_tuple(const std::vector<int64_t>& shape) {
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(shape.size()));
  if (t == nullptr) return nullptr;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    PyObject* d = PyLong_FromLongLong(shape[i]);
    if (d == nullptr) {
      Py_DECREF(t);
      return nullptr;
    }
    PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), d);
  }
  return t;
}

// A NumPy array over `arr`'s buffer (no copy), C order, its dtype and shape; read-only unless
// `writable` (the memoryview itself is read-only, so numpy refuses to make it writeable).
PyObject* view_of(const Numpy& np, NdArray& arr, bool writable) {
  PyObject* mv =
      PyMemoryView_FromMemory(static_cast<char*>(arr.data()), static_cast<Py_ssize_t>(arr.nbytes()),
                              writable ? PyBUF_WRITE : PyBUF_READ);
  if (mv == nullptr) return nullptr;
  const std::string name(dtype_name(arr.dtype()));
  PyObject* dt = PyObject_CallFunction(np.dtype, "s", name.c_str());
  PyObject* flat =
      dt != nullptr ? PyObject_CallFunctionObjArgs(np.frombuffer, mv, dt, nullptr) : nullptr;
  Py_DECREF(mv);
  Py_XDECREF(dt);
  if (flat == nullptr) return nullptr;
  PyObject* shape = shape_tuple(arr.shape());
  PyObject* view = shape != nullptr ? PyObject_CallMethod(flat, "reshape", "O", shape) : nullptr;
  Py_DECREF(flat);
  Py_XDECREF(shape);
  return view;
}

// One output array as the runner delivers a returned result into it: a private writable view
// (never handed to the candidate, so nothing it does to its own argument affects delivery) and
// the shape a result must have.
struct Output {
  std::string name;
  PyObject* target = nullptr;
  PyObject* shape = nullptr;
};

// The function's keyword arguments, built once (views of the draw's buffers, which
// regenerate_draw refills in place) and passed to every call. The array objects are the same
// every call: a module reshaping one in place only misleads its own next call, since results are
// delivered through the runner's private views (Output) and checked on the runner's buffers.
PyObject* make_kwargs(const Numpy& np, runner::Runner& r, std::vector<Output>& outputs) {
  PyObject* kwargs = PyDict_New();
  if (kwargs == nullptr) return nullptr;
  Draw& draw = r.draw();
  for (const AbiArg& a : abi_args(r.manifest(), r.precision())) {
    PyObject* value = nullptr;
    switch (a.kind) {
      case AbiArg::Kind::kArray: {
        NdArray& arr = draw.arrays.at(a.name);
        const bool out = a.intent != Intent::kIn;
        value = view_of(np, arr, out);
        if (out && value != nullptr) {
          Output o{a.name, view_of(np, arr, true), shape_tuple(arr.shape())};
          if (o.target == nullptr || o.shape == nullptr) return nullptr;
          outputs.push_back(o);
        }
        break;
      }
      case AbiArg::Kind::kSize:
      case AbiArg::Kind::kIntScalar:
        value = PyLong_FromLongLong(draw.symbols.at(a.name));
        break;
      case AbiArg::Kind::kRealScalar: {
        // As the C call gets them (common/invoke.cc): the manifest's value, as a double for
        // fp64 and rounded to float for fp32; np.float32 so fp32 arithmetic stays fp32.
        PyObject* d = PyFloat_FromDouble(r.manifest().scalar(a.name)->real_value);
        if (d != nullptr && a.dtype == DType::kFloat32) {
          value = PyObject_CallOneArg(np.float32, d);
          Py_DECREF(d);
        } else {
          value = d;
        }
        break;
      }
      case AbiArg::Kind::kWorkspace:
      case AbiArg::Kind::kWorkspaceSize:
        continue;  // the Python form has no workspace
    }
    if (value == nullptr || PyDict_SetItemString(kwargs, a.name.c_str(), value) != 0) {
      return nullptr;
    }
    Py_DECREF(value);
  }
  return kwargs;
}

// The candidate's function, or the one-line reason it cannot be had (an `error load` reply).
// The module is imported from its file under the name hpcab_kernel (and registered in
// sys.modules under it, as an import would), never from sys.path.
PyObject* load_function(const std::string& path, const std::string& name, std::string& error) {
  const char* kModule = "hpcab_kernel";
  PyObject* module = nullptr;
  bool ok = false;
  if (PyObject* util = PyImport_ImportModule("importlib.util")) {
    PyObject* spec =
        PyObject_CallMethod(util, "spec_from_file_location", "ss", kModule, path.c_str());
    if (spec == Py_None) {
      Py_DECREF(spec);
      Py_DECREF(util);
      error = "cannot import " + path + ": not a Python source file (.py)";
      return nullptr;
    }
    module = spec != nullptr ? PyObject_CallMethod(util, "module_from_spec", "O", spec) : nullptr;
    PyObject* loader = module != nullptr ? PyObject_GetAttrString(spec, "loader") : nullptr;
    if (loader != nullptr && PyDict_SetItemString(PyImport_GetModuleDict(), kModule, module) == 0) {
      PyObject* done = PyObject_CallMethod(loader, "exec_module", "O", module);
      ok = done != nullptr;
      Py_XDECREF(done);
    }
    Py_XDECREF(loader);
    Py_XDECREF(spec);
    Py_DECREF(util);
  }
  if (!ok) {
    Py_XDECREF(module);
    error = "cannot import " + path + ": " + report_exception();
    return nullptr;
  }
  PyObject* fn = PyObject_GetAttrString(module, name.c_str());
  Py_DECREF(module);
  if (fn == nullptr) {
    PyErr_Clear();
    error = path + " defines no function named '" + name + "'";
    return nullptr;
  }
  if (!PyCallable_Check(fn)) {
    error = "'" + name + "' in " + path + " is not callable (" + Py_TYPE(fn)->tp_name + ")";
    Py_DECREF(fn);
    return nullptr;
  }
  return fn;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hpcab-pyrunner: runs a Python kernel call by call (driven by hpcab-judge)"};
  runner::Options options;
  std::string module_path, function_name;
  runner::add_options(app, options);
  app.add_option("--module", module_path, "Python file defining the kernel function")->required();
  app.add_option("--function", function_name, "the function to call (default: the manifest id)");
  CLI11_PARSE(app, argc, argv);

  runner::Runner r(options);
  if (int rc = r.setup("hpcab-pyrunner")) return rc;
  if (function_name.empty()) function_name = r.manifest().id;
  const auto setup = proto::Fault::kSetup;

  if (PyStatus st = start_python(argv[0]); PyStatus_Exception(st)) {
    return r.fail(setup, std::string("cannot start Python: ") +
                             (st.err_msg != nullptr ? st.err_msg : "unknown error"));
  }
  g_stderr = PySys_GetObject("stderr");
  Py_XINCREF(g_stderr);
  Numpy np;
  if (!np.load()) leave(r.fail(setup, "cannot import numpy: " + report_exception()));
  std::vector<Output> outputs;
  PyObject* kwargs = make_kwargs(np, r, outputs);
  PyObject* no_args = PyTuple_New(0);
  if (kwargs == nullptr || no_args == nullptr) {
    leave(r.fail(setup, "cannot build the arguments: " + report_exception()));
  }

  if (int rc = r.deny_exec()) leave(rc);
  std::string error;
  PyObject* fn = load_function(module_path, function_name, error);
  if (fn == nullptr) leave(r.fail(proto::Fault::kLoad, error));

  // Inside the clock: the call and the delivery of its result, nothing else.
  const std::size_t n_out = outputs.size();
  auto deliver = [&](PyObject* result) -> bool {
    PyObject* items = nullptr;  // a tuple of n_out results
    if (n_out == 1) {
      items = PyTuple_CheckExact(result) && PyTuple_GET_SIZE(result) == 1 ? Py_NewRef(result)
                                                                          : PyTuple_Pack(1, result);
    } else if (PyTuple_Check(result) || PyList_Check(result)) {
      items = PySequence_Tuple(result);
      if (items != nullptr && PyTuple_GET_SIZE(items) != static_cast<Py_ssize_t>(n_out)) {
        PyErr_Format(PyExc_ValueError,
                     "%s() returned %zd values for its %zu outputs (return None after writing "
                     "them in place, or one array per output in name order)",
                     function_name.c_str(), PyTuple_GET_SIZE(items), n_out);
        Py_CLEAR(items);
      }
    } else {
      PyErr_Format(PyExc_TypeError,
                   "%s() returned %s: with %zu outputs it returns None (written in place) or a "
                   "tuple of one array per output in name order",
                   function_name.c_str(), Py_TYPE(result)->tp_name, n_out);
    }
    if (items == nullptr) return false;
    bool ok = true;
    for (std::size_t i = 0; ok && i < n_out; ++i) {
      const Output& o = outputs[i];
      PyObject* src = PyObject_CallOneArg(np.asarray, PyTuple_GET_ITEM(items, i));
      PyObject* shape = src != nullptr ? PyObject_GetAttrString(src, "shape") : nullptr;
      ok = shape != nullptr;
      if (ok && PyObject_RichCompareBool(shape, o.shape, Py_EQ) != 1) {
        if (!PyErr_Occurred()) {
          PyErr_Format(PyExc_ValueError,
                       "%s() returned an array of shape %R for output %s of shape %R",
                       function_name.c_str(), shape, o.name.c_str(), o.shape);
        }
        ok = false;
      }
      if (ok) {
        PyObject* args = PyTuple_Pack(2, o.target, src);
        PyObject* done =
            args != nullptr ? PyObject_Call(np.copyto, args, np.copyto_kwargs) : nullptr;
        ok = done != nullptr;
        Py_XDECREF(done);
        Py_XDECREF(args);
      }
      Py_XDECREF(shape);
      Py_XDECREF(src);
    }
    Py_DECREF(items);
    return ok;
  };
  const int rc = r.serve([&](Draw&, uint8_t*, int64_t, const std::map<std::string, void*>*) {
    PyObject* result = PyObject_Call(fn, no_args, kwargs);
    if (result == nullptr) die_in_call(function_name);
    const bool ok = result == Py_None || deliver(result);
    Py_DECREF(result);
    if (!ok) die_in_call(function_name);
  });
  leave(rc);
}
