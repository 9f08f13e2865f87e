package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/markup"
	"github.com/perflab/perflab/internal/pipeline"
	"github.com/perflab/perflab/internal/plain"
	"github.com/perflab/perflab/internal/study"
)

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("perflab "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, name)
	return fs
}

// parseFlags parses flags; -h is not an error, a bad flag is a usage error.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitError(0)
		}
		return errUsage
	}
	return nil
}

// noArgs refuses arguments after the flags of a command that takes none: a
// flag written after one ("build site --out x") would be ignored otherwise.
func noArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q: this command takes flags only, before any other argument\n", fs.Name(), fs.Arg(0))
		fs.Usage()
		return errUsage
	}
	return nil
}

// repoURLFlag is --repo-url: an https address, as reports put it in links.
func repoURLFlag(fs *flag.FlagSet, d *pipeline.Dirs) {
	fs.Func("repo-url", "the repository's web address, e.g. https://github.com/ORG/REPO: each log links to its file there, and reports link to a new issue", func(v string) error {
		u, err := url.Parse(v)
		if err != nil || u.Scheme != "https" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(v, " \"()<>[]") {
			return fmt.Errorf("%q is not an https address of a repository, such as https://github.com/ORG/REPO", v)
		}
		d.RepoURL = v
		return nil
	})
}

// contentBeside is the prose of the studies in results: the content folder
// beside it in the repository's layout (results/ and content/ side by
// side), and none for a folder of another name, such as the one a report
// was imported into, whose studies the checkout's prose is not about.
func contentBeside(results string) string {
	clean := filepath.Clean(results)
	if filepath.Base(clean) != "results" {
		return ""
	}
	return filepath.Join(filepath.Dir(clean), "content")
}

// sharedBeside is the folder name (locales or templates) beside the
// results folder when it is there, or else def, the checkout's: a study
// imported elsewhere has no locales or templates of its own, and is read
// with the checkout's as a build of it would be.
func sharedBeside(results, name, def string) string {
	beside := filepath.Join(filepath.Dir(filepath.Clean(results)), name)
	if info, err := os.Stat(beside); err == nil && info.IsDir() {
		return beside
	}
	return def
}

func dirFlags(fs *flag.FlagSet) *pipeline.Dirs {
	d := pipeline.DefaultDirs
	contentGiven, localesGiven, templatesGiven := false, false, false
	fs.Func("results", "results folder: one folder per study (default \"results\")", func(v string) error {
		d.Results = v
		if !contentGiven {
			d.Content = contentBeside(v)
		}
		if !localesGiven {
			d.Locales = sharedBeside(v, "locales", pipeline.DefaultDirs.Locales)
		}
		if !templatesGiven {
			d.Templates = sharedBeside(v, "templates", pipeline.DefaultDirs.Templates)
		}
		return nil
	})
	fs.Func("content", "content folder: each study's prose per language (default: the content folder beside a folder named results; none beside another)", func(v string) error {
		d.Content, contentGiven = v, true
		return nil
	})
	fs.Func("locales", "locales folder: labels and sentences per language (default: the one beside the results folder, else locales)", func(v string) error {
		d.Locales, localesGiven = v, true
		return nil
	})
	fs.Func("templates", "templates folder (default: the one beside the results folder, else templates)", func(v string) error {
		d.Templates, templatesGiven = v, true
		return nil
	})
	return &d
}

// checkAlone is d for check when neither locales nor templates were given
// and the default ones are not there (perflab run outside a checkout, on a
// study imported elsewhere): the studies are checked alone, without the
// checks of the project's templates and messages, which are not theirs.
func checkAlone(d pipeline.Dirs) pipeline.Dirs {
	if d.Locales != pipeline.DefaultDirs.Locales || d.Templates != pipeline.DefaultDirs.Templates {
		return d
	}
	for _, dir := range []string{d.Locales, d.Templates} {
		if _, err := os.Lstat(dir); err == nil {
			return d // a checkout's, or one that is broken: check reports it
		}
	}
	d.Locales, d.Templates = "", ""
	return d
}

func runBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("build", stderr)
	d := dirFlags(fs)
	out := fs.String("out", "site", "output folder; replaced as a whole, and only when the build succeeds")
	fs.StringVar(&d.BaseURL, "base-url", "", "address the site is served at, e.g. https://ORG.github.io/REPO/ (sitemaps, 404.html)")
	repoURLFlag(fs, d)
	cache := fs.String("cache", "", "build cache folder, e.g. .perflab-cache: render again only the studies a change touches (same bytes as a full build)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if err := checkOutput("--out", *out, *d); err != nil {
		return err
	}
	if *cache != "" {
		if err := checkOutput("--cache", *cache, *d); err != nil {
			return err
		}
	}
	gc := 400
	if *cache != "" {
		gc = 200
	}
	defer buildGC(d.Results, gc)()
	// Without --cache, the same build with an empty cache, keeping none.
	res, err := pipeline.BuildCached(*d, *out, *cache)
	if err != nil {
		return err
	}
	abs, _ := filepath.Abs(filepath.Join(*out, "index.html"))
	fmt.Fprintf(stdout, "built %d reports in %d languages (%d files) into %s/", res.Studies, len(study.Languages), res.Files, *out)
	switch {
	case res.Incremental:
		fmt.Fprintf(stdout, ", %d rendered again (cache %s)", res.Rendered, *cache)
	case *cache != "":
		fmt.Fprintf(stdout, " (full build; cache %s)", *cache)
	}
	fmt.Fprintf(stdout, "\nopen file://%s\n", filepath.ToSlash(abs))
	warnErrors(res.Project, stderr)
	return nil
}

// buildGC makes a build collect garbage less often (GOGC percent instead
// of 100), unless GOGC or GOMEMLIMIT says otherwise, and returns the
// function that restores the collector's settings. A build allocates a
// lot and keeps little of it; the soft limit keeps a large tree's peak
// down, since each study keeps its diagnostics and id until the end.
// The figures behind the percentages are in docs/performance.md.
func buildGC(results string, percent int) func() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	entries, _ := os.ReadDir(results)
	gc := debug.SetGCPercent(percent)
	limit := debug.SetMemoryLimit(gcLimit(len(entries)))
	return func() {
		debug.SetGCPercent(gc)
		debug.SetMemoryLimit(limit)
	}
}

// gcLimit is a build's soft memory limit for a results folder of n
// entries: 460 MiB, and 80 KB per study past 1,000, up to 1.2 GB. A
// 1,000-study build peaks near the limit (484 MB under 460 MiB, 559 MB
// under 600 MiB, in the same time within noise); at 10,000 studies a
// limit of 987 MiB (60 KB a study) left the collector running without
// pause, 695 s against 228 s under 1,400 MiB (docs/performance.md).
func gcLimit(n int) int64 {
	return min(460<<20+max(int64(n)-1000, 0)*80<<10, 1200<<20)
}

