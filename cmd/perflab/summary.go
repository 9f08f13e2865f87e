package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/markup"
	"github.com/perflab/perflab/internal/pipeline"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// runSummary compares the reports two results trees give and prints, as
// Markdown, what changes in meaning: reports added or removed, the
// recommended and baseline configurations and their commands, the conclusion
// of each workload, the best run of each step and the check status. The
// pull-request workflow writes it to the job summary.
func runSummary(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("summary", stderr)
	base := fs.String("base", "", "results folder of the base branch (missing: every report is new)")
	head := fs.String("head", "results", "results folder of the change")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if *base == "" {
		fmt.Fprintln(stderr, "perflab summary: --base DIR is required")
		return errUsage
	}
	before, baseVerdict, err := summaryFacts(*base, true)
	if err != nil {
		return fmt.Errorf("base: %w", err)
	}
	after, headVerdict, err := summaryFacts(*head, false)
	if err != nil {
		return fmt.Errorf("head: %w", err)
	}
	inputs, skipped, err := inputChanges(*base, *head)
	if err != nil {
		return err
	}
	code, err := codeChanges(*base, *head)
	if err != nil {
		return err
	}
	var top strings.Builder
	writeCodeReview(&top, code)
	writeVerdict(&top, baseVerdict, headVerdict)
	writeSummary(stdout, stderr, top.String(), before, after, inputs, skipped)
	return nil
}

// fact is one statement a report makes, such as the conclusion of a workload:
// text, and a command shown as code.
type fact struct{ key, value, code string }

// studyFacts are a study's statements in report order.
type studyFacts struct {
	facts []fact
}

func (s *studyFacts) add(key, format string, args ...any) {
	s.facts = append(s.facts, fact{key: key, value: fmt.Sprintf(format, args...)})
}

func (s *studyFacts) get(key string) (fact, bool) {
	for _, f := range s.facts {
		if f.key == key {
			return f, true
		}
	}
	return fact{value: "—"}, false
}

