/// The process exit codes stickerize promises (README, "Exit codes").
enum ExitCode: Int32 {
    /// Every input became a sticker.
    case success = 0
    /// Some inputs failed; the others were written. Also: the output folder or standard
    /// output could not be written.
    case someInputsFailed = 1
    /// The command line was wrong; nothing was processed.
    case usageError = 2
    /// SIGINT, SIGTERM or SIGHUP stopped the run; finished outputs are complete, none is
    /// partial.
    case interrupted = 130
    /// Standard output's reader went away before `--list` or the help was all written
    /// (`| head`): what a process killed by SIGPIPE reports to its shell, 128 + 13.
    case readerGone = 141
}
