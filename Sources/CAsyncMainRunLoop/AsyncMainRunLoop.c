// Swift's runtime serves an async `main` after its first suspension with `CFRunLoopRun()` on the
// main thread on Darwin, but with `dispatch_main()` elsewhere. On Linux `dispatch_main()` parks the
// main thread for good and the main queue (so the main actor) moves to worker threads: code after an
// `await` sees `Thread.isMainThread == false`, and `RunLoop.main.run(until:)` there returns at once
// without running anything (it only runs the calling thread's own run loop). An app that spins the
// main run loop after an `await`, as apps written for Apple's platforms do, would then never get a
// callback.
//
// Linking CoreLocation therefore gives the process Darwin's behaviour: the main thread runs
// Foundation's main run loop, which drains the main queue (and with it the main actor) and fires
// the main run loop's timers. It uses the hook the concurrency runtime exports for replacing that
// drain, only while nobody else has set it, and only when Foundation's `CFRunLoopRun` is in the process.
#include "CAsyncMainRunLoop.h"
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>

typedef __attribute__((swiftcall)) void (*DrainOriginal)(void);
typedef __attribute__((swiftcall)) void (*DrainHook)(DrainOriginal original, void *compatibilityOverride);

// Weak: a process without the concurrency runtime simply keeps its behaviour.
extern DrainHook swift_task_asyncMainDrainQueue_hook __attribute__((weak));

static void (*runMainRunLoop)(void);

static __attribute__((swiftcall)) void drainWithMainRunLoop(DrainOriginal original, void *compatibilityOverride) {
    (void)original;
    (void)compatibilityOverride;
    runMainRunLoop();
    // As on Darwin: the run loop returns only when stopped, and then the program ends.
    exit(0);
}

__attribute__((constructor)) static void installAsyncMainDrain(void) {
    if (&swift_task_asyncMainDrainQueue_hook == NULL || swift_task_asyncMainDrainQueue_hook != NULL) return;
    runMainRunLoop = (void (*)(void))dlsym(RTLD_DEFAULT, "CFRunLoopRun");
    if (runMainRunLoop == NULL) return;
    swift_task_asyncMainDrainQueue_hook = drainWithMainRunLoop;
}