// warnErrors says how many unacknowledged check errors the site shows.
func warnErrors(p *pipeline.Project, stderr io.Writer) {
	errs, acked := 0, 0
	for _, diag := range p.Diagnostics() {
		switch {
		case diag.Acknowledged():
			acked++
		case diag.Severity == check.Error:
			errs++
		}
	}
	if errs > 0 {
		fmt.Fprintf(stderr, "warning: %d unacknowledged check errors; run perflab check for details\n", errs)
	}
}

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("check", stderr)
	d := dirFlags(fs)
	format := fs.String("format", "text", "output format: text, json or github")
	summary := fs.String("summary", "", "with --format github: append every problem as a Markdown table to this file (default $GITHUB_STEP_SUMMARY)")
	fs.Func("study", "check only this study (repeatable): what a pull request touching it changes; copies are looked for among the studies given only", func(id string) error {
		d.Only = append(d.Only, id)
		return nil
	})
	verbose := fs.Bool("v", false, "with --format text: list the acknowledged problems too, each with its reason")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if err := knownStudies(d.Results, d.Only, stderr); err != nil {
		return err
	}
	switch *format {
	case "text", "json", "github":
	default:
		fmt.Fprintf(stderr, "perflab check: unknown format %q: use text, json or github\n", *format)
		return errUsage
	}
	// check holds little at once but allocates a lot while it reads
	// thousands of small files: collecting less often halves its GC time.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	commands := commandOutput(stdout) // for --format github's own annotations
	// A problem is a line: unbuffered, each would be a write of its own.
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	stdout = out
	alone := checkAlone(*d)
	if alone.Locales == "" {
		fmt.Fprintf(stderr, "perflab check: no %s/ or %s/ here or beside %s: checking the studies alone; perflab build needs --locales and --templates\n",
			d.Locales, d.Templates, d.Results)
	}
	p, figures, err := checkCounting(alone)
	if err != nil {
		return err
	}
	diags := p.Diagnostics()
	switch *format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if diags == nil {
			diags = []check.Diagnostic{}
		}
		type jsonDiag struct {
			check.Diagnostic
			Acknowledged bool   `json:"acknowledged"`
			Reason       string `json:"reason,omitempty"`
		}
		out := make([]jsonDiag, len(diags))
		for i, diag := range diags {
			out[i] = jsonDiag{Diagnostic: diag, Acknowledged: diag.Acknowledged()}
			if diag.Ack != nil {
				out[i].Reason = diag.Ack.Reason["en"]
			}
		}
		if err := enc.Encode(out); err != nil {
			return err
		}
	case "github":
		out.Flush()
		annotations := bufio.NewWriter(commands)
		writeGitHub(annotations, diags)
		if err := annotations.Flush(); err != nil {
			return err
		}
		file := *summary
		if file == "" {
			file = os.Getenv("GITHUB_STEP_SUMMARY")
		}
		if file != "" {
			if err := appendSummary(file, stdout, diags); err != nil {
				return err
			}
		}
	default:
		writeText(stdout, diags, *verbose, figures)
	}
	if p.Failed() {
		return exitError(1)
	}
	return nil
}

// writeText prints the problems still to fix, grouped by study, then a
// count. Acknowledged problems are one count line, or, verbose, listed
// after the others with their reasons.
//
// The count says how many published figures check recomputed and how many
// it could not, so "0 errors" is never read as all of them checked.
func writeText(w io.Writer, diags []check.Diagnostic, verbose bool, figures check.FigureCount) {
	errs, warns, acked := 0, 0, 0
	for _, d := range diags {
		switch {
		case d.Acknowledged():
			acked++
		case d.Severity == check.Error:
			errs++
		default:
			warns++
		}
	}
	writeGroup(w, diags, false)
	if verbose && acked > 0 {
		fmt.Fprintln(w, "acknowledged:")
		writeGroup(w, diags, true)
	}
	if acked > 0 && !verbose {
		fmt.Fprintf(w, "%d acknowledged problems not listed (perflab check -v lists them with their reasons)\n", acked)
	}
	fmt.Fprintf(w, "%d errors, %d warnings, %d acknowledged", errs, warns, acked)
	if figures.Checked+figures.Unchecked > 0 {
		fmt.Fprintf(w, "; %d published figures recomputed, %d could not be checked", figures.Checked, figures.Unchecked)
	}
	fmt.Fprintln(w)
}

// checkCounting is pipeline.Check, counting the published figures it
// recomputed and those it could not.
func checkCounting(d pipeline.Dirs) (*pipeline.Project, check.FigureCount, error) {
	var figures check.FigureCount
	p, err := pipeline.Check(d, func(res check.Result) error {
		n := check.CountFigures(res.Claims)
		figures.Checked += n.Checked
		figures.Unchecked += n.Unchecked
		return nil
	})
	return p, figures, err
}

