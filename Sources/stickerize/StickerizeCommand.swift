import CStandardErrorFilter
import FoundationEssentials
import Glibc
import StickerKit

/// The `stickerize` command: parse, run the batch, report, exit.
@main
enum StickerizeCommand {
    static func main() async {
        // First: from here on no interrupt is lost (see `InterruptSignals`).
        let signals = InterruptSignals()
        AllocatorTuning.apply()
        _ = csef_drop_library_traces()
        let code = await run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
                             signals: signals)
        exit(code.rawValue)
    }

    static func run(_ arguments: [String], environment: [String: String], signals: InterruptSignals) async -> ExitCode {
        InterruptSignals.ignoreWriteSignals()
        let options: CommandLineOptions
        do {
            options = try ArgumentParser.parse(arguments)
        } catch {
            StandardError.line("stickerize: \(error)")
            StandardError.line(UsageError.hint)
            return .usageError
        }
        if options.showsHelp || options.showsVersion {
            do {
                try StandardOutput.write(Data((options.showsHelp ? HelpText.text : HelpText.version + "\n").utf8))
                return .success
            } catch {
                return StandardOutput.exitCode(for: error)
            }
        }
        let work = Task { await runBatch(options, environment: environment) }
        signals.onInterrupt { work.cancel() }
        return await work.value
    }

    private static func runBatch(_ options: CommandLineOptions, environment: [String: String]) async -> ExitCode {
        let output = URL(fileURLWithPath: options.outputDirectory)
        let cacheDirectory = options.resolvedCacheDirectory(environment: environment).map { URL(fileURLWithPath: $0) }
        let cache = ResultCache(directory: cacheDirectory)
        let masks = options.maskDirectory.map { URL(fileURLWithPath: $0) }
        let pipeline = BatchPipeline(processor: PhotoProcessor(options: options.processingOptions), cache: cache,
                                     outputDirectory: output, maskDirectory: masks, rendition: options.rendition,
                                     jobs: options.jobs)
        let sources: [BatchInputs.Source] = options.inputs.map { input in
            input == "-" ? .pathList(PathListReader.paths(fileDescriptor: STDIN_FILENO, nulSeparated: options.nulSeparated))
                : .path(input)
        }
        let inputs = BatchInputs(sources, excluding: [output.path] + (masks.map { [$0.path] } ?? []),
                                 shard: options.shard, rendition: options.rendition)
        if options.listsOnly { return await DryRun.list(inputs, with: pipeline, options: options) }

        let inputCount = InputCount()
        let reporter = ProgressReporter(quiet: options.quiet, json: options.json, inputCount: inputCount)
        do {
            try ContainedFolder.createRoot(output)
        } catch {
            StandardError.line("stickerize: cannot create output folder \(output.path): \(error.reason)")
            return .someInputsFailed
        }
        let manifest: ManifestWriter
        do {
            manifest = try ManifestWriter(folder: output, options: options.processingOptions)
        } catch {
            StandardError.line("stickerize: cannot write in output folder \(output.path): \(error)")
            return .someInputsFailed
        }
        // `--prune`: what the last run's manifest lists, read before this run replaces it, and
        // what this run writes (or would have, for inputs that fail: their old outputs stay).
        let earlierOutputs = options.prunes ? StaleOutputs.listed(in: output) : []
        var claimedOutputs = Set<String>()
        var manifestProblem: (any Error)?
        // Counted beside the batch for the status line; a path list on standard input
        // can be read only once.
        let countsInputs = reporter.showsStatus && !options.inputs.contains("-")
        async let counting: Void = countsInputs ? inputCount.count(inputs) : ()
        let summary = await pipeline.run(inputs) { event in
            reporter.report(event)
            switch event {
            case .finished(let item), .cached(let item), .failed(let item):
                do { try manifest.add(item) } catch { manifestProblem = manifestProblem ?? error }
            case .started(let job):
                if options.prunes { claimedOutputs.formUnion([job.output] + (job.card.map { [$0] } ?? [])) }
            }
        }
        await counting
        if !summary.wasCancelled { await cache.evictIfGrown(limit: options.cacheLimit) }
        if let warning = await cache.writeWarning { reporter.warn(warning) }
        var pruned = 0
        var recordMissing = false
        do {
            if let manifestProblem { throw manifestProblem }
            try manifest.finish()
            // Only once the new manifest stands, so the next run's `--prune` reads this one.
            if options.prunes && !summary.wasCancelled {
                pruned = prune(earlierOutputs, keeping: claimedOutputs, output: output, masks: masks, reporter: reporter)
            }
            if let previewFile = options.previewFile { try writePreview(previewFile, output: output) }
        } catch {
            // CI reads the manifest: a run that could not write it did not succeed.
            reporter.fail("manifest or preview not written (\(error))")
            recordMissing = true
        }
        reporter.finish(summary, pruned: pruned)
        if summary.wasCancelled { return .interrupted }
        let failed = summary.failedCount > 0 || recordMissing || reporter.standardOutputFailed
        return failed ? .someInputsFailed : .success
    }

    /// `--prune`: removes the `earlier` outputs this run did not claim from the output
    /// folder, and their masks that no claimed output shares (a mask is always a PNG, so
    /// `a.webp` and `a.png` have the same one) from the mask folder; returns how many
    /// outputs went.
    private static func prune(_ earlier: Set<String>, keeping claimed: Set<String>, output: URL, masks: URL?,
                              reporter: ProgressReporter) -> Int {
        let (count, problem) = StaleOutputs.remove(earlier.subtracting(claimed), from: output)
        let staleMasks = Set(earlier.map(OutputNaming.maskName)).subtracting(claimed.map(OutputNaming.maskName))
        let maskProblem = masks.flatMap { StaleOutputs.remove(staleMasks, from: $0).problem }
        if let problem = problem ?? maskProblem { reporter.warn("stale outputs not all removed (\(problem))") }
        return count
    }

    /// `--preview FILE`: the HTML page for the manifest just written.
    private static func writePreview(_ file: String, output: URL) throws {
        let page = URL(fileURLWithPath: file)
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: output.appendingPathComponent(Manifest.fileName)))
        let html = Data(PreviewPage.render(manifest, outputDirectory: output, page: page).utf8)
        try AtomicFile.write(html, to: page, keepingIdentical: true)
    }
}
