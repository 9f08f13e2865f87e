package check

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// StudyFacts is what a study's prose may state about it, each fact with
// the file and line it comes from: the hardware, every run's engine,
// version, parallel sizes and metrics, the workloads' settings, and the
// order of runs by each metric.
type StudyFacts struct {
	GPU      string // hardware.gpu as written: "NVIDIA A100 SXM 80GB"
	NodeGPUs int
	GPUAt    string // study.yaml:line of the hardware
	Runs     []*RunFacts
	// Versions are, by engine name, the versions a study ran it on (the
	// study's and those of its runs' histories), with where each is stated.
	Versions  map[string][]factValue
	Workloads []study.Workload
	StudyFile string
	// Steps are each step's own runs and its reference, for the prose of
	// its section; Changes are the ratios prose may state there (to/from),
	// "" for the conclusion rows.
	Steps   map[string]stepFacts
	Changes map[string][]ratioFact
	// Headline is the metric a study compares; Higher says which way is
	// better for each metric key.
	Headline string
	Workload string // the main workload
	// Counts are what each workload's logs counted, by the kind of
	// setting prose may give them as: requests completed or sent
	// ("prompts"), total input and output tokens.
	Counts map[string]map[string][]float64 // workload -> kind -> values
	// runNames are the runs' display names, lower case, the longest
	// first, each with the runs of that name; an engine's bare name
	// ("vLLM") stands for the engine and is left out.
	runNames []runName
	// Limits are the latencies, in ms, the study sets as budgets: its SLO
	// and the goodput thresholds of its benchmark commands.
	Limits []float64
}

// RunFacts are one run's facts.
type RunFacts struct {
	ID, Name   string
	Engine     *serving.Engine
	Sizes      serving.Sizes
	GPUs       int
	File       string
	Line       int                                // the command's line
	Comparable bool                               // in comparisons: not failed, not excluded
	Metrics    map[string]map[string]report.Value // workload -> metric key -> value
}

type runName struct {
	name string
	runs []*RunFacts
}

type stepFacts struct {
	Runs      []*RunFacts
	Reference *RunFacts
}

// factValue is a stated value and where it is stated.
type factValue struct {
	Value, At string
}

// ratioFact is a change prose may state as a factor: to / from.
type ratioFact struct {
	Ratio    float64
	What, At string
	Workload string
}

// goodputLimit is a latency threshold of vllm bench serve --goodput.
var goodputLimit = regexp.MustCompile(`\b(?:ttft|tpot|e2el|itl):(\d+(?:\.\d+)?)\b`)

// countKinds are the counts of a block prose may give as a workload's
// setting, by the setting's kind.
var countKinds = map[string]string{"completed": "prompts", "num_prompts": "prompts", "total_input_tokens": "input", "total_output_tokens": "output"}

// higherBetter says whether a higher value of a metric is better.
func higherBetter(key string) bool { return !strings.HasSuffix(key, "_ms") }

// factMetric reports whether prose may state a metric: latencies and
// throughputs.
func factMetric(key string) bool {
	return strings.HasSuffix(key, "_ms") || strings.HasSuffix(key, "_throughput") || key == "duration"
}

