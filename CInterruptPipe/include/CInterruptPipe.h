// Signals caught into a pipe, for the stickerize command (a library must not take its
// host's signals).
#ifndef C_INTERRUPT_PIPE_H
#define C_INTERRUPT_PIPE_H

/// Catches each of the `count` signals in `numbers` with a handler that only writes the
/// signal's number, as one byte, into a pipe (the self-pipe trick: write(2) is
/// async-signal-safe, so the handler may interrupt anything), and returns the pipe's
/// read end, which blocks until a signal has come. The handlers are in place when this
/// returns: from then on none of the signals ends the process or is lost. Interrupted
/// system calls restart (SA_RESTART). Call it once. Returns -1, with errno set, when the
/// pipe or a handler cannot be made.
int cip_catch_signals(const int *numbers, int count);

#endif