// writeGroup prints the acknowledged or the other diagnostics, under
// their studies' ids.
func writeGroup(w io.Writer, diags []check.Diagnostic, acknowledged bool) {
	study := "\x00"
	for _, d := range diags {
		if d.Acknowledged() != acknowledged {
			continue
		}
		if d.Study != study {
			study = d.Study
			fmt.Fprintf(w, "%s\n", plain.Line(cmp.Or(study, "(project)")))
		}
		// One line each, whatever a file name or value holds: an escape
		// sequence must not recolour or rewrite the terminal.
		fmt.Fprintf(w, "  %s: %s: %s: %s\n", plain.Line(location(d)), d.Severity, d.Rule, plain.Line(d.Message))
		if d.Ack != nil {
			fmt.Fprintf(w, "    acknowledged: %s\n", plain.Line(d.Ack.Reason["en"]))
		}
	}
}

// knownStudies refuses a --study that names no study of the results
// folder, listing those it has.
func knownStudies(results string, only []string, stderr io.Writer) error {
	if len(only) == 0 {
		return nil
	}
	entries, err := os.ReadDir(results)
	if err != nil {
		return err
	}
	var known []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(results, e.Name(), study.StudyFile)); err == nil && e.IsDir() {
			known = append(known, e.Name())
		}
	}
	for _, id := range only {
		if !slices.Contains(known, id) {
			fmt.Fprintf(stderr, "perflab check: --study %q is not a study of %s; known studies: %s\n", id, results, strings.Join(known, ", "))
			return errUsage
		}
	}
	return nil
}

func location(d check.Diagnostic) string {
	if d.Line > 0 && d.Column > 0 {
		return fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column)
	}
	if d.Line > 0 {
		return fmt.Sprintf("%s:%d", d.File, d.Line)
	}
	return d.File
}

// writeGitHub prints workflow commands that annotate the files of a pull
// request, errors first.
// GitHub shows at most this many annotations of each kind per step.
const maxAnnotations = 10

// writeGitHub prints workflow commands that annotate the files of a pull
// request, errors first, at most maxAnnotations of each kind: the job
// summary lists every problem.
func writeGitHub(w io.Writer, diags []check.Diagnostic) {
	for _, sev := range []check.Severity{check.Error, check.Warning} {
		shown, rest := 0, 0
		for _, d := range diags {
			if d.Severity != sev || d.Acknowledged() {
				continue
			}
			if shown == maxAnnotations {
				rest++
				continue
			}
			shown++
			col := ""
			if d.Column > 0 {
				col = fmt.Sprintf(",col=%d", d.Column)
			}
			fmt.Fprintf(w, "::%s file=%s,line=%d%s,title=%s::%s\n", sev, ghEscapeProp(d.File), max(d.Line, 1), col, ghEscapeProp(d.Rule), ghEscape(d.Message))
		}
		if rest > 0 {
			fmt.Fprintf(w, "::notice title=perflab check::%d more %ss are listed in the job summary\n", rest, sev)
		}
	}
}

