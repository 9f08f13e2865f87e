package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/perflab/perflab/internal/addrun"
	"github.com/perflab/perflab/internal/buildinfo"
	"github.com/perflab/perflab/internal/study"
)

const recordUsage = "usage: perflab record --study ID --run RUN [--workload W] [--command CMD] [--engine E] [--name NAME] [--gpus N] [--reproduces RUN] [--results DIR] -- BENCHMARK COMMAND..."

// runRecord runs a benchmark command, shows its output as it comes and
// keeps it, byte for byte, as the log of a new run, with run.yaml saying
// what was captured and what was not. Exit 1 when the benchmark failed or
// was interrupted (its partial log is kept aside, marked), or when perflab
// check finds an error in the new run.
func runRecord(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("record", stderr)
	var ro addrun.RecordOptions
	o := &ro.Options
	fs.StringVar(&o.Results, "results", "results", "results folder: one folder per study")
	fs.StringVar(&o.Study, "study", "", "id of the study to add the run to (it must exist)")
	fs.StringVar(&o.Run, "run", "", "id of the new run, e.g. vllm-fp8-tp2 (never overwritten)")
	fs.StringVar(&o.Workload, "workload", "", "workload the benchmark measures (default: inferred from its output)")
	fs.StringVar(&o.Command, "command", "", "serving command, exactly as you ran it (default: found in the output, or rebuilt and marked)")
	fs.StringVar(&o.Engine, "engine", "", "engine id of the study (default: inferred)")
	fs.StringVar(&o.Name, "name", "", "display name of the run (default: the engine's name or the run id)")
	fs.IntVar(&o.GPUs, "gpus", 0, "GPUs the run used (default: from the command's parallel sizes)")
	fs.StringVar(&o.Reproduces, "reproduces", "", "run of the study this one independently reruns (a reproduction)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if o.Study == "" || o.Run == "" || fs.NArg() == 0 {
		fmt.Fprintln(stderr, recordUsage)
		return errUsage
	}
	ro.Argv = fs.Args()
	ro.Stdout, ro.Stderr = stdout, stderr
	ro.Probe = addrun.DefaultProbe(buildinfo.Version())
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	p, err := addrun.Record(ctx, ro)
	var partial *addrun.PartialError
	if errors.As(err, &partial) {
		fmt.Fprintln(stderr, "perflab record:", err)
		if partial.Interrupted {
			return exitError(130)
		}
		return exitError(1)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nrecorded %s/\n  %s\n", filepath.ToSlash(p.Dir), study.RunFile)
	for _, lg := range p.Logs {
		fmt.Fprintf(stdout, "  %s\n", lg.FileName())
	}
	for _, f := range p.Recorded {
		if f.Missing != "" {
			fmt.Fprintf(stdout, "not captured, marked in %s: %s (%s)\n", study.RunFile, f.Key, f.Missing)
		}
	}
	for _, g := range p.Guesses {
		fmt.Fprintf(stdout, "guessed, marked in %s: %s: %s  (from %s)\n", study.RunFile, g.Field, firstLine(g.Value), g.From)
	}
	return closingCheck(stdout, stderr, "record", "the run was recorded", studyDirs(o.Results, "", o.Study))
}
