package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/pipeline"
)

// verdictErrors is how many of check's errors the summary names.
const verdictErrors = 10

// checkVerdict is what perflab check says of a tree: whether it passes,
// its counts and its first unacknowledged errors.
type checkVerdict struct {
	errs, warns, acked int
	first              []check.Diagnostic // up to verdictErrors
}

func verdictOf(diags []check.Diagnostic) checkVerdict {
	var v checkVerdict
	for _, d := range diags {
		switch {
		case d.Acknowledged():
			v.acked++
		case d.Severity == check.Error:
			v.errs++
			if len(v.first) < verdictErrors {
				v.first = append(v.first, d)
			}
		default:
			v.warns++
		}
	}
	return v
}

// counts are the verdict's counts as check's text output ends.
func (v checkVerdict) counts() string {
	return fmt.Sprintf("%d errors, %d warnings, %d acknowledged", v.errs, v.warns, v.acked)
}

func (v checkVerdict) String() string {
	if v.errs > 0 {
		return "fails (exit 1): " + v.counts()
	}
	return "passes: " + v.counts()
}

// summaryDirs are the folders check reads for a results folder: it, and
// content/, locales/ and templates/ beside it when they are there, so that
// the summary's verdict is the one perflab check gives.
func summaryDirs(results string) pipeline.Dirs {
	d := pipeline.Dirs{Results: results}
	root := filepath.Dir(filepath.Clean(results))
	for _, f := range []struct {
		name string
		dir  *string
	}{{"content", &d.Content}, {"locales", &d.Locales}, {"templates", &d.Templates}} {
		if info, err := os.Lstat(filepath.Join(root, f.name)); err == nil && info.IsDir() {
			*f.dir = filepath.Join(root, f.name)
		}
	}
	if d.Locales == "" || d.Templates == "" {
		d.Locales, d.Templates = "", "" // check reads them as a pair
	}
	return d
}

// diagStudy is the study a diagnostic belongs to, by its study or its
// file (results/<study>/..., content/<lang>/<study>.md), or "".
func diagStudy(d pipeline.Dirs, diag check.Diagnostic) string {
	if diag.Study != "" {
		return diag.Study
	}
	parts := strings.Split(d.RepoPath(diag.File), "/")
	switch {
	case parts[0] == "results" && len(parts) > 2:
		return parts[1]
	case parts[0] == "content" && len(parts) == 3:
		return strings.TrimSuffix(parts[2], ".md")
	}
	return ""
}

// addCheckFacts gives each study of out the counts of check's problems
// that belong to it; a study folder that check reports on but that does
// not load gets a fact that says so.
func addCheckFacts(d pipeline.Dirs, out map[string]*studyFacts, diags []check.Diagnostic) {
	byStudy := map[string][]check.Diagnostic{}
	for _, diag := range diags {
		if id := diagStudy(d, diag); id != "" {
			byStudy[id] = append(byStudy[id], diag)
		}
	}
	for id := range byStudy {
		if out[id] == nil {
			if _, err := os.Stat(filepath.Join(d.Results, id)); err != nil {
				continue // a file that names a study with no folder
			}
			out[id] = &studyFacts{}
			out[id].add("report", "does not load: see check")
		}
	}
	for id, f := range out {
		f.add("check", "%s", verdictOf(byStudy[id]).counts())
	}
}

// writeVerdict writes check's verdict on the change, and on the base when
// it differs, naming the change's first errors.
func writeVerdict(b *strings.Builder, base, head checkVerdict) {
	fmt.Fprintf(b, "**perflab check** on this change %s", head)
	if base.String() != head.String() {
		fmt.Fprintf(b, " (on the base it %s)", base)
	}
	b.WriteString(".\n\n")
	for _, d := range head.first {
		fmt.Fprintf(b, "- %s: %s: %s\n", mdCode(location(d)), mdCode(d.Rule), markdownText(cutCell(oneLine(d.Message))))
	}
	if rest := head.errs - len(head.first); rest > 0 {
		fmt.Fprintf(b, "- %d more errors not shown: run perflab check for every one.\n", rest)
	}
	if len(head.first) > 0 {
		b.WriteString("\n")
	}
}
