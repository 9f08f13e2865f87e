package report

import (
	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// The path from the baseline to the recommended configuration: the steps
// that built it, one after another, each credited with its own change.
// A study names each step's reference, often the baseline for every
// step, so that a step that builds on an earlier one (TP4 on FP8
// weights) would be credited with the earlier step's change too. The
// path follows the serving commands instead: starting at the baseline, a
// step is on the path when one of its runs takes a setting of the
// recommended command (the engine, the model as served, a flag that
// changes performance) that the configuration so far lacks; that run is
// the next configuration, and the step is credited with its change from
// the one before. The changes along the path compound: their ratios
// multiply to the whole gain.

// PathLink is one step of the path: From, the configuration the step
// changed, and To, the step's run the path goes on with. Also is another
// step whose whole subject (the settings all its alternatives change from
// the configuration it changed) this link changes too: the link then
// credits this step with that step's change as well; nil when none.
type PathLink struct {
	Step     *StepResult
	From, To *RunResult
	Change   *Change // To against From, in the step's family (StepResult.Credit)
	Also     *StepResult
}

// StepPath is the path through the steps on the main workload.
type StepPath struct {
	Baseline, Recommended *RunResult
	Links                 []PathLink
	// Reached says whether the last link's run is the recommended
	// configuration (the same settings). When it is not, or a link
	// changes another step's subject too (PathLink.Also), the steps were
	// not measured one at a time (OneAtATime false).
	Reached    bool
	OneAtATime bool
	Whole      *Change // the recommended configuration against the baseline
}

// settings are a run's serving command's settings (serving.Settings).
func settings(run *study.Run) map[string]string {
	return serving.Parse(run.Command).Settings()
}

// towards counts the settings of to that are the target's and that from
// lacks: how far a step from from to to goes towards the target.
func towards(from, to, target map[string]string) int {
	n := 0
	for k, v := range target {
		if w, ok := to[k]; ok && w == v {
			if u, ok := from[k]; !ok || u != v {
				n++
			}
		}
	}
	return n
}

// sameSettings reports whether two settings are one configuration.
func sameSettings(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// stepPath finds the path and credits each step on it: each step's
// alternatives are compared, as one family (Holm), with the configuration
// the step changed, in StepResult.Credit. Steps off the path are credited
// against their reference. nil without a comparable baseline and
// recommended configuration on the main workload.
func (r *Report) stepPath() *StepPath {
	if r.Main == nil {
		return nil
	}
	row := r.RowByWorkload(r.Main.ID)
	if row == nil || row.Baseline == nil || row.Optimized == nil || row.Change == nil {
		return nil
	}
	base, rec := r.runResult(row.Baseline.Run), r.runResult(row.Optimized.Run)
	if !base.Comparable() || !rec.Comparable() {
		return nil
	}
	p := &StepPath{Baseline: &base, Recommended: &rec, Whole: row.Change}
	target := settings(rec.Run)
	current, at := &base, settings(base.Run)
	for i := range r.Steps {
		sr := &r.Steps[i]
		next := nextOnPath(sr, at, target)
		if next == nil || sameSettings(at, target) {
			r.credit(sr, sr.Reference)
			continue
		}
		r.credit(sr, current)
		p.Links = append(p.Links, PathLink{Step: sr, From: current, To: next, Change: creditOf(sr, next)})
		current, at = next, settings(next.Run)
	}
	p.Reached = sameSettings(at, target)
	p.OneAtATime = p.Reached
	for i := range p.Links {
		l := &p.Links[i]
		l.Also = r.coveredStep(l)
		if l.Also != nil {
			p.OneAtATime = false
		}
	}
	return p
}

// coveredStep is the first other step with alternatives whose subject a
// link changes whole, or nil.
func (r *Report) coveredStep(l *PathLink) *StepResult {
	changed := diffKeys(settings(l.From.Run), settings(l.To.Run))
	for i := range r.Steps {
		other := &r.Steps[i]
		if other == l.Step {
			continue
		}
		subject := stepSubject(other)
		if len(subject) == 0 {
			continue
		}
		covered := true
		for k := range subject {
			covered = covered && changed[k]
		}
		if covered {
			return other
		}
	}
	return nil
}

// stepSubject is what a step is about: the settings every alternative of
// it changes from the configuration it changed.
func stepSubject(sr *StepResult) map[string]bool {
	if sr.Changed == nil {
		return nil
	}
	from := settings(sr.Changed.Run)
	var subject map[string]bool
	for _, rr := range sr.Runs {
		if rr.Run == sr.Changed.Run || rr.Run.ID == sr.Step.Reference {
			continue
		}
		d := diffKeys(from, settings(rr.Run))
		if subject == nil {
			subject = d
			continue
		}
		for k := range subject {
			if !d[k] {
				delete(subject, k)
			}
		}
	}
	return subject
}

// diffKeys are the settings two configurations set differently.
func diffKeys(a, b map[string]string) map[string]bool {
	out := map[string]bool{}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			out[k] = true
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out[k] = true
		}
	}
	return out
}

// nextOnPath is the run of a step that goes furthest from the settings
// at towards the target, the first in ranking order among equals; nil
// when none goes towards it.
func nextOnPath(sr *StepResult, at, target map[string]string) *RunResult {
	var best *RunResult
	most := 0
	for i := range sr.Ranking {
		rr := &sr.Ranking[i]
		if rr.Run.ID == sr.Step.Reference {
			continue
		}
		if n := towards(at, settings(rr.Run), target); n > most {
			best, most = rr, n
		}
	}
	return best
}

// credit compares a step's alternatives with the configuration it
// changed, as one family: Credit holds each comparable alternative's
// change, by run id, and Changed the configuration.
func (r *Report) credit(sr *StepResult, changed *RunResult) {
	if changed == nil || !changed.Comparable() {
		return
	}
	sr.Changed = changed
	if sr.Reference != nil && changed.Run == sr.Reference.Run {
		sr.Credit = map[string]*Change{}
		for _, rr := range sr.Runs {
			if rr.Change != nil {
				sr.Credit[rr.Run.ID] = rr.Change // the step's own comparisons
			}
		}
		return
	}
	sr.Credit = map[string]*Change{}
	var family []*Change
	for _, rr := range sr.Runs {
		if !rr.Comparable() || rr.Run.ID == sr.Step.Reference || rr.Run == changed.Run {
			continue
		}
		ch := r.compare(r.Headline, *changed.Headline, *rr.Headline)
		judged := rr
		judged.Change = ch
		r.judgeRun(changed, &judged) // its comparability, against the configuration changed
		sr.Credit[rr.Run.ID] = ch
		family = append(family, ch)
	}
	holmFamily(family)
}

// creditOf is the change a step credits a run with, or nil.
func creditOf(sr *StepResult, rr *RunResult) *Change {
	if rr == nil || sr.Credit == nil {
		return nil
	}
	return sr.Credit[rr.Run.ID]
}

// BestCredit is the change of the step's best alternative against the
// configuration the step changed: what the summary of options credits the
// step with. nil when the step has no best or nothing to compare it with.
func (sr *StepResult) BestCredit() *Change {
	if sr.Best == nil {
		return nil
	}
	return creditOf(sr, sr.Best)
}
