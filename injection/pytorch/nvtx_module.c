/* _prof_nvtx: the Python entry to NVTX push/pop ranges that prof's functions-trace ranges use, in
 * the NVTX domain "PyTorch". A CPython extension of the stable ABI (abi3, Python 3.8 and later), so
 * one file built by prof's CMake serves every interpreter without a compiler on the user's machine;
 * a call costs about a tenth of a ctypes call (docs/pytorch.md has the measurements). The NVTX
 * instance compiled in here attaches to libprof_nvtx.so through NVTX_INJECTION64_PATH.
 *
 *   push(name: bytes) -> int   opens a range named `name` (UTF-8) on this thread; its level
 *   pop() -> int               closes this thread's innermost one; its level, -1 when none */
#define Py_LIMITED_API 0x03080000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <nvtx3/nvToolsExt.h>

static nvtxDomainHandle_t g_domain;

static PyObject* Push(PyObject* module, PyObject* name) {
  const char* text = PyBytes_AsString(name);
  if (text == NULL) return NULL;
  nvtxEventAttributes_t attributes = {0};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = text;
  return PyLong_FromLong(nvtxDomainRangePushEx(g_domain, &attributes));
}

static PyObject* Pop(PyObject* module, PyObject* unused) {
  return PyLong_FromLong(nvtxDomainRangePop(g_domain));
}

static PyMethodDef kMethods[] = {
    {"push", Push, METH_O, "Opens an NVTX range named by the UTF-8 bytes given."},
    {"pop", Pop, METH_NOARGS, "Closes this thread's innermost range."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef kModule = {PyModuleDef_HEAD_INIT, .m_name = "_prof_nvtx",
                                     .m_doc = "prof's NVTX ranges for PyTorch functions",
                                     .m_size = -1, .m_methods = kMethods};

PyMODINIT_FUNC PyInit__prof_nvtx(void) {
  g_domain = nvtxDomainCreateA("PyTorch");
  return PyModule_Create(&kModule);
}
