package study

import (
	"gopkg.in/yaml.v3"
)

// Recorded is what perflab record captured about a run while it ran the
// benchmark (run.yaml's recorded mapping). An empty field was not
// captured: run.yaml holds null there, with a comment saying why.
type Recorded struct {
	BenchmarkCommand string // the command perflab record ran, shell-quoted
	EngineVersion    string // as the benchmark or the server printed it
	GPU              string // the GPU model the vendor's tool named
	GPUCount         int    // GPUs the vendor's tool listed; 0: not captured
	GPUDriver        string
	Host             string
	Date             string // when the benchmark started, RFC 3339 UTC
	PerflabVersion   string
	Pos              Pos
}

// recordedKeys are the keys of run.yaml's recorded mapping, in the order
// perflab record writes them.
var recordedKeys = []string{"benchmark_command", "engine_version", "gpu", "gpu_count", "gpu_driver", "host", "date", "perflab_version"}

// recorded reads run.yaml's recorded mapping; nil when there is none.
func (l *loader) recorded(m *mapping) *Recorded {
	n := m.fields["recorded"]
	if n == nil {
		return nil
	}
	rm := l.mapping(m.file, n, "recorded", recordedKeys...)
	rec := &Recorded{Pos: Pos{m.file, n.Line}}
	str := func(key string) string {
		if v := rm.fields[key]; v != nil && v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return "" // not captured
		}
		return rm.str(key, "recorded", false)
	}
	rec.BenchmarkCommand = str("benchmark_command")
	rec.EngineVersion = str("engine_version")
	rec.GPU = str("gpu")
	rec.GPUDriver = str("gpu_driver")
	rec.Host = str("host")
	rec.Date = str("date")
	rec.PerflabVersion = str("perflab_version")
	if v := rm.fields["gpu_count"]; v == nil || v.Tag != "!!null" {
		rec.GPUCount = rm.positive("gpu_count", "recorded", false)
	}
	return rec
}

// reproducesRefs checks that a run's reproduces names another run of the
// study, itself no reproduction: a reproduction reruns a configuration.
func (l *loader) reproducesRefs(s *Study) {
	for _, r := range s.Runs {
		if r.Reproduces == "" {
			continue
		}
		at := Pos{r.Pos.File, r.ReproducesLine}
		o := s.Run(r.Reproduces)
		switch {
		case o == nil:
			l.problem(at, "run %s reproduces %q, which is no run of the study: name the run folder it reran", r.ID, r.Reproduces)
		case o == r:
			l.problem(at, "run %s reproduces itself: name the run it reran", r.ID)
		case o.Reproduces != "":
			l.problem(at, "run %s reproduces %s, which is itself a reproduction (of %s): name the original run, %s", r.ID, o.ID, o.Reproduces, o.Reproduces)
		}
	}
}
