// Command perflab builds LLM inference optimization reports from raw
// benchmark logs, and checks the logs and the published figures.
//
//	perflab build [--results DIR] [--content DIR] [--out DIR] [--base-url URL]
//	perflab serve [--addr 127.0.0.1:8080] [build flags]
//	perflab check [--results DIR] [--format text|json|github]
//	perflab parse [--format json|csv] FILE...
//	perflab summary --base DIR [--head DIR]
//	perflab add --study ID --run RUN LOG...
//	perflab record --study ID --run RUN -- BENCHMARK COMMAND...
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

func main() {
	// PERFLAB_CPUPROFILE=FILE writes a CPU profile of the command, for the
	// measurements of docs and issues (go tool pprof FILE).
	if name := os.Getenv("PERFLAB_CPUPROFILE"); name != "" {
		if f, err := os.Create(name); err == nil {
			if pprof.StartCPUProfile(f) == nil {
				defer pprof.StopCPUProfile()
			}
		}
	}
	// PERFLAB_TRACE=FILE writes an execution trace (go tool trace FILE):
	// where the cores wait.
	if name := os.Getenv("PERFLAB_TRACE"); name != "" {
		if f, err := os.Create(name); err == nil {
			if trace.Start(f) == nil {
				defer trace.Stop()
			}
		}
	}
	err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)
	pprof.StopCPUProfile() // os.Exit skips deferred calls
	trace.Stop()
	// PERFLAB_MEMPROFILE=FILE writes what the command allocated, by place
	// (go tool pprof -sample_index=alloc_space FILE).
	if name := os.Getenv("PERFLAB_MEMPROFILE"); name != "" {
		if f, err := os.Create(name); err == nil {
			pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
	}
	var exit exitError
	switch {
	case errors.As(err, &exit):
		os.Exit(int(exit))
	case errors.Is(err, errUsage):
		os.Exit(2)
	case err != nil:
		printError(os.Stderr, err)
		os.Exit(1)
	}
}

// exitError ends the program with a status and no further message.
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

var errUsage = errors.New("usage")

const usage = `usage: perflab <command> [flags]

commands:
  build   build the site from results/, content/, locales/ and templates/
  check   validate results/: every log, every published figure
  serve   build, serve on localhost, and rebuild when a file changes
  parse   print the result blocks of raw benchmark logs as JSON or CSV
  summary Markdown table of what a results tree changes in the reports against another
  import  turn published Markdown reports into study folders
  add     add a run to a study from benchmark logs you ran
  record  run a benchmark and keep its output as a new run, with what it ran on

Run "perflab <command> -h" for a command's flags.
`

// run runs a command. What it prints passes through a commandGuard (see
// ciout.go), but for perflab parse's own output, which is data: JSON, or
// CSV whose quoted fields may span lines.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	out, errs := newGuard(stdout), newGuard(stderr)
	defer out.Flush()
	defer errs.Flush()
	if len(args) > 0 && args[0] == "parse" {
		return runParse(args[1:], stdout, errs)
	}
	return runCommand(ctx, args, out, errs)
}

func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errUsage
	}
	switch args[0] {
	case "build":
		return runBuild(ctx, args[1:], stdout, stderr)
	case "check":
		return runCheck(ctx, args[1:], stdout, stderr)
	case "serve":
		return runServe(ctx, args[1:], stdout, stderr)
	case "summary":
		return runSummary(args[1:], stdout, stderr)
	case "import":
		return runImport(ctx, args[1:], stdout, stderr)
	case "add":
		return runAdd(ctx, args[1:], stdout, stderr)
	case "record":
		return runRecord(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprintf(stderr, "perflab: unknown command %q\n\n%s", args[0], usage)
	return errUsage
}
