// An async `main` on Linux serves the main actor from the main thread's run loop, as on Darwin.
// All of it happens in a load-time constructor (AsyncMainRunLoop.c): there is nothing to call.
#pragma once
