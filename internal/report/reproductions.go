package report

import (
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// Comparability says whether a reproduction ran on the same thing as its
// original: the same, a different one, or unknown when either side does
// not record it.
type Comparability int

const (
	Unknown Comparability = iota
	Same
	Different
)

// Reproduction is one rerun of a run, measured on one workload.
type Reproduction struct {
	Run *study.Run
	// Change is the rerun's headline against the original's; nil when the
	// rerun has no result on the workload.
	Change *Change
	// Agrees: the change is inside the noise (Change.Noise).
	Agrees bool
	// GPU and Version compare the GPU model and the engine version; the
	// values compared are the run's recorded ones (run.yaml recorded),
	// else, for the version, the study's.
	GPU, Version              Comparability
	GPUs                      [2]string // original, rerun; "" unknown
	Versions                  [2]string
	Differences               []string // what differs in the serving commands
	OriginalValue, RerunValue *Value
}

// Figure is one figure of a run (its headline on one workload) with every
// reproduction of it.
type Figure struct {
	Workload      string
	Original      *Value
	Reproductions []Reproduction
	Agree         int // how many of them agree within the noise
}

// Reproduced is a run that has reproductions, with each of its figures.
type Reproduced struct {
	Run     *study.Run
	Figures []Figure
}

// Reproductions gathers, for every run some other run reproduces (its
// run.yaml says reproduces: <run>), each headline figure of the original
// with each rerun's, in run id order, then by the study's workloads.
func Reproductions(s *study.Study, m Metric) []Reproduced {
	byRun := map[string][]*study.Run{}
	for _, r := range s.Runs {
		if r.Reproduces != "" && !r.Failed() {
			byRun[r.Reproduces] = append(byRun[r.Reproduces], r)
		}
	}
	var out []Reproduced
	for _, orig := range s.Runs {
		reruns := byRun[orig.ID]
		if len(reruns) == 0 || orig.Failed() {
			continue
		}
		rp := Reproduced{Run: orig}
		for _, w := range s.Workloads {
			ov, _, _ := Measure(s, orig, w.ID, m.Key)
			if ov == nil {
				continue
			}
			f := Figure{Workload: w.ID, Original: ov}
			for _, rr := range reruns {
				rep := compareRuns(s, orig, rr)
				if v, _, _ := Measure(s, rr, w.ID, m.Key); v != nil {
					rep.Change = NewChange(m, *ov, *v)
					rep.Agrees = rep.Change.Noise
					rep.OriginalValue, rep.RerunValue = ov, v
				}
				if rep.Agrees {
					f.Agree++
				}
				f.Reproductions = append(f.Reproductions, rep)
			}
			rp.Figures = append(rp.Figures, f)
		}
		if len(rp.Figures) > 0 {
			out = append(out, rp)
		}
	}
	return out
}

// compareRuns says what a rerun shares with its original.
func compareRuns(s *study.Study, orig, rerun *study.Run) Reproduction {
	rep := Reproduction{Run: rerun}
	rep.GPUs = [2]string{recordedGPU(orig), recordedGPU(rerun)}
	rep.GPU = compare(rep.GPUs, func(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) })
	rep.Versions = [2]string{engineVersion(s, orig), engineVersion(s, rerun)}
	rep.Version = compare(rep.Versions, func(a, b string) bool {
		va, ea := study.ParseVersion(a)
		vb, eb := study.ParseVersion(b)
		if ea != nil || eb != nil {
			return a == b
		}
		return va.Compare(vb) == 0
	})
	if orig.Engine != rerun.Engine {
		rep.Differences = append(rep.Differences, "engine "+orig.Engine+" vs "+rerun.Engine)
	}
	rep.Differences = append(rep.Differences, serving.Parse(orig.Command).Differences(serving.Parse(rerun.Command))...)
	if orig.GPUs != rerun.GPUs {
		rep.Differences = append(rep.Differences, "GPUs "+strconv.Itoa(orig.GPUs)+" vs "+strconv.Itoa(rerun.GPUs))
	}
	return rep
}

func compare(pair [2]string, same func(a, b string) bool) Comparability {
	switch {
	case pair[0] == "" || pair[1] == "":
		return Unknown
	case same(pair[0], pair[1]):
		return Same
	}
	return Different
}

// recordedGPU is the GPU model a run recorded; "" when it recorded none:
// the study's hardware.gpu is how people name a GPU, not how the vendor's
// tool does, so the two are not compared.
func recordedGPU(r *study.Run) string {
	if r.Recorded == nil {
		return ""
	}
	return r.Recorded.GPU
}

// engineVersion is the version a run recorded, else the study's for its
// engine.
func engineVersion(s *study.Study, r *study.Run) string {
	if r.Recorded != nil && r.Recorded.EngineVersion != "" {
		return r.Recorded.EngineVersion
	}
	if e := s.Engine(r.Engine); e != nil {
		return e.Version
	}
	return ""
}
