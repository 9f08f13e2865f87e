// Package check validates studies: every rule runs over a study and its
// report, and all problems come back at once, each with its file, line and
// what to do. It runs after package report has computed the report and
// before package claims compares the figures a study copies from its
// source with it; AddClaims words each claim that does not hold.
//
// It neither prints nor writes; cmd/perflab formats the diagnostics.
package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/perflab/perflab/internal/claims"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// Severity of a diagnostic.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Rule ids. Each is documented in docs/checks.md.
const (
	RuleSchema        = "schema"
	RuleModel         = report.ExcludedModel
	RuleGPUFit        = report.ExcludedGPUs
	RuleClaim         = "claim-mismatch"
	RuleClaimUnproven = "claim-unproven"
	RuleArithmetic    = "log-arithmetic"
	RuleLogParse      = "log-parse"
	RulePercentiles   = "percentile-order"
	RuleAckUnused     = "ack-unused"
	RuleAckLanguage   = "ack-translation"
)

// Diagnostic is one problem.
type Diagnostic struct {
	Study    string   `json:"study"`
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column,omitempty"` // 1-based, in characters; 0: the whole line
	Message  string   `json:"message"`
	Subject  string   `json:"subject,omitempty"` // what an acknowledgement names
	Printed  string   `json:"printed,omitempty"`
	Computed string   `json:"computed,omitempty"`
	// Ack is the acknowledgement that accepts this problem, if any.
	Ack *study.Ack `json:"-"`
}

// Acknowledged reports whether the study acknowledges the problem.
func (d Diagnostic) Acknowledged() bool { return d.Ack != nil }

func (d Diagnostic) String() string {
	at := fmt.Sprintf("%s:%d", d.File, d.Line)
	if d.Column > 0 {
		at += fmt.Sprintf(":%d", d.Column)
	}
	s := fmt.Sprintf("%s: %s: %s", at, d.Rule, d.Message)
	if d.Ack != nil {
		s += " (acknowledged)"
	}
	return s
}

// Result is the outcome of checking one study.
type Result struct {
	Study       *study.Study
	Report      *report.Report
	Diagnostics []Diagnostic
	Figures     *Figures        // what the study's prose may state (ProseFigures)
	Claims      []claims.Result // each published claim against the report (AddClaims)
}

// Failed reports whether any unacknowledged error remains.
func Failed(results []Result) bool {
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if d.Severity == Error && !d.Acknowledged() {
				return true
			}
		}
	}
	return false
}

// Problems turns loader problems into schema diagnostics.
func Problems(probs []study.Problem) []Diagnostic {
	var out []Diagnostic
	for _, p := range probs {
		out = append(out, Diagnostic{Rule: RuleSchema, Severity: Error, File: p.Pos.File, Line: p.Pos.Line, Message: p.Msg})
	}
	return out
}

// Study runs every rule over a study and its report (report.Build, with
// the runs report.Exclusions leaves out); the claims come after
// (AddClaims).
func Study(rep *report.Report) Result {
	s := rep.Study
	var diags []Diagnostic
	add := func(d Diagnostic) {
		d.Study = s.ID
		diags = append(diags, d)
	}
	runRules(s, add)
	evidenceRules(s, add)
	diags = withoutRunBlame(s, diags)
	sameDataRule(s, rep.Excluded, add)
	definitionRules(s, rep.Excluded, add)
	for _, rr := range rep.Others {
		var steps []string
		for _, st := range s.Steps {
			steps = append(steps, st.ID)
		}
		add(Diagnostic{Rule: RuleUnplaced, Severity: Warning, File: rr.Run.Pos.File, Line: 1, Subject: rr.Run.ID,
			Message: fmt.Sprintf("run %s is in no step and in neither the baseline nor the recommended configuration: reports show it under Other runs, compared with nothing; to compare it, add %s to the runs of a step in %s (steps: %s)",
				rr.Run.ID, rr.Run.ID, s.Pos.File, strings.Join(steps, ", "))})
	}
	finiteRules(rep, add)
	tradeOffRules(rep, add)
	regressionRules(rep, add)
	reproductionRules(rep, add)
	recordedRules(s, add)
	guessRules(s, add)
	outputLengthRules(s, add)
	priceRule(s, add)
	acknowledge(s, diags, add)
	for i := range diags {
		diags[i].Study = s.ID
	}
	sortDiagnostics(diags)
	return Result{Study: s, Report: rep, Diagnostics: diags, Figures: proseFiguresOf(rep)}
}

// AddClaims keeps the results of a study's claims (claims.Check) and adds
// a diagnostic for each that does not hold, acknowledged as the study's
// own are.
func AddClaims(res *Result, results []claims.Result) {
	res.Claims = results
	var diags []Diagnostic
	claimRules(res.Report, results, func(d Diagnostic) { diags = append(diags, d) })
	uncheckedRule(results, func(d Diagnostic) { diags = append(diags, d) })
	AddCross(res, diags)
}

// AddCross adds the diagnostics of rules that span studies (the copy rule) to
// a study's result: each gets the study's acknowledgement, which is then no
// longer unused.
func AddCross(res *Result, diags []Diagnostic) {
	if len(diags) == 0 {
		return
	}
	index := newAckIndex(res.Study.Acks)
	nowUsed := map[study.Pos]bool{}
	for _, d := range diags {
		d.Study = res.Study.ID
		d.Ack = index.find(d.Rule, d.Subject)
		res.Diagnostics = append(res.Diagnostics, d)
		if a := d.Ack; a != nil {
			nowUsed[a.Pos] = true
		}
	}
	// The study's own pass found these acknowledgements unused.
	kept := res.Diagnostics[:0]
	for _, x := range res.Diagnostics {
		if x.Rule != RuleAckUnused || !nowUsed[study.Pos{File: x.File, Line: x.Line}] {
			kept = append(kept, x)
		}
	}
	res.Diagnostics = kept
	sortDiagnostics(res.Diagnostics)
}

// acknowledge attaches each acknowledgement to the problems it names and
// reports acknowledgements that name nothing.
func acknowledge(s *study.Study, diags []Diagnostic, add func(Diagnostic)) {
	index := newAckIndex(s.Acks)
	for j := range diags {
		if a := index.find(diags[j].Rule, diags[j].Subject); a != nil {
			diags[j].Ack = a
		}
	}
	for _, d := range index.tooManyPatterns() {
		add(d)
	}
	for i := range s.Acks {
		a := &s.Acks[i]
		if !index.used[i] {
			add(Diagnostic{Rule: RuleAckUnused, Severity: Warning, File: a.Pos.File, Line: a.Pos.Line,
				Message: fmt.Sprintf("acknowledgement of %s on %q matches no problem: remove it, or fix its rule and subject", a.Rule, a.Subject)})
		}
		for _, lang := range study.Languages {
			if a.Reason[lang] == "" {
				add(Diagnostic{Rule: RuleAckLanguage, Severity: Error, File: a.Pos.File, Line: a.Pos.Line,
					Message: fmt.Sprintf("acknowledgement of %s on %q has no reason in %q: write reason.%s", a.Rule, a.Subject, lang, lang)})
			}
		}
	}
}

// sortDiagnostics orders diagnostics by file, line, then rule and message,
// so that output never depends on map order.
func sortDiagnostics(d []Diagnostic) {
	sort.SliceStable(d, func(i, j int) bool {
		a, b := d[i], d[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
}
