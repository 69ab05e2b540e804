// The Python interpreter of the profiled process, read from inside it for --python-backtrace=cuda.
//
// PyTorch releases the GIL around every operator, so a CUDA call made from Python code usually
// runs on a thread that holds no GIL: CPython's C API may not be called there (it changes reference
// counts and allocates), and taking the GIL inside a CUDA call can deadlock against a thread that
// holds it. But a thread's own frames cannot change while that thread runs C code, so prof reads
// them straight from CPython's structs, the way out-of-process samplers do, without a reference
// count change or an allocation: thread state → current frame → previous frames, each frame's code
// object and instruction, the code object's file and qualified name (3.10: its plain name). The
// struct layouts differ per CPython version, so only versions whose layout prof knows are read
// (python_interpreter.cpp); CPython's own exported functions are found at run time
// (dlsym(RTLD_DEFAULT)), never linked, so the injected libraries load into any program. Threads
// that run no Python code get no stack.
#pragma once

#include <cstddef>
#include <string>

namespace prof::injection::python {

enum class InterpreterSupport {
  kNotPython,    // no CPython in this process (or not initialized yet)
  kSupported,    // CPython 3.10 to 3.13 with a GIL
  kUnsupported,  // another version, or a free-threaded build
};

// Finds the interpreter once per process (thread-safe). `version` is Py_GetVersion()'s first
// line when the process runs CPython.
InterpreterSupport FindInterpreter(std::string* version);

// One frame of a Python stack: the code object it runs, the instruction it is at, and the frame
// itself (valid only while the call that read it runs on the thread).
struct PythonFrame {
  const void* code;
  const void* instruction;
  const void* frame;
};

// As FindInterpreter, for a caller that may run in a signal handler (an OS-runtime call's
// backtrace): never waits for the lock another thread holds while it searches (kNotPython then, to
// be asked again later) and never allocates. The search itself calls dlsym.
InterpreterSupport FindInterpreterWithoutWaiting();

// Fills up to `capacity` frames of the calling thread's Python stack, innermost first, and returns
// how many; 0 when the interpreter is not supported or the thread runs no Python code. Holding the
// GIL or not makes no difference.
size_t ReadCurrentStack(PythonFrame* frames, size_t capacity);

// The source line of `frame`, read while its thread still runs the call that read the stack.
// Costs a walk of the code's line table, so callers compute it once per distinct stack.
int LineOf(const PythonFrame& frame);

// The source file and qualified function name of `code` (a code object ReadCurrentStack returned
// on this thread, whose frame is still running) as UTF-8; "?" for a name prof cannot decode.
void DescribeCode(const void* code, std::string* file, std::string* function);

}  // namespace prof::injection::python
