/// The process exit codes stickerize promises (README, "Exit codes").
enum ExitCode: Int32 {
    /// Every input became a sticker.
    case success = 0
    /// Some inputs failed; the others were written.
    case someInputsFailed = 1
    /// The command line was wrong; nothing was processed.
    case usageError = 2
    /// SIGINT or SIGTERM stopped the run; finished outputs are complete, none is partial.
    case interrupted = 130
}
