// Glibc's Swift module leaves out epoll and eventfd; this exposes them to the benchmark client.
#pragma once
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif
