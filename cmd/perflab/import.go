package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"

	"github.com/perflab/perflab/internal/importer"
)

// runImport turns published Markdown reports into study folders of --out.
// Each study is written whole or not at all: a report that cannot be read
// is named with its line and leaves no folder, while the others are imported.
func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("import", stderr)
	out := fs.String("out", "results", "results folder to write the studies into, one folder per report")
	sourceURL := fs.String("source-url", "", "the web address the report was published at, cited in its setup (one REPORT.md only)")
	id := fs.String("study", "", "id of the study to write (one REPORT.md only; default: derived from the file name, shortened to 64 bytes)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 || ((*sourceURL != "" || *id != "") && fs.NArg() > 1) {
		fmt.Fprintln(stderr, "usage: perflab import [--out DIR] REPORT.md... or perflab import [--out DIR] [--source-url URL] [--study ID] REPORT.md")
		return errUsage
	}
	if u, err := url.Parse(*sourceURL); *sourceURL != "" && (err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "") {
		fmt.Fprintf(stderr, "perflab import: --source-url %q is not a web address: give the article's https address\n", *sourceURL)
		return errUsage
	}
	var studies []*importer.Study
	failed := 0
	for _, name := range fs.Args() {
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		s, err := importer.Import(name, src)
		var none *importer.NotAStudy
		if errors.As(err, &none) {
			fmt.Fprintln(stdout, err) // a notice: no folder, no failure
			continue
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			failed++
			continue
		}
		s.SourceURL = *sourceURL
		if *id != "" {
			s.ID = *id
		}
		studies = append(studies, s)
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
		fmt.Fprintf(stdout, "  %s\n", s.Summary())
	}
	if failed > 0 {
		// Each study is written whole or not at all; the reports that could
		// be read are imported, the others are named above.
		fmt.Fprintf(stderr, "perflab import: %d of %d reports not imported\n", failed, fs.NArg())
		return exitError(1)
	}
	return nil
}
