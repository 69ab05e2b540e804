// The stack an OS-runtime call was made from (--osrt-backtrace-threshold), taken by RecordCall
// while the call's thread is still inside the wrapper: where a thread blocked, for the calls that
// blocked long enough to matter.
//
// Like RecordCall it may run in a signal handler (a handler's own traced calls), so it neither
// allocates nor waits for a lock:
// - Native frames: the frame-pointer chain from the wrapper up (libprof_osrt is built with frame
//   pointers), inside the thread's stack mapping, which each thread learns once from
//   /proc/self/maps with raw system calls into a stack buffer. Code without frame pointers (most
//   of libc, CPython) ends the chain early: the call site of the traced function, the first frame,
//   is always exact.
// - Python frames: the thread's own frames read in place (injection/python), as code object and
//   instruction, which the launcher names. A thread's frames don't change while it runs C code.
#pragma once

#include <cstddef>
#include <cstdint>

#pragma GCC visibility push(hidden)

namespace prof::injection::osrt {

// Writes up to `capacity` return addresses, innermost first, starting with the call site of the
// traced function in the program; returns how many. `record_call_frame`: RecordCall's own frame
// (__builtin_frame_address(0)), called from the wrapper of the traced function.
size_t CaptureNativeFrames(const void* record_call_frame, uint64_t* ips, size_t capacity);

// Writes up to `capacity` Python frames of the calling thread, innermost first, as pairs (code
// object address, instruction) into `pairs` (2 × capacity); returns how many frames. 0 when the
// thread runs no Python or the process's interpreter is not (yet) known to be readable.
size_t CapturePythonFrames(uint64_t* pairs, size_t capacity);

}  // namespace prof::injection::osrt

#pragma GCC visibility pop
