package report

import (
	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// Why a run, or a version of its history, is excluded from comparisons:
// the id of the check rule that reports it.
const (
	ExcludedModel = "model-mismatch" // it serves another model
	ExcludedGPUs  = "gpu-fit"        // it does not fit the study's hardware
)

// Exclusions decides, from the study alone, which runs and which versions
// of a run's history (HistorySubject) cannot be compared with the others,
// each with the reason. It is the report's first step; check reports
// each exclusion, with what to fix, from the same decisions (OtherModel,
// FitOf, ShownNeedsMore).
func Exclusions(s *study.Study) map[string]string {
	out := map[string]string{}
	node := s.Hardware.GPUs()
	for _, r := range s.Runs {
		if _, other := OtherModel(s, r.Command); other {
			out[r.ID] = ExcludedModel
		}
		if FitOf(s, r).Excludes() {
			out[r.ID] = ExcludedGPUs
		}
		for _, h := range r.History {
			if h.Command == "" {
				continue
			}
			subject := HistorySubject(r.ID, h.Version.Raw)
			if _, other := OtherModel(s, h.Command); other {
				out[subject] = ExcludedModel
			}
			for _, c := range serving.ShellCommands(h.Command) {
				if _, over := ShownNeedsMore(c.Text, node); over {
					out[subject] = ExcludedGPUs
				}
			}
		}
	}
	return out
}

// OtherModel returns the model a command serves, and whether that is
// another model than the study's.
func OtherModel(s *study.Study, command string) (served string, other bool) {
	served = serving.Parse(command).Model
	if served == "" || s.Model == "" || served == s.Model {
		return served, false
	}
	return served, !serving.SameModel(served, s.Model)
}

// Misfit is how a run's GPUs disagree with the hardware or its command.
type Misfit int

const (
	Fits           Misfit = iota
	NeedsMore             // its command needs more GPUs than the hardware has
	SaysMore              // its gpus field says more than the hardware has
	CommandDiffers        // its command asks for another number than gpus says
	Uneven                // its GPUs do not divide the node into replicas
)

// Fit is a run's GPUs against the study's hardware and its command.
type Fit struct {
	Misfit
	Need, Node int
	Command    serving.Command
}

// FitOf compares a run's GPUs with the hardware and its command.
func FitOf(s *study.Study, r *study.Run) Fit {
	f := Fit{Node: s.Hardware.GPUs()}
	if f.Node == 0 || r.GPUs == 0 {
		return f
	}
	f.Command = serving.Parse(r.Command)
	f.Need = f.Command.GPUs()
	// A command that starts no known engine (an export line, a wrapper
	// script) or whose engine is configured elsewhere (MindIE) says nothing
	// about its GPUs unless it sets a parallel size.
	counts := f.KnownEngine() || f.Need > 1
	switch {
	case f.Need > f.Node:
		f.Misfit = NeedsMore
	case r.GPUs > f.Node:
		f.Misfit = SaysMore
	case f.Need != r.GPUs && counts:
		f.Misfit = CommandDiffers
	case f.Node%r.GPUs != 0:
		f.Misfit = Uneven
	}
	return f
}

// KnownEngine reports whether the command starts an engine whose command
// sets its parallelism.
func (f Fit) KnownEngine() bool { return f.Command.Engine != nil && !f.Command.Engine.ConfigOutside }

// Excludes reports whether the misfit keeps the run out of comparisons:
// gpus sets the replicas a run is projected onto, so a known engine's
// command that says otherwise makes the projection wrong.
func (f Fit) Excludes() bool {
	return f.Misfit == NeedsMore || f.Misfit == SaysMore || f.Misfit == CommandDiffers && f.KnownEngine()
}

// ShownNeedsMore returns the GPUs a shown command needs, and whether a
// known engine's command needs more than the node has.
func ShownNeedsMore(command string, node int) (int, bool) {
	cmd := serving.Parse(command)
	if node == 0 || cmd.Engine == nil || cmd.Engine.ConfigOutside {
		return 0, false
	}
	need := cmd.GPUs()
	return need, need > node
}
