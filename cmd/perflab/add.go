package main

import (
	"context"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/contrib"
	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/study"
)

const addUsage = "usage: perflab add --study ID --run RUN [--workload W] [--command CMD] [--engine E] [--name NAME] [--gpus N] [--reproduces RUN] [--results DIR] LOG..."

// runAdd creates results/<study>/runs/<run>/ from a contributor's logs,
// then prints what perflab check says about the new run. It exits 1 when
// the run was not added, or when the check finds an error in it.
func runAdd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("add", stderr)
	var o contrib.Options
	fs.StringVar(&o.Results, "results", "results", "results folder: one folder per study")
	fs.StringVar(&o.Study, "study", "", "id of the study to add the run to (it must exist)")
	fs.StringVar(&o.Run, "run", "", "id of the new run, e.g. vllm-fp8-tp2 (never overwritten)")
	fs.StringVar(&o.Workload, "workload", "", "workload of the only LOG (default: inferred from the log)")
	fs.StringVar(&o.Command, "command", "", "serving command, exactly as you ran it (default: found in the logs, or rebuilt)")
	fs.StringVar(&o.Engine, "engine", "", "engine id of the study (default: inferred)")
	fs.StringVar(&o.Name, "name", "", "display name of the run (default: the engine's name or the run id)")
	fs.IntVar(&o.GPUs, "gpus", 0, "GPUs the run used (default: from the command's parallel sizes)")
	fs.StringVar(&o.Reproduces, "reproduces", "", "run of the study this one independently reruns (a reproduction)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if o.Study == "" || o.Run == "" || fs.NArg() == 0 {
		fmt.Fprintln(stderr, addUsage)
		return errUsage
	}
	o.Logs = fs.Args()
	p, err := contrib.Add(o)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "added %s/\n", filepath.ToSlash(p.Dir))
	fmt.Fprintf(stdout, "  %s\n", study.RunFile)
	for _, lg := range p.Logs {
		how := "--workload"
		if lg.Why != "" {
			how = "guessed from " + lg.Why
		}
		if lg.LoadFrom != "" {
			how += "; load read from " + lg.LoadFrom
		}
		fmt.Fprintf(stdout, "  %s  <- %s (%s)\n", lg.FileName(), lg.From, how)
	}
	fmt.Fprintf(stdout, "model: %s (from %s)\n", p.Model, p.ModelOf)
	if len(p.Guesses) > 0 {
		fmt.Fprintf(stdout, "guessed, marked in %s; check each:\n", study.RunFile)
		for _, g := range p.Guesses {
			fmt.Fprintf(stdout, "  %s: %s  (from %s)\n", g.Field, firstLine(g.Value), g.From)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	diags, err := runDiagnostics(o.Results, o.Study, o.Run)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "\nperflab check on the new run:")
	writeText(stdout, diags)
	for _, d := range diags {
		if d.Severity == check.Error && !d.Acknowledged() {
			fmt.Fprintln(stderr, "perflab add: the run was added, but perflab check reports errors in it: see CONTRIBUTING.md for how to fix each")
			return exitError(1)
		}
	}
	return nil
}

// runDiagnostics checks the whole results tree, as perflab check does, and
// keeps the diagnostics about one run: in its folder, or naming it.
func runDiagnostics(results, studyID, run string) ([]check.Diagnostic, error) {
	root := filepath.ToSlash(results)
	studies, probs, err := study.LoadAll(safefs.New(results, root), root)
	if err != nil {
		return nil, err
	}
	dir := path.Join(root, studyID, "runs", run) + "/"
	var out []check.Diagnostic
	keep := func(d check.Diagnostic) {
		if strings.HasPrefix(d.File, dir) || (d.Study == studyID && (d.Subject == run || strings.HasPrefix(d.Subject, run+"/"))) {
			out = append(out, d)
		}
	}
	for _, d := range check.Problems(probs) {
		keep(d)
	}
	for _, r := range check.All(studies) {
		for _, d := range r.Diagnostics {
			keep(d)
		}
	}
	return out, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}