// studyFactsOf builds the facts of a study from its checked report.
func studyFactsOf(rep *report.Report) *StudyFacts {
	s := rep.Study
	f := &StudyFacts{GPU: s.Hardware.GPU, NodeGPUs: s.Hardware.GPUs(), GPUAt: at(s.Hardware.Pos.File, s.Hardware.Pos.Line),
		Versions: map[string][]factValue{}, Workloads: s.Workloads, StudyFile: s.Pos.File,
		Steps: map[string]stepFacts{}, Changes: map[string][]ratioFact{}, Headline: rep.Headline.Key,
		Counts: map[string]map[string][]float64{}}
	if rep.Main != nil {
		f.Workload = rep.Main.ID
	}
	if s.SLO != nil {
		f.Limits = append(f.Limits, s.SLO.TTFT, s.SLO.TPOT, s.SLO.E2EL)
	}
	commands := s.Benchmark.Commands
	for _, w := range s.Workloads {
		commands += "\n" + w.Command
	}
	for _, m := range goodputLimit.FindAllStringSubmatch(commands, -1) {
		if v, err := strconv.ParseFloat(m[1], 64); err == nil {
			f.Limits = append(f.Limits, v)
		}
	}
	byID := map[string]*RunFacts{}
	for _, r := range s.Runs {
		rf := runFactsOf(s, r, rep.Excluded[r.ID] == "")
		f.Runs = append(f.Runs, rf)
		byID[r.ID] = rf
		for _, lg := range r.Logs {
			for _, b := range lg.Blocks {
				for k, kind := range countKinds {
					if m, ok := b.Metrics[k]; ok {
						if f.Counts[lg.Workload] == nil {
							f.Counts[lg.Workload] = map[string][]float64{}
						}
						f.Counts[lg.Workload][kind] = append(f.Counts[lg.Workload][kind], m.Value)
					}
				}
			}
		}
		if rf.Engine == nil {
			continue
		}
		for _, h := range r.History {
			f.Versions[rf.Engine.Name] = append(f.Versions[rf.Engine.Name], factValue{h.Version.Raw, h.Dir})
		}
	}
	f.runNames = runNamesOf(f.Runs)
	for _, e := range s.Engines {
		if named := labelEngine(s, e.ID); named != nil && e.Version != "" {
			f.Versions[named.Name] = append(f.Versions[named.Name], factValue{e.Version, at(s.Pos.File, e.VersionLine)})
		}
	}
	for _, st := range s.Steps {
		sf := stepFacts{Reference: byID[st.Reference]}
		for _, id := range st.Runs {
			if rf := byID[id]; rf != nil {
				sf.Runs = append(sf.Runs, rf)
			}
		}
		f.Steps["step/"+st.ID] = sf
	}
	for _, row := range rep.Rows {
		if c := row.Change; c != nil && c.From.Effective() > 0 {
			f.Changes[""] = append(f.Changes[""], ratioFact{c.To.Effective() / c.From.Effective(), "the conclusion row of " + row.Workload.ID,
				at(c.To.Source.File, c.To.Source.Line), row.Workload.ID})
		}
	}
	for _, sr := range rep.Steps {
		ref := sr.Reference
		if ref == nil || !ref.Comparable() || ref.Headline.Effective() <= 0 {
			continue
		}
		for _, rr := range sr.Ranking {
			if rr.Run.ID != ref.Run.ID {
				f.Changes["step/"+sr.Step.ID] = append(f.Changes["step/"+sr.Step.ID], ratioFact{rr.Headline.Effective() / ref.Headline.Effective(),
					fmt.Sprintf("run %s against the reference %s", rr.Run.ID, ref.Run.ID), at(rr.Headline.Source.File, rr.Headline.Source.Line), f.Workload})
			}
		}
	}
	return f
}

// runFactsOf reads one run's facts: its command's engine and sizes, and
// every latency and throughput of each workload's log.
func runFactsOf(s *study.Study, r *study.Run, kept bool) *RunFacts {
	cmd := serving.Parse(r.Command)
	rf := &RunFacts{ID: r.ID, Name: r.Name, Engine: cmd.Engine, Sizes: cmd.Sizes(), GPUs: r.GPUs, File: r.Pos.File, Line: commandLine(r),
		Comparable: kept && !r.Failed(), Metrics: map[string]map[string]report.Value{}}
	if rf.Engine == nil {
		rf.Engine = labelEngine(s, r.Engine)
	}
	for _, fl := range cmd.Flags {
		// vLLM's switch spreads the experts over every tp x dp GPU.
		if fl.Name == serving.FlagEP && fl.Value == "" {
			rf.Sizes.EP = rf.Sizes.TP * rf.Sizes.DP
		}
	}
	for _, w := range s.Workloads {
		var keys []string
		for _, lg := range r.Logs {
			if lg.Workload == w.ID && len(lg.Blocks) > 0 {
				for k := range lg.Blocks[0].Metrics {
					if factMetric(k) {
						keys = append(keys, k)
					}
				}
				break
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			if v, _, _ := report.Measure(s, r, w.ID, k); v != nil {
				if !higherBetter(k) {
					v.Replicas = 1 // latency is per request: never projected
				}
				if rf.Metrics[w.ID] == nil {
					rf.Metrics[w.ID] = map[string]report.Value{}
				}
				rf.Metrics[w.ID][k] = *v
			}
		}
	}
	return rf
}

// runNamesOf groups runs by display name, the longest name first.
func runNamesOf(runs []*RunFacts) []runName {
	index := map[string]int{}
	var out []runName
	for _, r := range runs {
		name := strings.ToLower(r.Name)
		if e := serving.Named(r.Name); len(name) < 2 || e != nil && e.Name == r.Name {
			continue
		}
		if i, ok := index[name]; ok {
			out[i].runs = append(out[i].runs, r)
			continue
		}
		index[name] = len(out)
		out = append(out, runName{name, []*RunFacts{r}})
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].name) > len(out[j].name) })
	return out
}

// at is a place as "file:line".
func at(file string, line int) string { return fmt.Sprintf("%s:%d", file, line) }

// scope is the runs a section's prose speaks of: a step's own runs, or
// every run of the study; with the step's reference, which prose names
// when it compares.
func (f *StudyFacts) scope(section string) (runs []*RunFacts, ref *RunFacts) {
	if sf, ok := f.Steps[section]; ok {
		return sf.Runs, sf.Reference
	}
	return f.Runs, nil
}

// value is a run's metric on a workload, as the report compares it.
func (r *RunFacts) value(workload, key string) (report.Value, bool) {
	v, ok := r.Metrics[workload][key]
	return v, ok
}
