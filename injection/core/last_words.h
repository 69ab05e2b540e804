// Work a tracer must finish before its process ends without exit(): through _exit or _Exit
// (Python's os._exit, a forked worker's end), exec (the image and its buffers are replaced), or a
// fatal signal whose disposition is the default (SIGTERM from a job manager, SIGSEGV, abort()).
// exit() is not among them: atexit handlers cover it. A tracer that buffers records in the
// process (CUPTI's activity buffers) registers its last words; libprof_core says them from its
// _exit, _Exit, execve, execv, execvp, execvpe and fexecve interposers, and from a handler it
// stands in with for SIG_DFL on the fatal signals.
//
// The stand-in handler is the default disposition plus the last words: the program sees SIG_DFL
// when it asks (sigaction's old action, signal's return), setting SIG_DFL keeps the stand-in, and
// setting a handler or SIG_IGN replaces it (that program's own handler decides what ends it). After
// the last words the handler puts SIG_DFL back and sends the signal again, so the process dies of
// it as it would have (a core dump included).
//
// Last words run at most once per process at a time, in any thread, and may be called from a
// signal handler: they must be async-signal-safe and bounded in time. A second caller meanwhile
// waits for the first (bounded too), so a process never ends in the middle of them.
#pragma once

#include <signal.h>

#include "injection/core/event_stream.h"

namespace prof::injection {

using LastWords = void (*)();

// Adds `words` to what is said before an abrupt end (at most 4 registrations; later ones are
// ignored and return false).
PROF_EXPORT bool AddLastWords(LastWords words);

// From now on, prof stands in for SIG_DFL on every fatal signal whose disposition is the default
// now, and on those the program later sets to SIG_DFL. Called by a tracer when it has last words.
PROF_EXPORT void StandInForFatalSignals();

// Says the registered last words (nothing when none are registered).
void SayLastWords();

// libprof_core's sigaction and signal family: whether `signal_number` has the stand-in installed
// or may get it, and the call as the program must see it on such a signal.
bool MayStandIn(int signal_number);
int StandInSigaction(int signal_number, const struct sigaction* action,
                     struct sigaction* old_action);

}  // namespace prof::injection
