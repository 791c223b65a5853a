// An async `main` on Linux serves the main actor from the main thread's run loop, as on Darwin.
// The work happens in a load-time constructor (AsyncMainRunLoop.c); nothing here needs calling.
#pragma once
#include <stdbool.h>

/// Whether this process's async `main` will be served by the main run loop (the hook is ours).
bool corelocation_async_main_runs_main_run_loop(void);
