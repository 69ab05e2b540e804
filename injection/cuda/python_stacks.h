// The Python stacks of CUDA API calls (--python-backtrace=cuda). Each distinct stack is sent once
// per process (CudaPythonStackRecord) and calls name it by id, so a training loop that issues the
// same calls every step sends its stacks in the first step only. Stacks are told apart by their
// frames' code objects and instructions. prof cannot keep a code object alive without the GIL, so a
// code object freed and another allocated at its address would inherit its name: rare, since the
// functions of a running training loop live as long as the program.
#pragma once

#include <cstdint>

namespace prof::injection::cuda {

// The id of the calling thread's Python stack (sending it first when new), or 0 when the thread
// runs no Python code or the interpreter is not supported (said once per process
// with a kPythonUnsupported CudaInitStatusRecord).
uint32_t CurrentPythonStackId(uint64_t timestamp_ns);

}  // namespace prof::injection::cuda