// appendSummary adds every problem, acknowledged ones included, to a
// GitHub job summary file as a Markdown table.
// When the table is cut at summaryLimit, every problem is printed to log.
func appendSummary(file string, log io.Writer, diags []check.Diagnostic) error {
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("## perflab check\n\n")
	if len(diags) == 0 {
		b.WriteString("No problems.\n")
	} else {
		rows := make([]string, len(diags))
		for i, d := range diags {
			sev := string(d.Severity)
			if d.Acknowledged() {
				sev = "acknowledged " + sev
			}
			rows[i] = fmt.Sprintf("| %s | %s | %s | %s |", sev, markup.CodeSpan(d.Rule), markdownText(location(d)), markdownText(d.Message))
		}
		if writeBoundedTable(&b, "| severity | rule | where | problem |\n| --- | --- | --- | --- |\n", rows, "problems") > 0 {
			fmt.Fprintln(log, "perflab check: every problem (the job summary shows the first):")
			writeText(log, diags, true, check.FigureCount{})
		}
	}
	if _, err := io.WriteString(f, b.String()+"\n"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// markdownSpecial are the characters that can start a link, an autolink
// (http:), emphasis, a code span, HTML or a new table cell inside a cell.
const markdownSpecial = "\\`*_{}[]<>()#!|~:"

// markdownText writes s as plain text in a Markdown table cell: file names
// and messages come from a pull request, so markdownSpecial characters are
// backslash-escaped, & is an entity, and line breaks, which would end the
// table row, are spaces.
func markdownText(s string) string {
	var b strings.Builder
	for _, r := range plain.Line(cutCell(s)) {
		switch {
		case r == '\n' || r == '\r':
			b.WriteByte(' ')
		case r == '&':
			b.WriteString("&amp;")
		case strings.ContainsRune(markdownSpecial, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ghEscape and ghEscapeProp escape a workflow command's message and its
// properties as GitHub's actions/toolkit does (packages/core/src/command.ts,
// escapeData and escapeProperty), so that a file name or message with a
// newline cannot start a command of its own.
// Other control characters (an ANSI escape would colour the job log) and
// bidirectional controls are made visible first.
func ghEscape(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(plain.Block(s))
}

func ghEscapeProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(plain.Block(s))
}

// errWrite marks an error of writing the output, which stops perflab parse;
// an error in a log only marks that log.
var errWrite = errors.New("writing the output")

func wrapWrite(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %w", errWrite, err)
}

func runParse(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("parse", stderr)
	format := fs.String("format", "json", "output format: json (one object per block) or csv (one row per block, one column per canonical metric)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 || (*format != "json" && *format != "csv") {
		fmt.Fprintln(stderr, "usage: perflab parse [--format json|csv] FILE...")
		return errUsage
	}
	// Blocks are written as they are read: memory does not grow with the
	// logs. The CSV's columns depend on every block, so its input is read
	// twice, first for the metric keys.
	out := bufio.NewWriter(stdout)
	failed := false
	// eachFile reads every log; a log that fails is reported (when report
	// is set) and the others are still read.
	eachFile := func(report bool, fn func(*benchlog.Block) error) error {
		for _, name := range fs.Args() {
			f, err := os.Open(name)
			if err != nil {
				return err
			}
			err = benchlog.Each(name, bufio.NewReader(f), fn)
			f.Close()
			if errors.Is(err, errWrite) {
				return err
			}
			if err != nil && report {
				fmt.Fprintln(stderr, err)
				failed = true
			}
		}
		return nil
	}
	if *format == "csv" {
		keys := map[string]bool{}
		if err := eachFile(false, func(b *benchlog.Block) error {
			for k := range b.Metrics {
				keys[k] = true
			}
			return nil
		}); err != nil {
			return err
		}
		cw, err := benchlog.NewCSVWriter(out, keys)
		if err != nil {
			return err
		}
		if err := eachFile(true, func(b *benchlog.Block) error { return wrapWrite(cw.Write(b)) }); err != nil {
			return err
		}
		if err := cw.Flush(); err != nil {
			return err
		}
	} else {
		// The bytes of json.Encoder with SetIndent("", "  ") on the slice.
		n := 0
		out.WriteString("[")
		if err := eachFile(true, func(b *benchlog.Block) error {
			data, err := json.MarshalIndent(b, "  ", "  ")
			if err != nil {
				return wrapWrite(err)
			}
			if n > 0 {
				out.WriteString(",")
			}
			n++
			out.WriteString("\n  ")
			_, err = out.Write(data)
			return wrapWrite(err)
		}); err != nil {
			return err
		}
		if n > 0 {
			out.WriteString("\n")
		}
		out.WriteString("]\n")
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if failed {
		return exitError(1)
	}
	return nil
}

// checkOutput refuses an output folder (--out, --cache) that is one of the
// input folders, inside one or holds one (the project root included): a
// build replaces its output whole.
func checkOutput(flag, out string, d pipeline.Dirs) error {
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	o := abs(out)
	inputs := []string{d.Results, d.Content, d.Locales, d.Templates}
	if cwd, err := os.Getwd(); err == nil && o == cwd {
		return fmt.Errorf("%s %s is the current folder: pass a folder of its own, such as site", flag, out)
	}
	for _, in := range inputs {
		if in == "" {
			continue
		}
		i := abs(in)
		if within(o, i) || within(i, o) {
			return fmt.Errorf("%s %s overlaps the input folder %s: pass a folder of its own, such as site", flag, out, in)
		}
	}
	return nil
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
