// The Python interpreter of the profiled process, read from inside it: the Python stack of an
// OS-runtime call's backtrace, of a CPU sample (the sampling signal's handler) and of a CUDA call
// (--python-backtrace=cuda).
//
// PyTorch releases the GIL around every operator, so these reads run where CPython's C API may not
// be called (it changes reference counts and allocates, and taking the GIL inside a CUDA call can
// deadlock against a thread that holds it). prof reads CPython's structs instead, the way
// out-of-process samplers do: thread state → current frame → previous frames, each frame's code
// object and instruction, the code object's file and qualified name (3.10: its plain name). The
// struct layouts differ per CPython version, so only versions whose layout prof knows are read;
// CPython's exported functions are found at run time (dlsym(RTLD_DEFAULT)), never linked, so the
// injected libraries load into any program. Threads that run no Python code get no stack.
//
// Every read of CPython's memory goes through OwnMemory (own_memory.h) and cannot fault: the
// moment of a read is not the program's choice (a signal, a call made while CPython unlinks a
// frame whose memory it has just unmapped), so a frame or code object that is gone ends the stack
// or drops the frame instead of crashing the program. What is read may still be stale (a torn
// chain reads as a shorter or odd stack); the launcher checks each code object again when it
// names it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace prof::injection::python {

enum class InterpreterSupport {
  kNotPython,    // no CPython in this process (yet: a libpython loaded later is found then)
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
// how many; 0 when the interpreter was not found supported yet (FindInterpreter searches; this
// never does), the thread runs no Python code or reads of the own memory are refused. Holding the GIL or not makes no difference. Async-signal-safe once
// the interpreter was found (FindInterpreterWithoutWaiting): plain loads, process_vm_readv and a
// call of PyGILState_GetThisThreadState (a thread-local read).
size_t ReadCurrentStack(PythonFrame* frames, size_t capacity);

// As ReadCurrentStack, for the records that carry the frames: up to `capacity` (at most
// kMaxFramePairs) frames as (code object address, instruction) pairs into `pairs` (2 × capacity),
// innermost first, which the launcher names; returns how many frames. Async-signal-safe likewise.
inline constexpr size_t kMaxFramePairs = 64;
size_t ReadCurrentStackPairs(uint64_t* pairs, size_t capacity);

// The source line of `frame` (-1 when its code object cannot be read), read while its thread still
// runs the call that read the stack. Copies and walks the code's line table (allocates), so callers
// compute it once per distinct stack, never in a signal handler.
int LineOf(const PythonFrame& frame);

// The source file and qualified function name of `code` (a code object ReadCurrentStack returned
// on this thread, whose frame is still running) as UTF-8; "?" for a name prof cannot decode.
void DescribeCode(const void* code, std::string* file, std::string* function);

}  // namespace prof::injection::python