// summaryFacts loads a results folder, checks it (with the content,
// locales and templates beside it, as perflab check does) and lists each
// study's statements, with check's verdict. A missing folder is empty when
// missingOK.
func summaryFacts(dir string, missingOK bool) (map[string]*studyFacts, checkVerdict, error) {
	if _, err := os.Stat(dir); err != nil && missingOK {
		return map[string]*studyFacts{}, checkVerdict{}, nil
	}
	// Studies are read one at a time, as a build does: the facts of
	// 10,000 studies fit in memory, their logs would not.
	d := summaryDirs(dir)
	out := map[string]*studyFacts{}
	var mu sync.Mutex
	p, err := pipeline.Check(d, func(res check.Result) error {
		f := factsOf(res)
		mu.Lock()
		out[res.Study.ID] = f
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, checkVerdict{}, err
	}
	diags := p.Diagnostics()
	for i := range diags {
		diags[i].File = d.RepoPath(diags[i].File) // the same on both sides
	}
	addCheckFacts(d, out, diags)
	return out, verdictOf(diags), nil
}

func factsOf(res check.Result) *studyFacts {
	s, rep := res.Study, res.Report
	f := &studyFacts{}
	if s.Model == "" { // its study.yaml did not load: check names why
		f.add("report", "does not load: see check")
		return f
	}
	f.add("report", "%s on %d × %s, %s", s.Model, s.Hardware.GPUs(), s.Hardware.GPU, s.Objective)
	config := func(key string, runs []*study.Run) {
		if len(runs) == 0 {
			f.add(key, "—")
			return
		}
		var ids []string // run ids: two runs may share a display name
		for _, r := range runs {
			ids = append(ids, r.ID)
		}
		f.facts = append(f.facts, fact{key, strings.Join(ids, " + ") + ":", runs[0].Command})
	}
	f.add("price", "%s", priceFact(s.Price))
	f.add("latency budget", "%s", budgetFact(s.SLO))
	config("recommended", rep.Recommended)
	config("baseline", rep.Baseline)
	unit := rep.Headline.Unit
	for _, row := range rep.Rows {
		v := func(c *report.Cell) string {
			if c == nil {
				return "—"
			}
			return c.Headline.Expr()
		}
		change := "—"
		if row.Change != nil {
			change = report.FormatPercent(row.Change.Percent)
		}
		f.add("conclusion "+row.Workload.ID, "%s → %s %s (%s)", v(row.Baseline), v(row.Optimized), unit, change)
	}
	for _, st := range rep.Steps {
		best := "no comparable run"
		if st.Best != nil && st.Change != nil {
			best = fmt.Sprintf("%s (%s)", st.Best.Run.Name, report.FormatPercent(st.Change.Percent))
		}
		f.add("step "+st.Step.ID, "best %s; %s", best, rep.RankingLine(&st))
	}
	return f // and "check", once every problem is known (addCheckFacts)
}

// writeSummary prints a table of every statement that differs, then of
// every input file that differs (a price, a budget, a history log, a
// shared file change pages the statements do not cover). It says "no
// change in meaning" only when every input is the same, so every page is.
// A table over summaryLimit is cut, and printed whole to log.
// top, Markdown written first, is check's verdict.
//
// What it writes stays within summaryLimit bytes, and what it prints to
// log within logLimit.
func writeSummary(w, log io.Writer, top string, before, after map[string]*studyFacts, inputs []inputChange, skipped []string) {
	ids := map[string]bool{}
	for id := range before {
		ids[id] = true
	}
	for id := range after {
		ids[id] = true
	}
	sorted := make([]string, 0, len(ids))
	for id := range ids {
		sorted = append(sorted, id)
	}
	sort.Strings(sorted)

	type line struct {
		study, what string
		base, head  fact
	}
	var lines []line
	whole := map[string]bool{} // reports added or removed: their files go without saying
	for _, id := range sorted {
		b, a := before[id], after[id]
		switch {
		case b == nil:
			whole[id] = true
			v, _ := a.get("report")
			lines = append(lines, line{id, "new report", fact{value: "—"}, v})
			continue
		case a == nil:
			whole[id] = true
			v, _ := b.get("report")
			lines = append(lines, line{id, "report removed", v, fact{value: "—"}})
			continue
		}
		seen := map[string]bool{}
		for _, f := range a.facts {
			seen[f.key] = true
			if old, _ := b.get(f.key); old.value != f.value || old.code != f.code {
				lines = append(lines, line{id, f.key, old, f})
			}
		}
		for _, f := range b.facts {
			if !seen[f.key] {
				lines = append(lines, line{id, f.key, f, fact{value: "—"}})
			}
		}
	}

	var rows []string
	changed := map[string]bool{}
	for _, l := range lines {
		changed[l.study] = true
		rows = append(rows, "| "+markdownText(l.study)+" | "+markdownText(l.what)+" | "+mdFact(l.base)+" | "+mdFact(l.head)+" |")
	}
	rows = append(rows, inputRows(inputs, whole, changed)...)

	fmt.Fprintln(w, "## What this change does to the reports")
	fmt.Fprintln(w)
	io.WriteString(w, top)
	for _, folder := range skipped {
		fmt.Fprintf(w, "Only one side has a %s/ folder: it was not compared.\n\n", folder)
	}
	switch {
	case len(rows) == 0 && len(skipped) == 0:
		fmt.Fprintf(w, "No change in meaning: the %d reports are built from the same files, so every page stays as it is.\n", len(sorted))
		return
	case len(rows) == 0:
		fmt.Fprintf(w, "No change in the files compared: the %d reports keep their recommendations, commands, conclusions, step results and check status.\n", len(sorted))
		return
	case len(lines) == 0:
		fmt.Fprintf(w, "The %d reports keep their recommendations, commands, conclusions, step results and check status, but %d input files change, and with them what the site shows.\n\n", len(sorted), len(inputs))
	default:
		n := len(changed)
		if changed["every report"] {
			n = len(sorted)
		}
		fmt.Fprintf(w, "%d of %d reports change.\n\n", n, len(sorted))
	}
	header := "| report | what | base | this change |\n| --- | --- | --- | --- |\n"
	// What was written above the table is bounded: the verdict names ten
	// errors, the review of templates and locales a bounded list, each
	// line cut at cellLimit; the table takes what remains.
	rest := func(n int) string { return fmt.Sprintf("%d more changes: see the full list in the job log.", n) }
	if writeTableWithin(w, header, rows, summaryLimit-len(top)-summaryPreamble, rest) > 0 {
		fmt.Fprintln(log, "perflab summary: every change (the job summary shows the first):")
		writeLogTable(log, header, rows, "changes")
	}
}

// summaryPreamble bounds what writeSummary writes besides top and the
// table: its heading, the folders not compared and the count of reports.
const summaryPreamble = 1024

func mdFact(f fact) string {
	if f.code == "" {
		return mdText(f.value)
	}
	return mdText(f.value) + " " + mdCode(f.code)
}

// mdText makes text from results/ plain text in a Markdown table cell, its
// lines joined, cut at cellLimit.
func mdText(s string) string { return markdownText(cutCell(oneLine(s))) }

// mdCode shows a command as a code span in a table cell; code spans are
// literal, so only the cell separator is escaped.
func mdCode(s string) string {
	return markup.CodeSpan(strings.ReplaceAll(cutCell(oneLine(s)), "|", "\\|"))
}

// oneLine joins the lines of a multi-line value with " ⏎ ".
func oneLine(s string) string {
	s = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, " ⏎ ")
}

// inputRows are one table row per report whose input files changed beyond
// what its facts say, and one for the shared files, which change every
// report: each lists its files. changed gains their reports.
func inputRows(inputs []inputChange, whole, changed map[string]bool) []string {
	var order []string
	files := map[string][]string{}
	for _, c := range inputs {
		scope := reportOf(c.path)
		if whole[scope] {
			continue
		}
		if files[scope] == nil {
			order = append(order, scope)
		}
		files[scope] = append(files[scope], c.path+" ("+c.kind+")")
	}
	rows := make([]string, 0, len(order))
	for _, scope := range order {
		changed[scope] = true
		rows = append(rows, fmt.Sprintf("| %s | %d input files | — | %s |", markdownText(scope), len(files[scope]), mdText(strings.Join(files[scope], ", "))))
	}
	return rows
}

// priceFact is a study's GPU-hour price as the summary shows it, and where
// it comes from when it is shared.
func priceFact(p *study.Price) string {
	if p == nil {
		return "—"
	}
	text := p.Raw + " " + p.Currency + " per GPU-hour"
	if p.Shared {
		text += " (results/prices.yaml)"
	}
	return text
}

// budgetFact is a study's latency budget: its statistic and limits.
func budgetFact(slo *study.SLO) string {
	if slo == nil {
		return "—"
	}
	var limits []string
	for _, l := range slo.Limits() {
		limits = append(limits, fmt.Sprintf("%s ≤ %s ms", l.Metric, strconv.FormatFloat(l.Limit, 'f', -1, 64)))
	}
	return slo.Stat + ": " + strings.Join(limits, ", ")
}
