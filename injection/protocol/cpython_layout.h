// Byte offsets into CPython's structs for each CPython version prof reads (3.10 to 3.13 with a GIL,
// x86-64 and aarch64): shared by the in-process reader (injection/python, --python-backtrace=cuda)
// and the launcher's out-of-process reader (collector/python_frames, Python frames in CPU samples),
// so a new version's offsets are entered once.
//
// Each value was printed with offsetof() against that version's installed headers, internal ones
// included (Include/cpython/pystate.h, code.h, unicodeobject.h, bytesobject.h, frameobject.h and
// Include/internal/pycore_runtime.h, pycore_interp.h, pycore_frame.h; Py_BUILD_CORE). The
// offsets hold for every patch release of a minor version prof was tested with (3.10.13, 3.11.2,
// 3.11.7, 3.12.1, 3.13.0); both readers check what they read (a code object's type, the thread
// state's interpreter pointer), so a layout that moved reads as "no stack", never as a wrong one.
//
// Adding a version: print the offsets the same way (the fields name their C members), add a
// function below and a case to LayoutOf, and run tests/python_stack and tests/python_frames with
// that interpreter.
#pragma once

#include <cstddef>

namespace prof::protocol::cpython {

inline constexpr size_t kNone = ~size_t{0};

struct Layout {
  int minor = 0;  // 3.<minor>
  // _PyRuntimeState.interpreters.head; PyInterpreterState.threads.head (3.10: tstate_head).
  size_t runtime_interpreters_head = kNone;
  size_t interpreter_threads_head = kNone;
  // PyThreadState: next, interp, thread_id (a pthread_t), native_thread_id (3.11+, the kernel's
  // thread id).
  size_t thread_next = kNone;
  size_t thread_interpreter = kNone;
  size_t thread_id = kNone;
  size_t thread_native_id = kNone;
  // PyThreadState.cframe (3.11, 3.12); kNone: the frame hangs off the thread state itself. Then
  // frame_pointer is its offset there (frame, current_frame), else in the _PyCFrame.
  size_t thread_cframe = kNone;
  size_t frame_pointer = kNone;
  size_t frame_code = kNone;          // f_code (3.13: f_executable)
  size_t frame_previous = kNone;      // f_back (3.10), previous
  size_t frame_instruction = kNone;   // prev_instr (3.11, 3.12), instr_ptr (3.13), f_lasti (3.10)
  bool instruction_is_index = false;  // 3.10: f_lasti, an int counting code units
  size_t frame_owner = kNone;         // _PyInterpreterFrame.owner (a char); kNone in 3.10
  int shim_owner = -1;                // FRAME_OWNED_BY_CSTACK (3.12+); -1 when none
  size_t frame_read_size = 0;         // bytes of a frame that hold every field above
  // PyCodeObject: co_filename, co_qualname (3.10: co_name), co_firstlineno (an int),
  // co_linetable (a bytes object: the 3.11+ location table, 3.10's PEP 626 line table) and
  // co_code_adaptive (3.11+: the bytecode, inside the code object).
  size_t code_filename = kNone;
  size_t code_name = kNone;
  size_t code_first_line = kNone;
  size_t code_line_table = kNone;
  size_t code_bytecode = kNone;
  size_t code_read_size = 0;  // bytes of a code object that hold every field above
  // PyBytesObject: ob_size and ob_sval.
  size_t bytes_size = 16;
  size_t bytes_data = 32;
  // sizeof(PyASCIIObject) (a compact ASCII string's text follows it), sizeof and the utf8 fields of
  // PyCompactUnicodeObject (other compact strings' text follows it).
  size_t ascii_size = kNone;
  size_t compact_size = kNone;
  size_t compact_utf8_length = kNone;
  size_t compact_utf8 = kNone;
};

// PyObject.ob_type, and PyASCIIObject's length and state (bits 2-4 kind, 5 compact, 6 ascii),
// placed alike in every version.
inline constexpr size_t kObjectType = 8;
inline constexpr size_t kUnicodeLength = 16;
inline constexpr size_t kUnicodeState = 32;

constexpr Layout Python310() {
  Layout l;
  l.minor = 10;
  l.runtime_interpreters_head = 32;
  l.interpreter_threads_head = 8;
  l.thread_next = 8;
  l.thread_interpreter = 16;
  l.thread_id = 176;
  l.frame_pointer = 24;
  l.frame_code = 32;
  l.frame_previous = 24;
  l.frame_instruction = 96;
  l.instruction_is_index = true;
  l.frame_read_size = 100;
  l.code_filename = 104;
  l.code_name = 112;
  l.code_first_line = 40;
  l.code_line_table = 120;
  l.code_read_size = 128;
  l.ascii_size = 48;
  l.compact_size = 72;
  l.compact_utf8_length = 48;
  l.compact_utf8 = 56;
  return l;
}

constexpr Layout Python311() {
  Layout l;
  l.minor = 11;
  l.runtime_interpreters_head = 40;
  l.interpreter_threads_head = 16;
  l.thread_next = 8;
  l.thread_interpreter = 16;
  l.thread_id = 152;
  l.thread_native_id = 160;
  l.thread_cframe = 56;
  l.frame_pointer = 8;
  l.frame_code = 32;
  l.frame_previous = 48;
  l.frame_instruction = 56;
  l.frame_owner = 69;
  l.frame_read_size = 72;
  l.code_filename = 112;
  l.code_name = 128;
  l.code_first_line = 72;
  l.code_line_table = 136;
  l.code_bytecode = 184;
  l.code_read_size = 144;
  l.ascii_size = 48;
  l.compact_size = 72;
  l.compact_utf8_length = 48;
  l.compact_utf8 = 56;
  return l;
}

constexpr Layout Python312() {
  Layout l;
  l.minor = 12;
  l.runtime_interpreters_head = 40;
  l.interpreter_threads_head = 72;
  l.thread_next = 8;
  l.thread_interpreter = 16;
  l.thread_id = 136;
  l.thread_native_id = 144;
  l.thread_cframe = 56;
  l.frame_pointer = 0;
  l.frame_code = 0;
  l.frame_previous = 8;
  l.frame_instruction = 56;
  l.frame_owner = 70;
  l.shim_owner = 3;
  l.frame_read_size = 72;
  l.code_filename = 112;
  l.code_name = 128;
  l.code_first_line = 68;
  l.code_line_table = 136;
  l.code_bytecode = 192;
  l.code_read_size = 144;
  l.ascii_size = 40;
  l.compact_size = 56;
  l.compact_utf8_length = 40;
  l.compact_utf8 = 48;
  return l;
}

constexpr Layout Python313() {
  Layout l;
  l.minor = 13;
  l.runtime_interpreters_head = 632;
  l.interpreter_threads_head = 7344;
  l.thread_next = 8;
  l.thread_interpreter = 16;
  l.thread_id = 152;
  l.thread_native_id = 160;
  l.frame_pointer = 72;
  l.frame_code = 0;
  l.frame_previous = 8;
  l.frame_instruction = 56;
  l.frame_owner = 70;
  l.shim_owner = 3;
  l.frame_read_size = 72;
  l.code_filename = 112;
  l.code_name = 128;
  l.code_first_line = 68;
  l.code_line_table = 136;
  l.code_bytecode = 200;
  l.code_read_size = 144;
  l.ascii_size = 40;
  l.compact_size = 56;
  l.compact_utf8_length = 40;
  l.compact_utf8 = 48;
  return l;
}

inline constexpr Layout kPython310 = Python310();
inline constexpr Layout kPython311 = Python311();
inline constexpr Layout kPython312 = Python312();
inline constexpr Layout kPython313 = Python313();

// The layout of CPython 3.<minor> with a GIL, or null for a version prof cannot read.
constexpr const Layout* LayoutOf(int major, int minor) {
  if (major != 3) return nullptr;
  switch (minor) {
    case 10:
      return &kPython310;
    case 11:
      return &kPython311;
    case 12:
      return &kPython312;
    case 13:
      return &kPython313;
    default:
      return nullptr;
  }
}

}  // namespace prof::protocol::cpython
