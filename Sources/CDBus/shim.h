// libdbus-1's one public header. Only its non-variadic functions are used from Swift (the
// dbus_message_iter_* API for arguments): Swift cannot call C variadic functions.
#include <dbus/dbus.h>
