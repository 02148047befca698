#define _GNU_SOURCE
#include "CInterruptPipe.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

/// The pipe's write end, set before any handler is installed.
static volatile sig_atomic_t write_end = -1;

static void forward(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    // Non-blocking: a pipe full of signals not yet read already says there was one.
    ssize_t written = write(write_end, &byte, 1);
    (void)written;
    errno = saved;
}

int cip_catch_signals(const int *numbers, int count) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    if (fcntl(ends[1], F_SETFL, O_NONBLOCK) != 0) {
        int saved = errno;
        close(ends[0]);
        close(ends[1]);
        errno = saved;
        return -1;
    }
    write_end = ends[1];
    struct sigaction action = {0};
    action.sa_handler = forward;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int i = 0; i < count; i++) {
        if (sigaction(numbers[i], &action, NULL) != 0) return -1;
    }
    return ends[0];
}
