package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// RuleDefinitions: a workload compares runs measured by tools that define
// TPOT, ITL or the window of their throughputs differently
// (docs/metrics.md, "Definitions by tool").
const RuleDefinitions = "metric-definitions"

// measured is what one run's blocks of a workload give to compare.
type measured struct {
	run    string
	family benchlog.Family
	defs   benchlog.Definitions
	has    map[string]bool // "TPOT", "ITL", "tok/s"
}

// figuresOf says which of the figures whose definitions differ across
// tools a block gives.
func figuresOf(b *benchlog.Block, has map[string]bool) {
	for k := range b.Metrics {
		switch {
		case strings.HasSuffix(k, "_tpot_ms"):
			has["TPOT"] = true
		case strings.HasSuffix(k, "_itl_ms"):
			has["ITL"] = true
		case k == "output_throughput" || k == "total_token_throughput" || k == "request_throughput":
			has["tok/s"] = true
		}
	}
}

// definitionRules warns, once per workload, when two of the runs it
// compares come from tools that define a figure both give differently.
func definitionRules(s *study.Study, excluded map[string]string, add func(Diagnostic)) {
	for _, w := range s.Workloads {
		var ms []measured
		for _, r := range s.Runs {
			if r.Failed() || excluded[r.ID] != "" {
				continue
			}
			m := measured{run: r.ID, has: map[string]bool{}}
			for _, lg := range r.Logs {
				if lg.Workload != w.ID {
					continue
				}
				for i := range lg.Blocks {
					if f, d := benchlog.FamilyOf(&lg.Blocks[i]); f != "" && m.family == "" {
						m.family, m.defs = f, d
					}
					figuresOf(&lg.Blocks[i], m.has)
				}
			}
			if m.family != "" {
				ms = append(ms, m)
			}
		}
		if d, ok := differingDefinitions(s, w, ms); ok {
			add(d)
		}
	}
}

// differingDefinitions finds the figures that runs of different families
// both give and define differently.
func differingDefinitions(s *study.Study, w study.Workload, ms []measured) (Diagnostic, bool) {
	differ := map[string]bool{}
	runs := map[benchlog.Family][]string{}
	var details []string
	for i, a := range ms {
		runs[a.family] = append(runs[a.family], a.run)
		for _, b := range ms[i+1:] {
			if a.family == b.family {
				continue
			}
			for _, f := range []struct {
				name   string
				da, db string
			}{{"TPOT", a.defs.TPOT, b.defs.TPOT}, {"ITL", a.defs.ITL, b.defs.ITL}, {"tok/s", a.defs.Window, b.defs.Window}} {
				if a.has[f.name] && b.has[f.name] && f.da != f.db && !differ[f.name] {
					differ[f.name] = true
					details = append(details, fmt.Sprintf("%s is %s for %s (run %s) but %s for %s (run %s)",
						f.name, f.da, a.family, a.run, f.db, b.family, b.run))
				}
			}
		}
	}
	if len(differ) == 0 {
		return Diagnostic{}, false
	}
	var figures, families []string
	for _, f := range []string{"TPOT", "ITL", "tok/s"} {
		if differ[f] {
			figures = append(figures, f)
		}
	}
	for f, rs := range runs {
		families = append(families, fmt.Sprintf("%s: %s", f, strings.Join(rs, ", ")))
	}
	sort.Strings(families)
	return Diagnostic{Rule: RuleDefinitions, Severity: Warning, File: s.Pos.File, Line: w.Pos.Line, Subject: w.ID,
		Printed: strings.Join(figures, ", "), Computed: strings.Join(families, "; "),
		Message: fmt.Sprintf("workload %s compares runs measured by tools that define %s differently: %s; the comparison of these figures mixes measurements (docs/metrics.md, Definitions by tool): measure the runs with one tool, or acknowledge it with subject %s",
			w.ID, strings.Join(figures, ", "), strings.Join(details, "; "), w.ID)}, true
}
