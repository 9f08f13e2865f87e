package addrun

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/study"
)

// A log of a workload the study does not have is not guessed into one it
// has: perflab add says how to declare the new workload, with the entry
// of study.yaml drafted from what the log says, as it would draft a new
// study's (draftWorkload).

// newWorkloadError is the error for a log no workload of s fits: pass
// --workload if it measured one of them, or declare the workload it
// measured, with the YAML to paste.
func newWorkloadError(s *study.Study, info *logInfo) error {
	id := logStem(info.path)
	if study.ValidID("workload", id) != nil {
		id = "NEW-WORKLOAD" // the file name gives none: the contributor names it
	}
	w := draftWorkload(id, info, false)
	// The entry goes into study.yaml: it names the log by its file name,
	// not by where it is on this machine.
	entry := strings.ReplaceAll(workloadEntry(w, info), info.path+":", filepath.Base(info.path)+":")
	after := ""
	if n := len(s.Workloads); n > 0 {
		after = fmt.Sprintf(" (the last one starts at line %d)", s.Workloads[n-1].Pos.Line)
	}
	return fmt.Errorf("%s: no workload of %s fits this log (no file name, label, benchmark setting or token count matches one).\n"+
		"If it measured one of them (%s), pass --workload with its id.\n"+
		"If it measured a new workload, declare it first: add this at the end of workloads: in %s%s, check each value, "+
		"give the workload its display name under workloads: in the front matter of content/<lang>/%s.md (en, zh and ja), then run perflab add again:\n\n%s",
		info.path, s.Pos.File, workloadIDs(s), s.Pos.File, after, s.ID, strings.TrimSuffix(entry, "\n"))
}

// logStem is a log's workload part of its file name ("random-8k" of
// random-8k.run-1.log), lower case.
func logStem(p string) string {
	base := filepath.Base(p)
	stem := strings.ToLower(strings.TrimSuffix(base, filepath.Ext(base)))
	id, _, _, _ := study.SplitLogName(stem, func(string) bool { return false })
	return id
}

// workloadEntry is a workload as an item of study.yaml's workloads list,
// indented as perflab writes it. Each value it inferred is marked as
// perflab marks a guess ("# guessed from ...: check"), which perflab
// check reports until a person removes the comment.
func workloadEntry(w study.Workload, info *logInfo) string {
	args := info.args
	var b strings.Builder
	line := func(key, value, comment string) {
		lead := "    "
		if b.Len() == 0 {
			lead = "  - "
		}
		fmt.Fprintf(&b, "%s%s: %s # %s\n", lead, key, value, comment)
	}
	guessed := func(from string) string { return "guessed from " + from + ": check" }
	_, dataFrom := datasetOf(info)
	line("id", w.ID, guessed("the log's file name"))
	line("dataset", w.Dataset, guessed(dataFrom))
	if w.Dataset == "random" {
		for _, l := range []struct {
			key, arg string
			n        int
		}{{"input_len", "random_input_len", w.InputLen}, {"output_len", "random_output_len", w.OutputLen}} {
			if l.n == 0 {
				line(l.key, "0", "not in the log: write the tokens per request you benchmarked with")
			} else {
				line(l.key, strconv.Itoa(l.n), guessed(l.arg+" in "+args[l.arg].where))
			}
		}
	}
	if w.NumPrompts > 0 {
		line("num_prompts", strconv.Itoa(w.NumPrompts), guessed("num_prompts in "+args["num_prompts"].where))
	}
	if w.Seed != nil {
		line("seed", strconv.Itoa(*w.Seed), guessed("seed in "+args["seed"].where))
	}
	return b.String()
}
