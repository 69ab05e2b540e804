// The CPU sampler's signal stays prof's whatever the program does to it. A program may reset every
// signal's disposition (daemons do: `for s in 1..NSIG: signal(s, SIG_DFL)`), and the default
// action of a real-time signal is to terminate: the next timer tick would kill it. So once the
// sampler's handler is installed, libprof_core's sigaction and signal keep it in place and record
// what the program asked for instead; the handler then gives every instance of the signal that is
// not a sample (not from a timer: kill, sigqueue) to the program's wish, as the kernel would have:
// its handler (with its flags and mask), nothing for SIG_IGN, and death by the signal for SIG_DFL.
// sigaction's old action reports prof's handler until the program sets its own, then the
// program's. Direct rt_sigaction system calls are not seen. The same interposers keep the
// tracers' stand-in for SIG_DFL on the fatal signals (last_words.h).
#pragma once

#include <signal.h>

namespace prof::injection {

// The next sigaction (libprof_osrt's wrapper or libc's): prof's own installation goes through it.
int NextSigaction(int signal_number, const struct sigaction* action, struct sigaction* old_action);

// From then on, the program's changes to `signal_number` (on which prof installed `prof_handler`)
// are recorded, not applied.
void GuardSamplingSignal(int signal_number, void* prof_handler);

// For an instance of the sampling signal that is not a sample: does what the program asked for.
// Async-signal-safe.
void DeliverToProgram(int signal_number, siginfo_t* info, void* context);

}  // namespace prof::injection
