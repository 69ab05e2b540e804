// The program's own CPU sampler (InjectionSettings::timer_sampling_hz when perf_event_open is
// refused; python_sampling_hz in a process that runs CPython, whose Python frames must be read at
// the sample's instant). Internal to libprof_core.
//
// Each thread gets a POSIX timer on its own CPU-time clock (CLOCK_THREAD_CPUTIME_ID) that sends a
// real-time signal to that thread (SIGEV_THREAD_ID); the handler walks the frame-pointer chain,
// copies the registers and the top of the stack when asked to (for DWARF unwinding in the
// launcher), reads the thread's Python frames when asked to (injection/python, fault-proof), and
// emits a kCpuSample record (injection/protocol/sample_records.h) into the thread's ring. Threads
// are armed where they start (libprof_core's pthread_create, timer_sampler.cpp), the main thread at
// stream start, a fork child's thread in the pthread_atfork child handler. docs/sampling.md
// ("The program samples itself") says why this mechanism and what it cannot see.
//
// Start/Restart/Stop are called from event_stream.cpp's constructor, fork child handler and
// destructor only (normal context, before or after the program's own code).
#pragma once

#include <cstdint>

namespace prof::injection {

// Installs the signal handler, when `hz` > 0 and a signal is free; false when nothing was
// installed. Once, from the library constructor, before the stream's hello, which says whether
// the process samples itself. `python_frames`: the process runs a CPython whose frames prof can
// read (FindInterpreter said kSupported, so the handler never searches). `stack_bytes` (0: none):
// each sample also carries the registers and up to this many bytes of the thread's stack, for
// DWARF unwinding in the launcher (x86-64; read with process_vm_readv into a buffer of the
// thread's own, mapped when its timer is armed).
bool InstallTimerSampling(uint32_t hz, bool python_frames, uint32_t stack_bytes);
// Whether the handler is installed (in a fork child: inherited from the parent).
bool TimerSamplingInstalled();
// Once the stream started: samples are emitted, and the calling (main) thread is armed.
void StartTimerSampling();

// Fork child (its timers were not inherited): arms the only thread, when sampling was on in the
// parent and the child's stream started.
void RestartTimerSamplingInChild(bool stream_enabled);

// At exit, before the exit record: no sample is emitted any more; the calling thread's timer is
// deleted (other threads' timers still fire until the process ends, into a handler that returns).
void StopTimerSampling();

}  // namespace prof::injection
