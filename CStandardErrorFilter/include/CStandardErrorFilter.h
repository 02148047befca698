// What reaches the stickerize command's standard error (not the library's: a library must
// not change its host's streams).
#ifndef C_STANDARD_ERROR_FILTER_H
#define C_STANDARD_ERROR_FILTER_H

/// Replaces the C library's `stderr` stream with an unbuffered one that writes straight to
/// file descriptor 2 and drops libjxl's failure traces. Debian's libjxl 0.7 is built to
/// print a line for every internal check a damaged file fails
/// ("./lib/jxl/dec_frame.cc:283: JXL_RETURN_IF_ERROR ..."), with no way to turn it off at
/// run time, while the command promises one line per bad file, naming it. Everything else
/// written to `stderr` (the Swift runtime's fatal errors, any other library) passes
/// through unchanged. Returns 1 when installed.
int csef_drop_library_traces(void);

#endif
