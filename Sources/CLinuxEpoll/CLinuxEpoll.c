// Intentionally empty: the module is its header (CLinuxEpoll.h).
