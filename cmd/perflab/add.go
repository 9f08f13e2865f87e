package main

import (
	"context"
	"fmt"
	"io"

	"path/filepath"
	"sort"
	"strings"

	"github.com/perflab/perflab/internal/addrun"
	"github.com/perflab/perflab/internal/pipeline"

	"github.com/perflab/perflab/internal/study"
)

const addUsage = "usage: perflab add --study ID --run RUN [--workload W] [--command CMD] [--engine E] [--name NAME] [--gpus N] [--gpu MODEL] [--reproduces RUN] [--results DIR] [--content DIR] LOG..."

// runAdd creates results/<study>/runs/<run>/ from a contributor's logs,
// then prints what perflab check says about the new run. It exits 1 when
// the run was not added, or when the check finds an error in it.
func runAdd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("add", stderr)
	var o addrun.Options
	fs.StringVar(&o.Results, "results", "results", "results folder: one folder per study")
	fs.StringVar(&o.Study, "study", "", "id of the study to add the run to; a study that does not exist is started with this run as its baseline")
	fs.StringVar(&o.Run, "run", "", "id of the new run, e.g. vllm-fp8-tp2 (never overwritten)")
	fs.StringVar(&o.Workload, "workload", "", "workload of the only LOG (default: inferred from the log)")
	fs.StringVar(&o.Command, "command", "", "serving command, exactly as you ran it (default: found in the logs, or rebuilt)")
	fs.StringVar(&o.Engine, "engine", "", "engine id of the study (default: inferred)")
	fs.StringVar(&o.Name, "name", "", "display name of the run (default: the engine's name or the run id)")
	fs.IntVar(&o.GPUs, "gpus", 0, "GPUs the run used (default: from the command's parallel sizes)")
	fs.StringVar(&o.GPU, "gpu", "", "a new study's GPU model, e.g. \"NVIDIA A100 SXM 80GB\" (default: marked in study.yaml for you to fill in)")
	fs.StringVar(&o.Content, "content", "content", "content folder, where a new study's prose files are started")
	fs.StringVar(&o.Reproduces, "reproduces", "", "run of the study this one independently reruns (a reproduction)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if o.Study == "" || o.Run == "" || fs.NArg() == 0 {
		fmt.Fprintln(stderr, addUsage)
		return errUsage
	}
	o.Logs = fs.Args()
	p, err := addrun.Add(o)
	if err != nil {
		return err
	}
	if p.New != nil {
		printNewStudy(stdout, p.New)
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
	return closingCheck(stdout, stderr, "add", "the run was added", studyDirs(o.Results, o.Content, o.Study))
}

// studyDirs are the folders perflab check --study reads for one study:
// the results folder given, and the content, locales and templates beside
// it (content as given, when it was).
func studyDirs(results, content, studyID string) pipeline.Dirs {
	top := filepath.Dir(filepath.Clean(results))
	d := pipeline.Dirs{Results: results, Content: content, Locales: filepath.Join(top, "locales"), Templates: filepath.Join(top, "templates"), Only: []string{studyID}}
	if d.Content == "" {
		d.Content = filepath.Join(top, "content")
	}
	return d
}

// closingCheck ends add and record with the verdict perflab check --study
// gives the whole study, so that a run added with no error is one the pull
// request's check passes too: a problem the new run causes may be reported
// against another run (a tie in same-data) or the study.
func closingCheck(stdout, stderr io.Writer, command, done string, d pipeline.Dirs) error {
	p, figures, err := checkCounting(d)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nperflab check --study %s:\n", d.Only[0])
	writeText(stdout, p.Diagnostics(), false, figures)
	if p.Failed() {
		fmt.Fprintf(stderr, "perflab %s: %s, but perflab check --study %s reports errors: see CONTRIBUTING.md for how to fix each\n", command, done, d.Only[0])
		return exitError(1)
	}
	return nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// printNewStudy says what perflab add started besides the run, and what
// to edit next.
func printNewStudy(w io.Writer, ns *addrun.NewStudy) {
	fmt.Fprintf(w, "started the study %s/ with this run as its baseline and recommended configuration\n", filepath.ToSlash(ns.Dir))
	fmt.Fprintf(w, "  %s\n", study.StudyFile)
	names := make([]string, 0, len(ns.Content))
	for name := range ns.Content {
		names = append(names, filepath.ToSlash(name))
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %s (the study's prose: name the workloads, then write its sections)\n", name)
	}
	fmt.Fprintln(w, "warning: a study of one run compares nothing yet: add the next runs with perflab add, list them in a step of study.yaml and name the best in recommended")
	if len(ns.Guesses) > 0 {
		fmt.Fprintf(w, "guessed, marked in %s; check each:\n", study.StudyFile)
		for _, g := range ns.Guesses {
			fmt.Fprintf(w, "  %s: %s  (from %s)\n", g.Field, g.Value, g.From)
		}
	}
}
