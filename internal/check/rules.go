package check

import (
	"cmp"
	"fmt"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/claims"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

func runRules(s *study.Study, add func(Diagnostic)) {
	for _, r := range s.Runs {
		modelRule(s, r, add)
		gpuRule(s, r, add)
		requestRules(s, r, add)
		plausibilityRules(s, r, add)
		repeatDataRule(s, r, add)
		sweepRules(s, r, add)
		for _, lg := range r.Logs {
			for i := range lg.Blocks {
				blockRules(&lg.Blocks[i], add)
			}
		}
		historyBlockRules(r, add)
		historyModelRule(s, r, add)
	}
}

func modelRule(s *study.Study, r *study.Run, add func(Diagnostic)) {
	if served, other := report.OtherModel(s, r.Command); other {
		add(Diagnostic{Rule: RuleModel, Severity: Error, File: r.Pos.File, Line: commandLine(r), Subject: r.ID,
			Printed: served, Computed: s.Model,
			Message: fmt.Sprintf("run %s%s serves %s, but the study is about %s: fix the command, or move the run to a study of that model; until then it is excluded from comparisons", r.ID, publishedAt(r), served, s.Model)})
	}
}

// commandLine is the line of the command field in run.yaml; the loader
// keeps only the file, so fall back to the top of the file.
func commandLine(r *study.Run) int {
	if r.CommandLine > 0 {
		return r.CommandLine
	}
	return r.Pos.Line
}

// gpuRule words the report's judgement of a run's GPUs (report.FitOf).
func gpuRule(s *study.Study, r *study.Run, add func(Diagnostic)) {
	f := report.FitOf(s, r)
	switch f.Misfit {
	case report.NeedsMore:
		add(Diagnostic{Rule: RuleGPUFit, Severity: Error, File: r.Pos.File, Line: commandLine(r), Subject: r.ID,
			Message: fmt.Sprintf("run %s%s: its command needs %d GPUs (%s), but the hardware has %d: fix the command or the study's hardware", r.ID, publishedAt(r), f.Need, f.Command.GPURule(), f.Node)})
	case report.SaysMore:
		add(Diagnostic{Rule: RuleGPUFit, Severity: Error, File: r.Pos.File, Line: r.GPUsLine, Subject: r.ID,
			Message: fmt.Sprintf("run %s says it used %d GPUs, but the hardware has %d", r.ID, r.GPUs, f.Node)})
	case report.CommandDiffers:
		sev := Warning
		if f.Excludes() {
			sev = Error
		}
		add(Diagnostic{Rule: RuleGPUFit, Severity: sev, File: r.Pos.File, Line: r.GPUsLine, Subject: r.ID,
			Message: fmt.Sprintf("run %s says it used %d GPUs, but its command asks for %d (%s): correct gpus, or the command", r.ID, r.GPUs, f.Need, f.Command.GPURule())})
	case report.Uneven:
		add(Diagnostic{Rule: RuleGPUFit, Severity: Warning, File: r.Pos.File, Line: r.GPUsLine, Subject: r.ID,
			Message: fmt.Sprintf("run %s uses %d of %d GPUs, which does not divide the node into replicas: it is compared unprojected", r.ID, r.GPUs, f.Node)})
	}
}

// metricRange is the range of true values a logged metric stands for.
func metricRange(m benchlog.Metric) report.Interval {
	return report.PrintedInterval(m.Value, m.Decimals)
}

// percentileKeys are, for each latency, its order statistics in the order
// they must not decrease.
var percentileKeys = func() [][]string {
	var out [][]string
	for _, stat := range []string{"ttft", "tpot", "itl", "e2el"} {
		var keys []string
		for _, q := range []string{"median", "p90", "p95", "p99", "p99.9"} {
			keys = append(keys, q+"_"+stat+"_ms")
		}
		out = append(out, keys)
	}
	return out
}()

// blockRules applies the identities that hold for the block's definition.
func blockRules(b *benchlog.Block, add func(Diagnostic)) {
	for _, p := range b.Problems {
		if p.Suspect {
			add(Diagnostic{Rule: RuleLogParse, Severity: Warning, File: p.File, Line: p.Line, Message: p.Msg})
			continue
		}
		add(Diagnostic{Rule: RuleLogParse, Severity: Error, File: p.File, Line: p.Line,
			Message: p.Msg + ": paste the benchmark output unchanged, from its banner to its closing rule"})
	}
	get := func(k string) (benchlog.Metric, bool) { m, ok := b.Metrics[k]; return m, ok }
	if b.Definition == benchlog.CountOverDuration {
		if dur, ok := get("duration"); ok && dur.Value > 0 {
			d := metricRange(dur)
			// formula is only written out for a problem: this runs on every block.
			ratio := func(key string, count float64, formula func() string) {
				m, ok := get(key)
				if !ok || d.Lo <= 0 {
					return
				}
				want := report.Interval{Lo: count / d.Hi, Hi: count / d.Lo}
				if !want.Overlaps(metricRange(m)) {
					add(Diagnostic{Rule: RuleArithmetic, Severity: Error, File: b.File, Line: m.Line,
						Printed: m.Raw, Computed: fmt.Sprintf("%.2f", count/dur.Value),
						Message: fmt.Sprintf("%s is printed as %s, but %s = %.2f: the block was edited or mixes two runs; paste the benchmark output unchanged", key, m.Raw, formula(), count/dur.Value)})
				}
			}
			in, okIn := get("total_input_tokens")
			out, okOut := get("total_output_tokens")
			if c, ok := get("completed"); ok {
				ratio("request_throughput", c.Value, func() string { return fmt.Sprintf("%s requests / %s s", c.Raw, dur.Raw) })
			}
			if okOut {
				ratio("output_throughput", out.Value, func() string { return fmt.Sprintf("%s tokens / %s s", out.Raw, dur.Raw) })
			}
			if okIn && okOut {
				ratio("total_token_throughput", in.Value+out.Value, func() string {
					return fmt.Sprintf("(%s + %s) tokens / %s s", in.Raw, out.Raw, dur.Raw)
				})
			}
		}
	}
	for _, keys := range percentileKeys {
		prev, prevKey := benchlog.Metric{}, ""
		for _, key := range keys {
			m, ok := get(key)
			if !ok {
				continue
			}
			if prevKey != "" && metricRange(m).Hi < metricRange(prev).Lo {
				add(Diagnostic{Rule: RulePercentiles, Severity: Error, File: b.File, Line: m.Line,
					Message: fmt.Sprintf("%s (%s) is below %s (%s): percentiles must not decrease; check the pasted block", key, m.Raw, prevKey, prev.Raw)})
			}
			prev, prevKey = m, key
		}
	}
}

// publishedAt names where the source published a run, when run.yaml says.
func publishedAt(r *study.Run) string {
	if r.Source == "" {
		return ""
	}
	return " (published at " + r.Source + ")"
}

// claimSeverity: a success rate rests on an assumption (how many requests
// were sent), and so does a mismatch the report marks as an assumption, so
// they are warnings; every other figure is an error.
func claimSeverity(c claims.Result) Severity {
	if c.Claim.Kind == study.ClaimSuccess || c.Suspect {
		return Warning
	}
	// An accuracy figure usually cites an evaluation made elsewhere: without
	// accuracy files it stays the source's word, which readers are told.
	if c.Claim.Kind == study.ClaimAccuracy && !c.Checked {
		return Warning
	}
	return Error
}

func claimRules(rep *report.Report, results []claims.Result, add func(Diagnostic)) {
	for _, c := range results {
		if c.Claim.Kind == study.ClaimUnchecked {
			continue // counted by uncheckedRule, once for the study
		}
		subject := string(c.Claim.Kind) + "/" + c.Claim.Workload + c.Claim.Step
		switch c.Claim.Kind {
		case study.ClaimCommand:
			subject = "recommended/command"
		case study.ClaimModel:
			subject = "setup/model"
		case study.ClaimTable:
			subject = "table/" + c.Claim.Source
		case study.ClaimAccuracy:
			subject = "accuracy/" + cmp.Or(c.Claim.Run, "recommended")
		}
		if c.Claim.Kind == study.ClaimConclusion {
			subject = "conclusion/" + c.Claim.Workload
		}
		where := ""
		if c.Claim.Source != "" {
			where = " (published at " + c.Claim.Source + ")"
		}
		switch {
		case c.Excluded != "":
			add(Diagnostic{Rule: RuleClaimUnproven, Severity: Warning, File: c.Claim.Pos.File, Line: c.Claim.Pos.Line, Subject: subject,
				Printed: c.Claim.Printed,
				Message: fmt.Sprintf("claim %q%s not checked: %s; the run's own error says what to fix", c.Claim.Printed, where, c.Detail)})
		case !c.Checked:
			add(Diagnostic{Rule: RuleClaimUnproven, Severity: claimSeverity(c), File: c.Claim.Pos.File, Line: c.Claim.Pos.Line, Subject: subject,
				Printed: c.Claim.Printed,
				Message: fmt.Sprintf("claim %q%s cannot be recomputed: %s; add the logs it rests on or remove the claim", c.Claim.Printed, where, c.Detail)})
		case !c.Match:
			add(Diagnostic{Rule: RuleClaim, Severity: claimSeverity(c), File: c.Claim.Pos.File, Line: c.Claim.Pos.Line, Subject: subject,
				Printed: c.Claim.Printed, Computed: c.Computed,
				Message: fmt.Sprintf("claim%s: %s%s", where, c.Detail, cmp.Or(stepClaimCause(rep, c), "; correct the published figure, or acknowledge it with a reason"))})
		case c.Unsupported:
			add(Diagnostic{Rule: RuleClaimUnproven, Severity: Warning, File: c.Claim.Pos.File, Line: c.Claim.Pos.Line, Subject: subject,
				Printed: c.Claim.Printed, Computed: c.Computed,
				Message: fmt.Sprintf("claim%s: %s; evaluate on more questions, or acknowledge it with a reason", where, c.Detail)})
		}
	}
}
