package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/perflab/perflab/internal/importer"
)

// runImport turns published Markdown reports into study folders of --out.
// Every report is read before anything is written, so a report that cannot
// be read leaves the results folder untouched.
func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("import", stderr)
	out := fs.String("out", "results", "results folder to write the studies into, one folder per report")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: perflab import [--out DIR] REPORT.md...")
		return errUsage
	}
	var studies []*importer.Study
	failed := false
	for _, name := range fs.Args() {
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		s, err := importer.Import(name, src)
		if err != nil {
			fmt.Fprintln(stderr, err)
			failed = true
			continue
		}
		studies = append(studies, s)
	}
	if failed {
		fmt.Fprintln(stderr, "perflab import: nothing written")
		return exitError(1)
	}
	for _, s := range studies {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := importer.Write(*out, s); err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(*out, s.ID), err)
		}
		for _, n := range s.Notes {
			fmt.Fprintln(stderr, n)
		}
		fmt.Fprintf(stdout, "imported %s into %s (%d runs, %d workloads, %d claims)\n", s.Source, filepath.Join(*out, s.ID), len(s.Runs), len(s.Workloads), len(s.Claims))
	}
	return nil
}
